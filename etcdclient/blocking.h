#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"

#include <cstdio>
#include <cstdlib>
#include <future>

namespace etcd {

// The waiting forms below are for command-line tools, tests and the bench, never the GUI
// thread. Never call one on the client's own thread (from a callback): it would wait on itself.

namespace detail {

// Starts an asynchronous call through `start`, which is handed the call's callback, and waits
// for what the callback is given. A callback dropped uncalled (the client shut down) gives a
// Cancelled error.
template <class T, class Start> T waitFor(Start start) {
    auto promise = std::make_shared<std::promise<T>>();
    auto future = promise->get_future();
    start([promise](T result) { promise->set_value(std::move(result)); });
    try {
        return future.get();
    } catch (const std::future_error&) {
        return Error(ErrorCode::Cancelled, "the client shut down before the call finished");
    }
}

} // namespace detail

// Runs one asynchronous Client call and waits for its result.
template <class Req, class Resp>
Result<Resp> call(Client& client, void (Client::*method)(Req, Callback<Resp>), Req request) {
    if (client.onClientThread()) {
        std::fputs("etcdclient: a blocking call was made from a client callback\n", stderr);
        std::abort();
    }
    return detail::waitFor<Result<Resp>>(
        [&](auto done) { (client.*method)(std::move(request), std::move(done)); });
}

// A new session with its keepalive running; null when etcd refused the lease.
inline std::shared_ptr<Session> createSession(Client& client, int64_t ttlSeconds) {
    auto session = detail::waitFor<Result<std::shared_ptr<Session>>>(
        [&](auto done) { Session::create(client, ttlSeconds, std::move(done)); });
    return session ? session.value() : nullptr;
}

inline Error lockNow(Mutex& mutex) {
    return detail::waitFor<Error>([&](auto done) { mutex.lock(std::move(done)); });
}

inline Result<bool> unlockNow(Mutex& mutex) {
    return detail::waitFor<Result<bool>>([&](auto done) { mutex.unlock(std::move(done)); });
}

inline Result<bool> tryLockNow(Mutex& mutex) {
    return detail::waitFor<Result<bool>>([&](auto done) { mutex.tryLock(std::move(done)); });
}

} // namespace etcd
