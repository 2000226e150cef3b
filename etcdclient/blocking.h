#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/election.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <type_traits>

namespace etcd {

// The waiting forms below are for command-line tools, tests and the bench, never the GUI
// thread. Never call one on the client's own thread (from a callback): it would wait on itself.

// Starts an asynchronous operation through `start`, which is handed the operation's callback,
// and waits for what the callback is given (nothing, for T = void). A callback dropped uncalled
// (the client shut down) gives a Cancelled error, or just returns for T = void.
template <class T, class Start> T waitFor(Start start) {
    auto promise = std::make_shared<std::promise<T>>();
    auto future = promise->get_future();
    if constexpr (std::is_void_v<T>)
        start([promise] { promise->set_value(); });
    else
        start([promise](T result) { promise->set_value(std::move(result)); });
    try {
        return future.get();
    } catch (const std::future_error&) {
        if constexpr (!std::is_void_v<T>)
            return Error(ErrorCode::Cancelled, "the client shut down before the call finished");
    }
}

// Runs one asynchronous Client call and waits for its result.
template <class Req, class Resp>
Result<Resp> call(Client& client, void (Client::*method)(Req, Callback<Resp>), Req request) {
    if (client.onClientThread()) {
        std::fputs("etcdclient: a blocking call was made from a client callback\n", stderr);
        std::abort();
    }
    return waitFor<Result<Resp>>(
        [&](auto done) { (client.*method)(std::move(request), std::move(done)); });
}

// A new session with its keepalive running, or why etcd did not grant its lease.
inline Result<std::shared_ptr<Session>> startSession(Client& client, int64_t ttlSeconds) {
    return waitFor<Result<std::shared_ptr<Session>>>(
        [&](auto done) { Session::create(client, ttlSeconds, std::move(done)); });
}

// startSession(), null when etcd refused the lease.
inline std::shared_ptr<Session> createSession(Client& client, int64_t ttlSeconds) {
    auto session = startSession(client, ttlSeconds);
    return session ? session.value() : nullptr;
}

inline Error lockNow(Mutex& mutex) {
    return waitFor<Error>([&](auto done) { mutex.lock(std::move(done)); });
}

inline Result<bool> unlockNow(Mutex& mutex) {
    return waitFor<Result<bool>>([&](auto done) { mutex.unlock(std::move(done)); });
}

inline Result<bool> tryLockNow(Mutex& mutex) {
    return waitFor<Result<bool>>([&](auto done) { mutex.tryLock(std::move(done)); });
}

inline Error campaignNow(Election& election, std::string proposal) {
    return waitFor<Error>(
        [&](auto done) { election.campaign(std::move(proposal), std::move(done)); });
}

inline Result<bool> proclaimNow(Election& election, std::string proposal) {
    return waitFor<Result<bool>>(
        [&](auto done) { election.proclaim(std::move(proposal), std::move(done)); });
}

inline Result<bool> resignNow(Election& election) {
    return waitFor<Result<bool>>([&](auto done) { election.resign(std::move(done)); });
}

// Runs `release` (a lock's unlock, a candidate's resign: it calls the callback it is handed once
// etcd answered) and closes `session` (revoking its lease) at once, then waits for both: each is
// bounded by the command timeout, so a cluster that stopped answering costs one, not two.
template <class Release> void releaseAndCloseNow(Release release, Session& session) {
    waitFor<void>([&](auto bothDone) {
        auto pending = std::make_shared<std::atomic<int>>(2);
        auto oneDone = [pending, bothDone] {
            if (--*pending == 0)
                bothDone();
        };
        release(std::function<void()>(oneDone));
        session.close([oneDone](const Error&) { oneDone(); });
    });
}

} // namespace etcd
