#include "fault/fault_workload.h"

#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/waiting.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <set>
#include <tuple>

namespace lockscope::test {

using namespace etcd;

std::string FaultReport::summary(const std::string& scenario) const {
    char line[512];
    std::snprintf(line, sizeof line,
                  "[fault] %s: acquisitions/s before %.1f, during %.1f, after %.1f (%d in all); "
                  "sessions lost %d; time to recover %.2f s; keys left %d; leases left %d; "
                  "stale guarded writes %d; overlaps beyond TTL %d; event order violations %d; "
                  "recovered events %d; longest first in queue %.2f s (%s)",
                  scenario.c_str(), perSecondBefore, perSecondDuring, perSecondAfter, acquisitions,
                  sessionsLost, recoverySeconds, keysLeft, leasesLeft, staleGuardedWrites,
                  overlapsBeyondTtl, eventOrderViolations, recoveredEvents, longestHeadSeconds,
                  longestHeadSeconds == 0 ? "a new one every sample"
                  : longestHeadOurs       ? "ours"
                                          : "etcdctl");
    return line;
}

FaultWorkload::FaultWorkload(FaultWorkloadOptions options)
    : options_(std::move(options)) {
    observer_ = makeClient();
}

FaultWorkload::~FaultWorkload() {
    stop();
    // Before mutex_ and the records their callbacks write go (declared after them): a test
    // that failed before report() leaves them running.
    if (monitor_)
        monitor_->stop();
    fenceWatch_.cancel();
}

std::unique_ptr<Client> FaultWorkload::makeClient(std::vector<std::string> endpoints) const {
    ClientOptions client;
    client.endpoints = endpoints.empty() ? options_.endpoints : std::move(endpoints);
    client.username = options_.username;
    client.password = options_.password;
    auto created = Client::create(client);
    return created ? std::move(created).value() : nullptr;
}

void FaultWorkload::start() {
    auto now = call(*observer_, &Client::range, [&] {
        pb::RangeRequest r;
        r.set_key(fenceKey());
        return r;
    }());
    pb::WatchCreateRequest fence;
    fence.set_key(fenceKey());
    fence.set_start_revision(now ? now->header().revision() + 1 : 0);
    fenceWatch_ =
        observer_->watch(fence, {[this](const pb::WatchResponse& r) {
                                     std::lock_guard lock(mutex_);
                                     for (const auto& e : r.events())
                                         fenceWrites_.emplace_back(e.kv().mod_revision(),
                                                                   std::stoll(e.kv().value()));
                                 },
                                 nullptr});
    monitor_ = LockMonitor::create(*observer_, {.prefix = lockName() + "/"},
                                   [this](const std::vector<LockEvent>& events) {
                                       std::lock_guard lock(mutex_);
                                       events_.insert(events_.end(), events.begin(), events.end());
                                   });
    monitor_->start();
    startedAt_ = Clock::now();
    for (int i = 0; i < options_.ourContenders; ++i)
        threads_.emplace_back([this] { runOurs(); });
    for (int i = 0; i < options_.etcdctlContenders; ++i)
        threads_.emplace_back([this] { runEtcdctl(); });
    threads_.emplace_back([this] { watchQueueHead(); });
}

void FaultWorkload::watchQueueHead() {
    pb::RangeRequest first; // the oldest key of the queue, with its lease
    first.set_key(lockName() + "/");
    first.set_range_end(prefixRangeEnd(lockName() + "/"));
    first.set_sort_target(pb::RangeRequest::CREATE);
    first.set_sort_order(pb::RangeRequest::ASCEND);
    first.set_limit(1);
    while (!stopping_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        auto queue = call(*observer_, &Client::range, first);
        if (!queue)
            continue; // no answer during the fault: the head is whatever it was
        const auto now = Clock::now();
        std::lock_guard lock(mutex_);
        const std::string head = queue->kvs_size() > 0 ? queue->kvs(0).key() : "";
        if (head != head_) {
            head_ = head;
            headSince_ = now;
            headOurs_ = queue->kvs_size() > 0 && ourLeases_.count(queue->kvs(0).lease()) > 0;
        }
        const double held = std::chrono::duration<double>(now - headSince_).count();
        if (!head_.empty() && held > longestHeadSeconds_) {
            longestHeadSeconds_ = held;
            longestHeadOurs_ = headOurs_;
        }
    }
}

void FaultWorkload::markFaultStart() {
    faultStart_ = Clock::now();
}

void FaultWorkload::markFaultEnd() {
    faultEnd_ = Clock::now();
}

void FaultWorkload::recordAcquisition(Clock::time_point at) {
    std::lock_guard lock(mutex_);
    acquisitions_.push_back(at);
}

Result<bool> FaultWorkload::guardedWriteAs(const std::string& key, int64_t token) {
    pb::TxnRequest txn;
    auto* cmp = txn.add_compare();
    cmp->set_key(key);
    cmp->set_target(pb::Compare::CREATE);
    cmp->set_result(pb::Compare::EQUAL);
    cmp->set_create_revision(token);
    auto* put = txn.add_success()->mutable_request_put();
    put->set_key(fenceKey());
    put->set_value(std::to_string(token));
    auto reply = call(*observer_, &Client::txn, txn);
    if (!reply)
        return reply.error();
    return reply->succeeded();
}

void FaultWorkload::runOurs() {
    auto client = makeClient();
    if (!client)
        return;
    std::shared_ptr<Session> session;
    while (!stopping_) {
        if (!session || session->lost()) {
            session = createSession(*client, options_.ttlSeconds);
            if (!session) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                continue;
            }
            session->onLost([this](const Error&) { ++sessionsLost_; });
            std::lock_guard lock(mutex_);
            ourLeases_.insert(session->leaseId());
        }
        auto mutex = Mutex::create(*client, session, lockName());
        auto pending = lockAsync(*mutex);
        while (pending.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready)
            if (stopping_)
                mutex->cancel();
        if (!pending.get().ok()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        const Hold hold{Clock::now(), {}};
        recordAcquisition(hold.from);
        // The fenced write: the token goes into the value so the watch can check the order.
        pb::RequestOp op;
        op.mutable_request_put()->set_key(fenceKey());
        op.mutable_request_put()->set_value(std::to_string(mutex->fencingToken()));
        waitFor<Result<bool>>([&](auto done) { mutex->guardedWrite({op}, std::move(done)); });
        std::this_thread::sleep_for(options_.holdFor);
        {
            std::lock_guard lock(mutex_);
            holds_.push_back({hold.from, Clock::now()});
        }
        unlockNow(*mutex);
    }
    if (session)
        waitFor<Error>([&](auto done) { session->close(std::move(done)); });
}

void FaultWorkload::runEtcdctl() {
    std::vector<std::string> args = {"lock", lockName(),
                                     "--ttl=" + std::to_string(options_.ttlSeconds)};
    if (!options_.username.empty()) {
        args.push_back("--user=" + options_.username);
        args.push_back("--password=" + options_.password);
    }
    args.insert(args.end(), {"sleep", "0.03"});
    std::string endpoints;
    for (const auto& e :
         options_.etcdctlEndpoints.empty() ? options_.endpoints : options_.etcdctlEndpoints)
        endpoints += (endpoints.empty() ? "" : ",") + e;
    while (!stopping_) {
        process::ChildProcess child(process::etcdctlArgs(endpoints, args), {"ETCDCTL_API=3"});
        std::optional<int> code;
        while (!(code = child.wait(std::chrono::milliseconds(100))))
            if (stopping_)
                child.signal(SIGTERM); // etcdctl closes its session on SIGTERM
        if (*code == 0)
            recordAcquisition(Clock::now());
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

void FaultWorkload::stop() {
    if (stopping_.exchange(true))
        return;
    stoppedAt_ = Clock::now();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
}

std::pair<int, int> FaultWorkload::left() {
    pb::RangeRequest keys;
    keys.set_key(lockName() + "/");
    keys.set_range_end(prefixRangeEnd(lockName() + "/"));
    keys.set_count_only(true);
    auto found = call(*observer_, &Client::range, keys);
    auto leases = call(*observer_, &Client::leaseLeases, pb::LeaseLeasesRequest());
    return {found ? static_cast<int>(found->count()) : -1, leases ? leases->leases_size() : -1};
}

FaultReport FaultWorkload::report() {
    stop();
    FaultReport r;
    // A stopped or killed etcdctl leaves its lease to expire: allow the TTL and a margin.
    eventually([&] { return left() == std::pair(0, 0); },
               std::chrono::seconds(options_.ttlSeconds + 3));
    std::tie(r.keysLeft, r.leasesLeft) = left();
    monitor_->stop();
    fenceWatch_.cancel();

    std::lock_guard lock(mutex_);
    r.sessionsLost = sessionsLost_;
    r.longestHeadSeconds = longestHeadSeconds_;
    r.longestHeadOurs = longestHeadOurs_;
    r.acquisitions = static_cast<int>(acquisitions_.size());
    const auto faultStart = faultStart_ == Clock::time_point{} ? stoppedAt_ : faultStart_;
    const auto faultEnd = faultEnd_ == Clock::time_point{} ? faultStart : faultEnd_;
    auto rate = [&](Clock::time_point from, Clock::time_point to) {
        const double seconds = std::chrono::duration<double>(to - from).count();
        if (seconds <= 0)
            return 0.0;
        const auto n = std::count_if(acquisitions_.begin(), acquisitions_.end(),
                                     [&](auto t) { return t >= from && t < to; });
        return static_cast<double>(n) / seconds;
    };
    r.perSecondBefore = rate(startedAt_, faultStart);
    r.perSecondDuring = rate(faultStart, faultEnd);
    r.perSecondAfter = rate(faultEnd, stoppedAt_);
    std::vector<Clock::time_point> times = acquisitions_;
    std::sort(times.begin(), times.end());
    Clock::time_point previous = faultStart;
    double longest = 0;
    for (auto t : times) {
        if (t < faultStart)
            continue;
        longest = std::max(longest, std::chrono::duration<double>(t - previous).count());
        previous = t;
    }
    r.recoverySeconds =
        std::max(longest, std::chrono::duration<double>(stoppedAt_ - previous).count());

    int64_t newest = 0;
    std::sort(fenceWrites_.begin(), fenceWrites_.end());
    for (const auto& [revision, token] : fenceWrites_) {
        if (token < newest)
            ++r.staleGuardedWrites;
        newest = std::max(newest, token);
    }

    std::sort(holds_.begin(), holds_.end(), [](auto& a, auto& b) { return a.from < b.from; });
    const auto ttl = std::chrono::seconds(options_.ttlSeconds);
    for (std::size_t i = 0; i < holds_.size(); ++i)
        for (std::size_t j = i + 1; j < holds_.size() && holds_[j].from < holds_[i].to; ++j)
            if (std::min(holds_[i].to, holds_[j].to) - holds_[j].from > ttl)
                ++r.overlapsBeyondTtl;

    std::set<std::tuple<int, std::string, int64_t>> seen;
    int64_t lastRevision = 0;
    for (const auto& e : events_) {
        if (e.revision < lastRevision ||
            !seen.emplace(static_cast<int>(e.kind), e.key, e.revision).second)
            ++r.eventOrderViolations;
        lastRevision = std::max(lastRevision, e.revision);
        r.recoveredEvents += e.recovered ? 1 : 0;
    }
    return r;
}

} // namespace lockscope::test
