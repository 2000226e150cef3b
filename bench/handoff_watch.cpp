#include "handoff_watch.h"

#include "etcdclient/hex_id.h"

#include <deque>

namespace lockscope::bench {

std::vector<mvccpb::Event> handoffWatch(const std::string& prefix, int rounds) {
    constexpr int locks = 100;
    int64_t revision = 1;
    int64_t lease = 0x694d000000000000;
    std::vector<mvccpb::Event> watch;
    watch.reserve(static_cast<std::size_t>(locks * 2 + rounds * 2));
    const auto put = [&](int lock) {
        mvccpb::Event event;
        event.set_type(mvccpb::Event::PUT);
        auto& kv = *event.mutable_kv();
        ++lease;
        kv.set_key(prefix + "lock" + std::to_string(lock) + "/" + etcd::leaseHex(lease));
        kv.set_lease(lease);
        kv.set_create_revision(++revision);
        kv.set_mod_revision(revision);
        watch.push_back(event);
        return kv.key();
    };
    std::vector<std::deque<std::string>> queues(locks);
    for (int lock = 0; lock < locks; ++lock)
        for (int k = 0; k < 2; ++k)
            queues[lock].push_back(put(lock));
    for (int round = 0; round < rounds; ++round) {
        const int lock = round % locks;
        mvccpb::Event del;
        del.set_type(mvccpb::Event::DELETE);
        del.mutable_kv()->set_key(queues[lock].front());
        del.mutable_kv()->set_mod_revision(++revision);
        watch.push_back(del);
        queues[lock].pop_front();
        queues[lock].push_back(put(lock));
    }
    return watch;
}

} // namespace lockscope::bench
