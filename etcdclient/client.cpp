#include "etcdclient/client.h"

#include "etcdclient/detail/core.h"
#include "etcdclient/detail/unary_call.h"
#include "etcdclient/key_range.h"

namespace etcd {

using detail::Member;
using detail::Retry;

Result<std::unique_ptr<Client>> Client::create(ClientOptions options) {
    auto core = detail::Core::create(std::move(options));
    if (!core)
        return core.error();
    return std::unique_ptr<Client>(new Client(std::move(core).value()));
}

Client::Client(std::shared_ptr<detail::Core> core)
    : core_(std::move(core)) {}

Client::~Client() {
    core_->shutdown();
}

const ClientOptions& Client::options() const {
    return core_->options();
}
LatencyRecorder& Client::latency() {
    return core_->latency();
}
bool Client::onClientThread() const {
    return core_->onQueueThread();
}

std::string Client::currentEndpoint() const {
    return core_->member(core_->preferredMember()).endpoint.target;
}

void Client::range(pb::RangeRequest request, Callback<pb::RangeResponse> done) {
    core_->unary("KV.Range", Retry::Always, &Member::kv, &pb::KV::Stub::PrepareAsyncRange,
                 std::move(request), std::move(done));
}

namespace {

struct PagedRange {
    pb::RangeRequest next;
    Client::PageCallback onPage;
    pb::ResponseHeader header; // the first page's
    int64_t count = 0;
    int64_t firstLimit = 0;
};

void fetchPage(Client& client, std::shared_ptr<PagedRange> paging) {
    client.range(paging->next, [&client, paging](Result<pb::RangeResponse> page) {
        if (!page) {
            paging->onPage(page.error());
            return;
        }
        if (paging->firstLimit == 0) {
            // Every later page reads at the first page's revision: one consistent snapshot (a
            // read of a past revision keeps its own; the header says the present one).
            paging->header = page->header();
            paging->count = page->count();
            if (paging->next.revision() == 0)
                paging->next.set_revision(page->header().revision());
            paging->firstLimit = paging->next.limit();
        }
        *page->mutable_header() = paging->header;
        page->set_count(paging->count);
        const bool more = page->more() && page->kvs_size() > 0;
        page->set_more(more);
        if (more) {
            paging->next.set_key(keyAfter(page->kvs(page->kvs_size() - 1).key()));
            paging->next.set_limit(nextPageLimit(paging->firstLimit, paging->count));
        }
        if (paging->onPage(std::move(page)) && more)
            fetchPage(client, std::move(paging));
    });
}

} // namespace

void Client::rangePages(pb::RangeRequest request, PageCallback onPage) {
    if (request.sort_target() != pb::RangeRequest::KEY ||
        request.sort_order() == pb::RangeRequest::DESCEND || request.count_only()) {
        onPage(
            Error(ErrorCode::InvalidArgument,
                  "a paged range reads in ascending key order; drop the sort and count options"));
        return;
    }
    if (request.limit() <= 0)
        request.set_limit(5000);
    auto paging = std::make_shared<PagedRange>();
    paging->next = std::move(request);
    paging->onPage = std::move(onPage);
    fetchPage(*this, std::move(paging));
}

void Client::rangeAll(pb::RangeRequest request, Callback<pb::RangeResponse> done) {
    auto all = std::make_shared<pb::RangeResponse>();
    rangePages(std::move(request),
               [all, done = std::move(done)](Result<pb::RangeResponse> page) mutable {
                   if (!page) {
                       done(page.error());
                       return false;
                   }
                   if (!all->has_header()) {
                       *all->mutable_header() = page->header();
                       all->set_count(page->count());
                   }
                   if (all->kvs_size() == 0) // the first page (often the only one) whole
                       all->mutable_kvs()->Swap(page->mutable_kvs());
                   else
                       for (auto& kv : *page->mutable_kvs())
                           all->add_kvs()->Swap(&kv);
                   if (!page->more())
                       done(std::move(*all));
                   return true;
               });
}

void Client::put(pb::PutRequest request, Callback<pb::PutResponse> done) {
    core_->unary("KV.Put", Retry::UnsentOnly, &Member::kv, &pb::KV::Stub::PrepareAsyncPut,
                 std::move(request), std::move(done));
}

void Client::deleteRange(pb::DeleteRangeRequest request, Callback<pb::DeleteRangeResponse> done) {
    core_->unary("KV.DeleteRange", Retry::UnsentOnly, &Member::kv,
                 &pb::KV::Stub::PrepareAsyncDeleteRange, std::move(request), std::move(done));
}

void Client::txn(pb::TxnRequest request, Callback<pb::TxnResponse> done) {
    core_->unary("KV.Txn", Retry::UnsentOnly, &Member::kv, &pb::KV::Stub::PrepareAsyncTxn,
                 std::move(request), std::move(done));
}

void Client::idempotentTxn(pb::TxnRequest request, Callback<pb::TxnResponse> done) {
    core_->unary("KV.Txn", Retry::Always, &Member::kv, &pb::KV::Stub::PrepareAsyncTxn,
                 std::move(request), std::move(done));
}

void Client::leaseGrant(pb::LeaseGrantRequest request, Callback<pb::LeaseGrantResponse> done) {
    core_->unary("Lease.LeaseGrant", Retry::UnsentOnly, &Member::lease,
                 &pb::Lease::Stub::PrepareAsyncLeaseGrant, std::move(request), std::move(done));
}

void Client::leaseRevoke(pb::LeaseRevokeRequest request, Callback<pb::LeaseRevokeResponse> done) {
    // Revoking twice is harmless: the second answers LeaseNotFound.
    core_->unary("Lease.LeaseRevoke", Retry::Always, &Member::lease,
                 &pb::Lease::Stub::PrepareAsyncLeaseRevoke, std::move(request), std::move(done));
}

void Client::leaseTimeToLive(pb::LeaseTimeToLiveRequest request,
                             Callback<pb::LeaseTimeToLiveResponse> done) {
    leaseTimeToLiveWithin(std::chrono::milliseconds(0), std::move(request), std::move(done));
}

void Client::leaseTimeToLiveWithin(std::chrono::milliseconds timeout,
                                   pb::LeaseTimeToLiveRequest request,
                                   Callback<pb::LeaseTimeToLiveResponse> done) {
    core_->unary("Lease.LeaseTimeToLive", Retry::Always, &Member::lease,
                 &pb::Lease::Stub::PrepareAsyncLeaseTimeToLive, std::move(request), std::move(done),
                 timeout);
}

void Client::leaseLeases(pb::LeaseLeasesRequest request, Callback<pb::LeaseLeasesResponse> done) {
    core_->unary("Lease.LeaseLeases", Retry::Always, &Member::lease,
                 &pb::Lease::Stub::PrepareAsyncLeaseLeases, std::move(request), std::move(done));
}

void Client::status(pb::StatusRequest request, Callback<pb::StatusResponse> done) {
    core_->unary("Maintenance.Status", Retry::Always, &Member::maintenance,
                 &pb::Maintenance::Stub::PrepareAsyncStatus, std::move(request), std::move(done));
}

void Client::statusOf(std::size_t member, pb::StatusRequest request,
                      Callback<pb::StatusResponse> done) {
    if (member >= options().endpoints.size()) {
        done(Error(ErrorCode::InvalidArgument,
                   "no member " + std::to_string(member) + " among this client's endpoints"));
        return;
    }
    core_->unary("Maintenance.Status", Retry::Always, &Member::maintenance,
                 &pb::Maintenance::Stub::PrepareAsyncStatus, std::move(request), std::move(done),
                 std::chrono::milliseconds(0), member);
}

void Client::alarms(pb::AlarmRequest request, Callback<pb::AlarmResponse> done) {
    // Every action is idempotent: raising or disarming an alarm twice changes nothing more.
    core_->unary("Maintenance.Alarm", Retry::Always, &Member::maintenance,
                 &pb::Maintenance::Stub::PrepareAsyncAlarm, std::move(request), std::move(done));
}

void Client::memberList(pb::MemberListRequest request, Callback<pb::MemberListResponse> done) {
    core_->unary("Cluster.MemberList", Retry::Always, &Member::cluster,
                 &pb::Cluster::Stub::PrepareAsyncMemberList, std::move(request), std::move(done));
}

void Client::lock(v3lockpb::LockRequest request, Callback<v3lockpb::LockResponse> done) {
    lockWithin(std::chrono::milliseconds(0), std::move(request), std::move(done));
}

CallCanceller Client::lockWithin(std::chrono::milliseconds timeout, v3lockpb::LockRequest request,
                                 Callback<v3lockpb::LockResponse> done) {
    auto signal = std::make_shared<detail::CancelSignal>();
    core_->unary("Lock.Lock", Retry::Waiting, &Member::lock,
                 &v3lockpb::Lock::Stub::PrepareAsyncLock, std::move(request), std::move(done),
                 timeout, std::nullopt, signal);
    return CallCanceller(std::move(signal));
}

CallCanceller::CallCanceller(std::shared_ptr<detail::CancelSignal> signal)
    : signal_(std::move(signal)) {}

void CallCanceller::cancel() const {
    if (signal_)
        signal_->cancel();
}

void Client::unlock(v3lockpb::UnlockRequest request, Callback<v3lockpb::UnlockResponse> done) {
    core_->unary("Lock.Unlock", Retry::Always, &Member::lock,
                 &v3lockpb::Lock::Stub::PrepareAsyncUnlock, std::move(request), std::move(done));
}

WatchHandle Client::watch(pb::WatchCreateRequest request, WatchCallbacks callbacks) {
    return startWatch(std::make_shared<detail::Watcher>(std::move(request), std::move(callbacks)));
}

WatchHandle Client::sharedWatch(pb::WatchCreateRequest request, WatchCallbacks callbacks) {
    auto watcher = std::make_shared<detail::Watcher>(std::move(request), std::move(callbacks));
    watcher->shared = true;
    return startWatch(std::move(watcher));
}

WatchHandle Client::startWatch(std::shared_ptr<detail::Watcher> watcher) {
    auto* core = core_.get();
    const bool queued = core->schedule(std::chrono::milliseconds(0),
                                       [core, watcher] { core->watches().add(watcher); });
    if (!queued)
        watcher->callbacks.disarm();
    return WatchHandle(core_, std::move(watcher));
}

void Client::requestWatchProgress() {
    auto* core = core_.get();
    core->schedule(std::chrono::milliseconds(0), [core] { core->watches().requestProgress(); });
}

KeepAliveHandle Client::keepAlive(int64_t leaseId, int64_t ttlSeconds,
                                  KeepAliveCallbacks callbacks) {
    auto entry =
        std::make_shared<detail::KeepAliveEntry>(leaseId, ttlSeconds, std::move(callbacks));
    auto* core = core_.get();
    const bool queued = core->schedule(std::chrono::milliseconds(0),
                                       [core, entry] { core->keepAlives().add(entry); });
    if (!queued)
        entry->callbacks.disarm();
    return KeepAliveHandle(core_, std::move(entry));
}

void Client::schedule(std::chrono::milliseconds delay, std::function<void()> task) {
    core_->schedule(delay, std::move(task));
}

WatchHandle::WatchHandle(std::weak_ptr<detail::Core> core, std::shared_ptr<detail::Watcher> w)
    : core_(std::move(core))
    , watcher_(std::move(w)) {}

WatchHandle& WatchHandle::operator=(WatchHandle&& other) noexcept {
    if (this != &other) {
        cancel();
        core_ = std::move(other.core_);
        watcher_ = std::move(other.watcher_);
    }
    return *this;
}

WatchHandle::~WatchHandle() {
    cancel();
}

void WatchHandle::cancel() {
    if (!watcher_)
        return;
    watcher_->callbacks.disarm();
    if (auto core = core_.lock()) {
        auto* c = core.get();
        c->schedule(std::chrono::milliseconds(0), [c, w = watcher_] { c->watches().cancel(w); });
    }
    watcher_.reset();
}

KeepAliveHandle::KeepAliveHandle(std::weak_ptr<detail::Core> core,
                                 std::shared_ptr<detail::KeepAliveEntry> e)
    : core_(std::move(core))
    , entry_(std::move(e)) {}

KeepAliveHandle& KeepAliveHandle::operator=(KeepAliveHandle&& other) noexcept {
    if (this != &other) {
        cancel();
        core_ = std::move(other.core_);
        entry_ = std::move(other.entry_);
    }
    return *this;
}

KeepAliveHandle::~KeepAliveHandle() {
    cancel();
}

void KeepAliveHandle::cancel() {
    if (!entry_)
        return;
    entry_->callbacks.disarm();
    if (auto core = core_.lock()) {
        auto* c = core.get();
        c->schedule(std::chrono::milliseconds(0), [c, e = entry_] { c->keepAlives().cancel(e); });
    }
    entry_.reset();
}

} // namespace etcd
