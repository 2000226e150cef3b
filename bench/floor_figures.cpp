#include "etcdclient/blocking.h"
#include "figures.h"

#include <future>
#include <thread>

namespace lockscope::bench {

namespace {
using Clock = std::chrono::steady_clock;
}

std::vector<Samples> measureFloor(etcd::Client& client, const Scale& scale) {
    Samples txn{"floor: bare Txn (compare, put, range)", {}};
    Samples range{"floor: linearizable Range", {}};
    Samples putToWatch{"floor: put to watch event", {}};

    for (int i = 0; i < scale.rounds; ++i) {
        // The shape of an acquire: a create-revision compare, a put and a range.
        const std::string key = "/bench/floor/txn/" + std::to_string(i);
        etcd::pb::TxnRequest t;
        auto* cmp = t.add_compare();
        cmp->set_key(key);
        cmp->set_target(etcd::pb::Compare::CREATE);
        cmp->set_create_revision(0);
        t.add_success()->mutable_request_put()->set_key(key);
        t.add_success()->mutable_request_range()->set_key(key);
        t.add_failure()->mutable_request_range()->set_key(key);
        auto start = Clock::now();
        etcd::call(client, &etcd::Client::txn, t);
        txn.add(Clock::now() - start);

        etcd::pb::RangeRequest r;
        r.set_key(key);
        start = Clock::now();
        etcd::call(client, &etcd::Client::range, r);
        range.add(Clock::now() - start);
    }

    // One watcher; each put's event is timed from the moment the put is issued.
    std::mutex mutex;
    std::condition_variable seen;
    int64_t lastRevision = 0;
    etcd::pb::WatchCreateRequest w;
    w.set_key("/bench/floor/watched");
    std::promise<void> created;
    bool once = false;
    auto watch = client.watch(w, {[&](const etcd::pb::WatchResponse& response) {
                                      std::lock_guard lock(mutex);
                                      if (response.created() && !once) {
                                          once = true;
                                          created.set_value();
                                      }
                                      for (const auto& e : response.events())
                                          lastRevision = e.kv().mod_revision();
                                      seen.notify_all();
                                  },
                                  nullptr});
    created.get_future().wait();
    for (int i = 0; i < scale.rounds; ++i) {
        std::this_thread::sleep_for(pause);
        etcd::pb::PutRequest p;
        p.set_key("/bench/floor/watched");
        const auto start = Clock::now();
        std::promise<int64_t> put;
        client.put(p, [&](auto r) { put.set_value(r ? r->header().revision() : -1); });
        const int64_t revision = put.get_future().get();
        std::unique_lock lock(mutex);
        seen.wait(lock, [&] { return lastRevision >= revision; });
        putToWatch.add(Clock::now() - start);
    }
    return {txn, range, putToWatch};
}

} // namespace lockscope::bench
