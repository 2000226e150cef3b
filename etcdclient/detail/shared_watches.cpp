#include "etcdclient/detail/shared_watches.h"

#include "etcdclient/detail/core.h"
#include "etcdclient/detail/watch_hub.h"

#include <algorithm>

namespace etcd::detail {

namespace {

// Users whose requests differ only in their start revision share a server watch.
std::string idOf(const pb::WatchCreateRequest& request) {
    pb::WatchCreateRequest keys = request;
    keys.clear_start_revision();
    return keys.SerializeAsString();
}

} // namespace

void SharedWatches::add(std::shared_ptr<Watcher> user) {
    const std::string id = idOf(user->request);
    auto [it, isNew] = shared_.try_emplace(id);
    Shared& shared = it->second;
    ++shared.idleEpoch;
    if (isNew)
        shared.server = startServerWatch(id, user->request);
    if (shared.created) {
        pb::WatchResponse created;
        created.set_created(true);
        created.set_watch_id(shared.server->watchId);
        created.mutable_header()->set_revision(shared.lastRevision);
        user->createdDelivered = true;
        WatchHub::deliver(*user, created);
    }
    shared.users.push_back(std::move(user));
}

std::shared_ptr<Watcher> SharedWatches::startServerWatch(const std::string& id,
                                                         const pb::WatchCreateRequest& request) {
    auto server = std::make_shared<Watcher>(
        request, WatchCallbacks{[this, id](const pb::WatchResponse& r) { onServerResponse(id, r); },
                                [this, id](const Error& error) { onServerEnd(id, error); }});
    hub_.add(server);
    return server;
}

void SharedWatches::cancel(const std::shared_ptr<Watcher>& user) {
    const std::string id = idOf(user->request);
    auto it = shared_.find(id);
    if (it == shared_.end())
        return;
    auto& users = it->second.users;
    users.erase(std::remove(users.begin(), users.end(), user), users.end());
    if (!users.empty())
        return;
    const uint64_t epoch = it->second.idleEpoch;
    if (!core_.schedule(linger, [this, id, epoch] { endWhenStillIdle(id, epoch); }))
        endWhenStillIdle(id, epoch); // shutting down
}

void SharedWatches::endWhenStillIdle(const std::string& id, uint64_t epoch) {
    auto it = shared_.find(id);
    if (it == shared_.end() || it->second.idleEpoch != epoch || !it->second.users.empty())
        return;
    it->second.server->callbacks.disarm(); // a later watch on the same keys has its own entry
    hub_.cancel(it->second.server);
    shared_.erase(it);
}

void SharedWatches::onServerResponse(const std::string& id, const pb::WatchResponse& response) {
    auto it = shared_.find(id);
    if (it == shared_.end())
        return;
    Shared& shared = it->second;
    // The hub passes on one created response, that of the first server watch: from now, it
    // delivers what comes after its header revision, from a start revision what comes from
    // there (and its users are told so). Events and progress answers carry the revision they
    // are current at.
    const int64_t start = shared.server->request.start_revision();
    if (response.created() && start > 0) {
        shared.lastRevision = start - 1;
        pb::WatchResponse created = response;
        created.mutable_header()->set_revision(shared.lastRevision);
        shared.created = true;
        deliverCreated(shared, created);
        return;
    }
    shared.lastRevision = std::max(shared.lastRevision, response.header().revision());
    shared.created = true;
    if (response.created()) {
        deliverCreated(shared, response);
        return;
    }
    const auto users = shared.users; // a callback may cancel its watch: the hub runs that later
    for (const auto& user : users)
        WatchHub::deliver(*user, response);
}

void SharedWatches::deliverCreated(Shared& shared, const pb::WatchResponse& created) {
    const auto users = shared.users;
    for (const auto& user : users)
        if (!std::exchange(user->createdDelivered, true))
            WatchHub::deliver(*user, created);
}

void SharedWatches::onServerEnd(const std::string& id, const Error& error) {
    auto it = shared_.find(id);
    if (it == shared_.end())
        return;
    const auto users = std::move(it->second.users);
    shared_.erase(it);
    for (const auto& user : users)
        WatchHub::end(*user, error);
}

} // namespace etcd::detail
