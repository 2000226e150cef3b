#include "app/lab/contention_lab.h"

#include "etcdclient/key_range.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"
#include "etcdclient/weak_callback.h"

#include <algorithm>
#include <utility>

namespace lockscope::lab {

namespace {
constexpr std::chrono::milliseconds retryDelay{500};

// The longest common prefix of the lab's lock names, so one monitor sees all of them.
std::string commonPrefix(const std::vector<std::string>& locks) {
    std::string prefix = locks.front();
    for (const auto& l : locks)
        prefix.resize(std::mismatch(prefix.begin(), prefix.end(), l.begin(), l.end()).first -
                      prefix.begin());
    return prefix;
}
} // namespace

struct ContentionLab::Worker {
    int id;
    std::string lock;
    std::string nextLock; // LabOptions::deadlock: taken while holding `lock`
    std::mt19937 rng;
    std::shared_ptr<etcd::Session> session;
    std::shared_ptr<etcd::Mutex> mutex;
    std::shared_ptr<etcd::Mutex> nextMutex; // LabOptions::deadlock
    // Its last crashed hold, kept so that its key expires rather than being deleted (a Mutex
    // destroyed while held deletes its key). One is enough: a worker comes back 1.5 TTL after
    // a crash, so by its next crash the lease before has expired, and the guarded delete sent
    // when that Mutex goes finds nothing. Kept them all, a run of days grew by every crash.
    std::shared_ptr<etcd::Mutex> crashed;
    int cyclesLeft = -1; // -1: until stopped
    bool stopped = false;
    bool granting = false; // a session is being granted
    // A stop's callbacks for a session still being granted: it is revoked once granted.
    std::vector<std::function<void()>> whenGrantRevoked;
};

std::shared_ptr<ContentionLab> ContentionLab::create(etcd::Client& client, LabOptions options) {
    return std::shared_ptr<ContentionLab>(new ContentionLab(client, std::move(options)));
}

ContentionLab::ContentionLab(etcd::Client& client, LabOptions options)
    : client_(client)
    , options_(std::move(options)) {}

ContentionLab::~ContentionLab() = default;

bool ContentionLab::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

LabCounters ContentionLab::counters() const {
    std::lock_guard lock(mutex_);
    return counters_;
}

std::size_t ContentionLab::crashedHoldsKept() const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(
        workers_.begin(), workers_.end(), [](const auto& w) { return w->crashed != nullptr; }));
}

void ContentionLab::start() {
    launch(-1);
}
void ContentionLab::step() {
    launch(1);
}

void ContentionLab::launch(int cycles) {
    {
        std::lock_guard lock(mutex_);
        if (running_)
            return;
        running_ = true;
        startedAt_ = Clock::now();
        if (!monitor_) {
            monitor_ = etcd::LockMonitor::create(client_, {commonPrefix(options_.locks)});
            monitor_->start();
        }
        workers_.clear();
        for (int i = 0; i < options_.workers; ++i) {
            auto w = std::make_shared<Worker>();
            w->id = i;
            const auto lockCount = options_.locks.size();
            w->lock = options_.locks[static_cast<std::size_t>(i) % lockCount];
            if (options_.deadlock)
                w->nextLock = options_.locks[static_cast<std::size_t>(i + 1) % lockCount];
            w->rng.seed(options_.seed + static_cast<uint32_t>(i));
            w->cyclesLeft = cycles;
            workers_.push_back(w);
        }
    }
    for (auto& w : workers_)
        client_.schedule(std::chrono::milliseconds(0),
                         etcd::weakCallback(this, &ContentionLab::cycle, w));
}

void ContentionLab::later(std::chrono::milliseconds delay, std::function<void()> task) {
    client_.schedule(delay, std::move(task));
}

bool ContentionLab::proceed(Worker& worker) {
    if (worker.stopped)
        return false;
    if (worker.cyclesLeft == 0) {
        std::lock_guard lock(mutex_);
        const bool wasRunning = running_;
        running_ = std::any_of(workers_.begin(), workers_.end(),
                               [](auto& w) { return w->cyclesLeft != 0; });
        if (wasRunning && !running_)
            stoppedAt_ = Clock::now(); // a step ends by itself
        return false;
    }
    return true;
}

