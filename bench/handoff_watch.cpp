#include "handoff_watch.h"

#include "etcdclient/hex_id.h"

namespace lockscope::bench {

HandoffWatch::HandoffWatch(std::string prefix)
    : prefix_(std::move(prefix))
    , queues_(locks) {}

void HandoffWatch::put(int lock) {
    event_.Clear();
    event_.set_type(mvccpb::Event::PUT);
    auto& kv = *event_.mutable_kv();
    ++lease_;
    kv.set_key(prefix_ + "lock" + std::to_string(lock) + "/" + etcd::leaseHex(lease_));
    kv.set_lease(lease_);
    kv.set_create_revision(++revision_);
    kv.set_mod_revision(revision_);
    queues_[static_cast<std::size_t>(lock)].push_back(kv.key());
}

const mvccpb::Event& HandoffWatch::next() {
    const int64_t made = made_++;
    if (made < 2 * locks) {
        put(static_cast<int>(made / 2));
        return event_;
    }
    const int64_t step = made - 2 * locks;
    const int lock = static_cast<int>(step / 2 % locks);
    auto& queue = queues_[static_cast<std::size_t>(lock)];
    if (step % 2 == 1) {
        put(lock);
        return event_;
    }
    event_.Clear();
    event_.set_type(mvccpb::Event::DELETE);
    event_.mutable_kv()->set_key(queue.front());
    event_.mutable_kv()->set_mod_revision(++revision_);
    queue.pop_front();
    return event_;
}

std::vector<mvccpb::Event> handoffWatch(const std::string& prefix, int rounds) {
    HandoffWatch watch(prefix);
    std::vector<mvccpb::Event> events;
    const auto count = static_cast<std::size_t>(2 * HandoffWatch::locks + 2 * rounds);
    events.reserve(count);
    while (events.size() < count)
        events.push_back(watch.next());
    return events;
}

} // namespace lockscope::bench
