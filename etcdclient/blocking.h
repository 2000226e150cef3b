#pragma once

#include "etcdclient/client.h"

#include <cstdio>
#include <cstdlib>
#include <future>

namespace etcd {

// Runs one asynchronous Client call and waits for its result: for command-line tools and tests.
// Never call it on the client's own thread (from a callback): it would wait on itself.
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

} // namespace etcd