void ContentionLab::cycle(const std::shared_ptr<Worker>& worker) {
    if (!proceed(*worker))
        return;
    std::weak_ptr<ContentionLab> weak = weak_from_this();
    if (!worker->session || worker->session->lost()) {
        worker->granting = true;
        etcd::Session::create(client_, options_.ttlSeconds, [weak, worker](auto made) {
            worker->granting = false;
            if (worker->stopped) { // the lab's stop waits for this revoke too
                auto revoked = [waiting = std::move(worker->whenGrantRevoked)](const etcd::Error&) {
                    for (const auto& done : waiting)
                        done();
                };
                made ? made.value()->close(revoked) : revoked({});
                return;
            }
            auto self = weak.lock();
            if (!self)
                return;
            if (!made) {
                self->later(retryDelay,
                            etcd::weakCallback(self.get(), &ContentionLab::cycle, worker));
                return;
            }
            worker->session = made.value();
            worker->mutex = etcd::Mutex::create(self->client_, worker->session, worker->lock);
            if (!worker->nextLock.empty())
                worker->nextMutex =
                    etcd::Mutex::create(self->client_, worker->session, worker->nextLock);
            self->cycle(worker);
        });
        return;
    }
    worker->mutex->lock(etcd::weakCallback(this, &ContentionLab::onLocked, worker));
}

void ContentionLab::onLocked(const std::shared_ptr<Worker>& worker, const etcd::Error& error) {
    const auto again = etcd::weakCallback(this, &ContentionLab::cycle, worker);
    if (!error.ok()) { // lost while waiting, or cancelled: start over
        later(options_.think, again);
        return;
    }
    if (worker->stopped) {
        worker->mutex->unlock();
        return;
    }
    if (worker->nextMutex && !worker->nextMutex->held()) {
        worker->nextMutex->lock(etcd::weakCallback(this, &ContentionLab::onNextLocked, worker));
        return;
    }
    const auto from = Clock::now();
    const double roll = std::uniform_real_distribution<double>(0, 1)(worker->rng);
    const auto ttl = std::chrono::seconds(options_.ttlSeconds);
    std::chrono::milliseconds hold = options_.hold;
    bool stalled = false;
    {
        std::lock_guard lock(mutex_);
        ++counters_.acquisitions;
        checker_.began(worker->id, from);
        if (roll < options_.crashProbability) {
            ++counters_.crashes;
            recordHold(*worker, from, from);
        } else if (roll < options_.crashProbability + options_.stallProbability) {
            ++counters_.stalls;
            stalled = true;
            hold += 2 * std::chrono::duration_cast<std::chrono::milliseconds>(ttl);
        } else if (roll < options_.crashProbability + options_.stallProbability +
                              options_.slowProbability) {
            ++counters_.slowHolds;
            hold *= 5;
        }
    }
    if (roll < options_.crashProbability) {
        // Gone without a word: keepalives stop, the key stays until the lease expires, and
        // the worker comes back later with a new session.
        worker->session->orphan();
        worker->session.reset();
        std::shared_ptr<etcd::Mutex> before; // its guarded delete is sent outside mutex_
        {
            std::lock_guard lock(mutex_); // crashedHoldsKept() reads it on any thread
            before = std::exchange(worker->crashed, std::move(worker->mutex));
        }
        later(std::chrono::duration_cast<std::chrono::milliseconds>(ttl * 3 / 2), again);
        return;
    }
    if (stalled)
        worker->session->setPaused(true); // the stalled holder: its lease will expire
    later(hold, etcd::weakCallback(this, &ContentionLab::finishHold, worker, from, stalled));
}

void ContentionLab::onNextLocked(const std::shared_ptr<Worker>& worker, const etcd::Error& error) {
    if (error.ok()) {
        onLocked(worker, error);
        return;
    }
    // Its session ended while it waited (a deadlock broken by revoking its lease): the first
    // lock went with it; start over on a new session.
    worker->mutex->unlock();
    worker->session.reset();
    later(options_.think, etcd::weakCallback(this, &ContentionLab::cycle, worker));
}

