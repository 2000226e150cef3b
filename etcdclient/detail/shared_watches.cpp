#include "etcdclient/detail/shared_watches.h"

#include "etcdclient/detail/core.h"
#include "etcdclient/detail/watch_hub.h"

#include <algorithm>

namespace etcd::detail {

void SharedWatches::add(std::shared_ptr<Watcher> user) {
    const std::string id = user->request.SerializeAsString();
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
    const std::string id = user->request.SerializeAsString();
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
    // The hub passes on one created response, that of the first server watch; events and
    // progress answers carry the revision they are current at.
    shared.lastRevision = std::max(shared.lastRevision, response.header().revision());
    shared.created = true;
    const auto users = shared.users; // a callback may cancel its watch: the hub runs that later
    for (const auto& user : users) {
        if (response.created() && std::exchange(user->createdDelivered, true))
            continue;
        WatchHub::deliver(*user, response);
    }
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
