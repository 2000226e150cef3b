#include "lock_event_writer.h"

#include "etcdclient/hex_id.h"

#include <algorithm>
#include <thread>

namespace lockscope::bench {

namespace {
// Outlives the longest run; the leases are revoked when the writer goes.
constexpr int64_t leaseTtlSeconds = 120;
} // namespace

LockEventWriter::LockEventWriter(etcd::Client& client, std::string prefix, int locks, int depth,
                                 int sessions)
    : client_(client)
    , prefix_(std::move(prefix))
    , depth_(static_cast<std::size_t>(depth))
    // More sessions than places in a queue, so the next session to enqueue is never queued.
    , leases_(client, std::max(sessions, depth + 1), leaseTtlSeconds)
    , queues_(static_cast<std::size_t>(locks))
    , nextSession_(static_cast<std::size_t>(locks), 0)
    , inFlight_(static_cast<std::size_t>(locks), false) {}

void LockEventWriter::run(int eventsPerSecond, Clock::duration duration) {
    const auto period = std::chrono::nanoseconds(std::chrono::seconds(1)) / eventsPerSecond;
    // Without a lease beyond the queue's depth (etcd refused them) there is nothing to write.
    const auto events = leases_.ids().size() > depth_ ? static_cast<int>(duration / period) : 0;
    {
        std::lock_guard lock(mutex_);
        committed_.clear();
        started_ = Clock::now();
        lastAnswer_ = started_;
    }
    for (int event = 0; event < events; ++event) {
        std::this_thread::sleep_until(started_ + event * period); // at once when behind
        write(nextIdleLock());
    }
    std::unique_lock lock(mutex_);
    answered_.wait(lock, [this] {
        return std::none_of(inFlight_.begin(), inFlight_.end(), [](bool busy) { return busy; });
    });
}

std::size_t LockEventWriter::nextIdleLock() {
    std::unique_lock lock(mutex_);
    for (;;) {
        for (std::size_t i = 0; i < inFlight_.size(); ++i) {
            const std::size_t candidate = (nextLock_ + i) % inFlight_.size();
            if (!inFlight_[candidate]) {
                inFlight_[candidate] = true;
                nextLock_ = candidate + 1;
                return candidate;
            }
        }
        answered_.wait(lock);
    }
}

void LockEventWriter::write(std::size_t lock) {
    std::deque<int>& queue = queues_[lock];
    const bool enqueue = queue.size() < depth_;
    const int session = enqueue ? nextSession_[lock] : queue.front();
    const int64_t lease = leases_.ids()[static_cast<std::size_t>(session)];
    const std::string key = prefix_ + "lock" + std::to_string(lock) + "/" + etcd::leaseHex(lease);
    if (enqueue) {
        queue.push_back(session);
        nextSession_[lock] = (session + 1) % static_cast<int>(leases_.ids().size());
        etcd::pb::PutRequest put;
        put.set_key(key);
        put.set_lease(lease);
        client_.put(put, [this, lock](etcd::Result<etcd::pb::PutResponse> done) {
            answered(lock, done ? done->header().revision() : 0);
        });
    } else {
        queue.pop_front();
        etcd::pb::DeleteRangeRequest del;
        del.set_key(key);
        client_.deleteRange(del, [this, lock](etcd::Result<etcd::pb::DeleteRangeResponse> done) {
            answered(lock, done && done->deleted() > 0 ? done->header().revision() : 0);
        });
    }
}

// On the client's thread. A revision of 0: the write failed or changed nothing.
void LockEventWriter::answered(std::size_t lock, int64_t revision) {
    const auto now = Clock::now();
    std::lock_guard guard(mutex_);
    if (revision > 0) {
        committed_.emplace(revision, now);
        lastAnswer_ = now;
    }
    inFlight_[lock] = false;
    answered_.notify_all();
}

std::map<int64_t, LockEventWriter::Clock::time_point> LockEventWriter::committed() const {
    std::lock_guard lock(mutex_);
    return committed_;
}

int64_t LockEventWriter::lastRevision() const {
    std::lock_guard lock(mutex_);
    return committed_.empty() ? 0 : committed_.rbegin()->first;
}

double LockEventWriter::achievedPerSecond() const {
    std::lock_guard lock(mutex_);
    const double seconds = std::chrono::duration<double>(lastAnswer_ - started_).count();
    return seconds > 0 ? static_cast<double>(committed_.size()) / seconds : 0;
}

} // namespace lockscope::bench
