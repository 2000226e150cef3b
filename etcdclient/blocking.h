#pragma once

#include "etcdclient/client.h"
#include "etcdclient/mutex.h"
#include "etcdclient/session.h"

#include <cstdio>
#include <cstdlib>
#include <future>

namespace etcd {

// The waiting forms below are for command-line tools, tests and the bench, never the GUI
// thread. Never call one on the client's own thread (from a callback): it would wait on itself.

// Runs one asynchronous Client call and waits for its result.
template <class Req, class Resp>
Result<Resp> call(Client& client, void (Client::*method)(Req, Callback<Resp>), Req request) {
    if (client.onClientThread()) {
        std::fputs("etcdclient: a blocking call was made from a client callback\n", stderr);
        std::abort();
    }
    auto promise = std::make_shared<std::promise<Result<Resp>>>();
    auto future = promise->get_future();
    (client.*method)(std::move(request),
                     [promise](Result<Resp> result) { promise->set_value(std::move(result)); });
    try {
        return future.get();
    } catch (const std::future_error&) {
        return Error(ErrorCode::Cancelled, "the client shut down before the call finished");
    }
}

// A new session with its keepalive running; null when etcd refused the lease.
inline std::shared_ptr<Session> createSession(Client& client, int64_t ttlSeconds) {
    std::promise<Result<std::shared_ptr<Session>>> made;
    Session::create(client, ttlSeconds, [&](auto s) { made.set_value(std::move(s)); });
    auto session = made.get_future().get();
    return session ? session.value() : nullptr;
}

inline Error lockNow(Mutex& mutex) {
    std::promise<Error> done;
    mutex.lock([&](const Error& e) { done.set_value(e); });
    return done.get_future().get();
}

inline Result<bool> unlockNow(Mutex& mutex) {
    std::promise<Result<bool>> done;
    mutex.unlock([&](Result<bool> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
}

inline Result<bool> tryLockNow(Mutex& mutex) {
    std::promise<Result<bool>> done;
    mutex.tryLock([&](Result<bool> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
}

} // namespace etcd
