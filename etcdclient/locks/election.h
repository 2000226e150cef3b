#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace etcd {

// A candidate in an election wire-compatible with Go's concurrency.Election (`etcdctl elect`):
// the key <name>/<lease id in hex> on the session's lease holds the proposal, candidates queue
// by create revision, and the first one leads. Campaigning is queueing as our Mutex does (the
// proposal is the key's value), so the waiting is Mutex's shared, synced prefix watch.
//
// Thread-safe; callbacks run on the client's thread. The Client must outlive the Election.
class Election : public std::enable_shared_from_this<Election> {
public:
    static std::shared_ptr<Election> create(Client& client, std::shared_ptr<Session> session,
                                            std::string name);

    // Becomes a candidate with `proposal` and waits: done() gets Ok once we lead, Cancelled
    // after cancel() or resign(), LockLost if our key vanished while waiting (the session
    // expired, someone deleted it), FailedPrecondition while already campaigning, or the
    // call's error.
    void campaign(std::string proposal, std::function<void(const Error&)> done);
    // Abandons a pending campaign: our key is deleted and campaign() ends with Cancelled.
    void cancel();
    // Puts `proposal` as our key's value, only while we lead: done() gets true when it was put,
    // false when we do not lead (nothing was written).
    void proclaim(std::string proposal, std::function<void(Result<bool>)> done);
    // Ends our candidacy, leading or waiting: our key is deleted (only our incarnation of it).
    // done() gets whether there was a key to delete.
    void resign(std::function<void(Result<bool>)> done = nullptr);
    // Called when leadership is lost: our key was deleted or the session expired.
    void onLost(std::function<void(const Error&)> listener);

    const std::string& name() const { return name_; }
    std::string key() const;
    std::string proposal() const; // the last one campaigned with or proclaimed
    bool leader() const;
    // Our key's create revision (Go's Election.Rev()), 0 before the first campaign.
    int64_t revision() const;
    const std::shared_ptr<Session>& session() const { return session_; }

private:
    Election(Client& client, std::shared_ptr<Session> session, std::string name);
    void forwardLost(const Error& error);

    Client& client_;
    const std::shared_ptr<Session> session_;
    const std::string name_;

    mutable std::mutex mutex_;
    std::shared_ptr<Mutex> candidacy_; // one per campaign: its key carries that proposal
    std::string proposal_;
    std::vector<std::function<void(const Error&)>> lostListeners_;
};

} // namespace etcd
