#pragma once

#include "etcdclient/client.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::test {

// Collects what a watch delivers, for the test thread to wait on.
struct WatchLog {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<mvccpb::Event> events;
    std::vector<int64_t> responseRevisions;
    bool created = false;
    std::optional<etcd::Error> end;

    etcd::WatchCallbacks callbacks() {
        return {[this](const etcd::pb::WatchResponse& r) {
                    std::lock_guard lock(mutex);
                    created = created || r.created();
                    for (const auto& e : r.events())
                        events.push_back(e);
                    responseRevisions.push_back(r.header().revision());
                    changed.notify_all();
                },
                [this](const etcd::Error& e) {
                    std::lock_guard lock(mutex);
                    end = e;
                    changed.notify_all();
                }};
    }
    // The values of the events so far, in delivery order.
    std::vector<std::string> values() {
        std::lock_guard lock(mutex);
        std::vector<std::string> out;
        for (const auto& e : events)
            out.push_back(e.kv().value());
        return out;
    }
    template <class Pred>
    bool waitFor(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, timeout, [&] { return pred(*this); });
    }
};

} // namespace lockscope::test