void ContentionLab::finishHold(const std::shared_ptr<Worker>& worker, Clock::time_point from,
                               bool stalled) {
    if (worker->stopped) { // the lab's stop already let go of this hold: nothing to write
        std::lock_guard lock(mutex_);
        recordHold(*worker, from, stoppedAt_);
        return;
    }
    // The fencing demo: the worker writes the shared resource as the last act of its hold.
    etcd::pb::TxnRequest txn;
    *txn.add_compare() = worker->mutex->ownerCompare();
    auto* put = txn.add_success()->mutable_request_put();
    put->set_key(options_.resourceKey);
    put->set_value("worker " + std::to_string(worker->id) + " token " +
                   std::to_string(worker->mutex->fencingToken()));
    if (!options_.fencing)
        *txn.add_failure()->mutable_request_put() = *put; // unguarded: it lands regardless
    std::weak_ptr<ContentionLab> weak = weak_from_this();
    client_.txn(txn, [weak, worker, from, stalled](etcd::Result<etcd::pb::TxnResponse> reply) {
        auto self = weak.lock();
        if (!self)
            return;
        {
            std::lock_guard lock(self->mutex_);
            // A write the lab's own stop raced (it released the lock under the write) is
            // neither a fencing rejection nor a split brain.
            if (reply && reply->succeeded())
                ++self->counters_.writesApplied;
            else if (reply && !worker->stopped)
                ++(self->options_.fencing ? self->counters_.writesRejectedByFencing
                                          : self->counters_.writesWithoutLock);
            self->recordHold(*worker, from, Clock::now());
        }
        if (stalled)
            worker->session.reset(); // expired by now: the next cycle starts a new one
        if (worker->nextMutex)
            worker->nextMutex->unlock();
        worker->mutex->unlock([weak, worker](auto) {
            if (auto s = weak.lock())
                s->later(s->options_.think,
                         etcd::weakCallback(s.get(), &ContentionLab::cycle, worker));
        });
        if (worker->cyclesLeft > 0)
            --worker->cyclesLeft;
    });
}

void ContentionLab::recordHold(const Worker& worker, Clock::time_point from, Clock::time_point to) {
    checker_.ended(
        {worker.id, worker.lock, worker.mutex->key(), worker.mutex->fencingToken(), from, to});
}

void ContentionLab::stop(std::function<void()> done) {
    {
        std::lock_guard lock(mutex_);
        if (running_)
            stoppedAt_ = Clock::now();
        running_ = false; // at once; the workers let go on the client's thread below
    }
    auto self = shared_from_this();
    client_.schedule(std::chrono::milliseconds(0), [self, done] {
        std::vector<std::shared_ptr<Worker>> workers;
        {
            std::lock_guard lock(self->mutex_);
            workers = self->workers_;
        }
        auto pending = std::make_shared<int>(1); // one for this loop, so done runs once
        auto finishOne = [pending, done] {
            if (--*pending == 0 && done)
                done();
        };
        auto revoke = [&](etcd::Session& session) {
            ++*pending;
            session.close([finishOne](const etcd::Error&) { finishOne(); });
        };
        for (auto& w : workers) {
            w->stopped = true;
            for (const auto& mutex : {w->mutex, w->nextMutex})
                if (mutex) {
                    mutex->cancel();
                    mutex->unlock();
                }
            // A crashed holder's lease would outlive the lab by its TTL.
            std::shared_ptr<etcd::Mutex> crashed;
            {
                std::lock_guard lock(self->mutex_);
                crashed = std::move(w->crashed);
            }
            if (crashed)
                revoke(*crashed->session());
            if (w->session)
                revoke(*w->session);
            if (w->granting) {
                ++*pending;
                w->whenGrantRevoked.push_back(finishOne);
            }
        }
        finishOne();
    });
}

LabReport ContentionLab::report(bool ends) const {
    LabReport r;
    std::vector<etcd::LockEvent> history;
    {
        std::lock_guard lock(mutex_);
        r.counters = counters_;
        const auto end = running_ ? Clock::now() : stoppedAt_;
        r.seconds = std::chrono::duration<double>(end - startedAt_).count();
        r.overlapsFound = checker_.found();
        r.outlivingHolds = checker_.outlivingHolds();
        r.overlaps = checker_.longest();
        if (monitor_ && ends && !r.overlaps.empty())
            history = monitor_->history();
    }
    r.acquisitionsPerSecond =
        r.seconds > 0 ? static_cast<double>(r.counters.acquisitions) / r.seconds : 0;
    if (!ends)
        return r;
    for (const auto& overlap : r.overlaps) {
        std::optional<GrantedEnd> end;
        // That incarnation of the key ended at the first release or expiry after its creation.
        for (const auto& e : history)
            if (e.key == overlap.first.key && e.held && e.revision > overlap.first.fencingToken &&
                (e.kind == etcd::LockEventKind::Released ||
                 e.kind == etcd::LockEventKind::Expired)) {
                end = GrantedEnd{etcd::lockEventKindName(e.kind), e.revision, e.observedAt};
                break;
            }
        r.ends.push_back(end);
    }
    return r;
}

} // namespace lockscope::lab
