#include "etcdclient/locks/lock_table.h"

#include "etcdclient/hex_id.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace etcd {

namespace {

using Clock = std::chrono::system_clock;

std::chrono::milliseconds since(Clock::time_point from, Clock::time_point now) {
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - from));
}

LockKey lockKeyOf(const mvccpb::KeyValue& kv, Clock::time_point now) {
    LockKey k;
    k.key = kv.key();
    k.lease = kv.lease();
    k.createRevision = kv.create_revision();
    k.modRevision = kv.mod_revision();
    k.value = kv.value();
    k.mode = LockTable::modeOf(k.key);
    k.enqueuedAt = now;
    return k;
}

// The segment before `end` (a slash's position) of `key`, and where it starts.
std::string_view segmentBefore(std::string_view key, std::size_t end, std::size_t& start) {
    const auto slash = key.rfind('/', end == 0 ? std::string_view::npos : end - 1);
    start = slash == std::string_view::npos ? 0 : slash + 1;
    return key.substr(start, end - start);
}

// Oldest first, so queues and holders form as they did on the server.
void sortByCreateRevision(std::vector<const mvccpb::KeyValue*>& kvs) {
    std::sort(kvs.begin(), kvs.end(),
              [](auto* a, auto* b) { return a->create_revision() < b->create_revision(); });
}

} // namespace

KeyMode LockTable::modeOf(const std::string& key) {
    const auto slash = key.rfind('/');
    if (slash == std::string::npos || slash == 0)
        return KeyMode::Exclusive;
    const std::string_view unique = std::string_view(key).substr(slash + 1);
    if (unique.size() <= 16 || unique.size() > 19 ||
        !std::all_of(unique.begin(), unique.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return KeyMode::Exclusive;
    std::size_t start = 0;
    const std::string_view role = segmentBefore(key, slash, start);
    if (start == 0) // the recipe's keys are <name>/<role>/<n>: a name, then a slash
        return KeyMode::Exclusive;
    return role == "read" ? KeyMode::Read : role == "write" ? KeyMode::Write : KeyMode::Exclusive;
}

std::string LockTable::lockNameOf(const std::string& key) {
    const auto slash = key.rfind('/');
    if (slash == std::string::npos)
        return std::string();
    if (modeOf(key) == KeyMode::Exclusive)
        return key.substr(0, slash);
    std::size_t roleStart = 0;
    segmentBefore(key, slash, roleStart);
    return key.substr(0, roleStart - 1);
}

std::optional<int64_t> LockTable::leaseNamedBy(const std::string& key) {
    const auto slash = key.rfind('/');
    const std::string suffix = slash == std::string::npos ? key : key.substr(slash + 1);
    if (suffix.empty() || suffix.size() > 16)
        return std::nullopt;
    uint64_t value = 0;
    for (char c : suffix) {
        if (c >= '0' && c <= '9')
            value = value * 16 + static_cast<uint64_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value = value * 16 + static_cast<uint64_t>(c - 'a' + 10);
        else
            return std::nullopt;
    }
    return static_cast<int64_t>(value);
}

LockKey* LockTable::find(const std::string& key) {
    auto queue = locks_.find(lockNameOf(key));
    if (queue == locks_.end())
        return nullptr;
    auto& keys = queue->second.keys;
    auto it =
        std::find_if(keys.begin(), keys.end(), [&](const LockKey& k) { return k.key == key; });
    return it == keys.end() ? nullptr : &*it;
}

std::vector<mvccpb::KeyValue>
takeKeyValues(google::protobuf::RepeatedPtrField<mvccpb::KeyValue>& kvs) {
    std::vector<mvccpb::KeyValue> out;
    out.reserve(static_cast<std::size_t>(kvs.size()));
    for (auto& kv : kvs)
        out.push_back(std::move(kv));
    return out;
}

std::vector<LockEvent> LockTable::load(const std::vector<mvccpb::KeyValue>& kvs, int64_t revision,
                                       Clock::time_point now) {
    if (!loaded_) {
        loadPage(kvs, revision, now, true);
        return {};
    }
    // A re-list: what the gap implies is reported, marked recovered.
    std::vector<LockEvent> out;
    std::unordered_map<std::string_view, const mvccpb::KeyValue*> fresh;
    if (!locks_.empty()) {
        fresh.reserve(kvs.size());
        for (const auto& kv : kvs)
            fresh.emplace(kv.key(), &kv);
    }

    // Keys gone, or deleted and created again, during the gap: oldest first.
    std::vector<std::pair<int64_t, std::string>> gone;
    for (const auto& [name, queue] : locks_)
        for (const auto& k : queue.keys) {
            auto it = fresh.find(k.key);
            if (it == fresh.end() || it->second->create_revision() != k.createRevision)
                gone.emplace_back(k.createRevision, k.key);
        }
    std::sort(gone.begin(), gone.end());
    for (const auto& [rev, key] : gone)
        erase(key, revision, now, true, out);

    // Keys new since.
    std::vector<const mvccpb::KeyValue*> arrived;
    for (const auto& kv : kvs) {
        LockKey* known = locks_.empty() ? nullptr : find(kv.key());
        if (!known) {
            arrived.push_back(&kv);
            continue;
        }
        refresh(*known, kv);
    }
    sortByCreateRevision(arrived);
    for (auto* kv : arrived)
        insert(lockKeyOf(*kv, now), revision, true, out);
    revision_ = revision;
    return out;
}

std::pair<std::string, std::string> LockTable::loadPage(const std::vector<mvccpb::KeyValue>& kvs,
                                                        int64_t revision, Clock::time_point now,
                                                        bool last) {
    // A lock's keys in two pages are put in order by insert().
    std::vector<const mvccpb::KeyValue*> arrived;
    arrived.reserve(kvs.size());
    for (const auto& kv : kvs)
        arrived.push_back(&kv);
    sortByCreateRevision(arrived);
    std::pair<std::string, std::string> touched;
    std::vector<LockEvent> out;
    for (auto* kv : arrived) {
        insert(lockKeyOf(*kv, now), revision, false, out);
        out.clear(); // what was there before we looked is state, not news
    }
    // A page is in key order, but lock names are not ("/a-b/1" before "/a/1"); "" is a name.
    for (std::size_t i = 0; i < kvs.size(); ++i) {
        std::string name = lockNameOf(kvs[i].key());
        if (i == 0 || name < touched.first)
            touched.first = name;
        if (i == 0 || name > touched.second)
            touched.second = std::move(name);
    }
    if (last) {
        revision_ = revision;
        loaded_ = true;
    }
    return touched;
}

std::vector<LockEvent> LockTable::apply(const mvccpb::Event& event, int64_t revision,
                                        Clock::time_point now) {
    std::vector<LockEvent> out;
    revision_ = std::max(revision_, revision);
    const auto& kv = event.kv();
    if (event.type() == mvccpb::Event::DELETE) {
        erase(kv.key(), revision, now, false, out);
        return out;
    }
    if (LockKey* known = find(kv.key())) {
        if (known->createRevision == kv.create_revision()) {
            refresh(*known, kv); // a value update (an election's proclaim)
            return out;
        }
        erase(kv.key(), revision, now, false, out); // a missed delete: the key was re-created
    }
    insert(lockKeyOf(kv, now), revision, false, out);
    return out;
}

void LockTable::insert(LockKey key, int64_t revision, bool recovered, std::vector<LockEvent>& out) {
    const std::string name = lockNameOf(key.key);
    auto& queue = locks_[name];
    queue.name = name;
    auto at =
        std::upper_bound(queue.keys.begin(), queue.keys.end(), key.createRevision,
                         [](int64_t rev, const LockKey& k) { return rev < k.createRevision; });
    const std::size_t heldBefore = queue.holderCount();
    countQueue(queue, -1);
    countKey(key.lease, +1);
    const bool amongHolders = static_cast<std::size_t>(at - queue.keys.begin()) <= heldBefore;
    const auto now = key.enqueuedAt;
    key.enqueuedBeforeSeen = unseen(recovered);
    out.push_back({LockEventKind::Enqueued, name, key.key, key.lease, revision, now, std::nullopt,
                   std::nullopt, recovered, key.createRevision, false});
    queue.keys.insert(at, std::move(key));
    if (amongHolders) // behind the holders it changes none of them
        noteHolders(queue, revision, now, recovered, out, heldBefore + 1);
    countQueue(queue, +1);
}

void LockTable::erase(const std::string& key, int64_t revision, Clock::time_point now,
                      bool recovered, std::vector<LockEvent>& out) {
    auto found = locks_.find(lockNameOf(key));
    if (found == locks_.end())
        return;
    auto& queue = found->second;
    auto it = std::find_if(queue.keys.begin(), queue.keys.end(),
                           [&](const LockKey& k) { return k.key == key; });
    if (it == queue.keys.end())
        return;
    const bool wasHolder = static_cast<std::size_t>(it - queue.keys.begin()) < queue.holderCount();
    countQueue(queue, -1);
    countKey(it->lease, -1);
    LockEvent event{departure(*it, wasHolder),
                    queue.name,
                    it->key,
                    it->lease,
                    revision,
                    now,
                    std::nullopt,
                    std::nullopt,
                    recovered,
                    it->createRevision};
    if (wasHolder && it->acquiredAt) {
        event.held = since(*it->acquiredAt, now);
        event.atLeast = it->acquiredBeforeSeen;
    }
    out.push_back(std::move(event));
    const auto index = static_cast<std::size_t>(queue.keys.erase(it) - queue.keys.begin());
    if (queue.keys.empty())
        locks_.erase(found);
    else {
        if (index <= queue.holderCount()) // a holder, or an RWMutex writer readers waited on
            noteHolders(queue, revision, now, recovered, out);
        countQueue(queue, +1);
    }
}

void LockTable::refresh(LockKey& k, const mvccpb::KeyValue& kv) {
    k.modRevision = kv.mod_revision();
    k.value = kv.value();
    if (k.lease == kv.lease())
        return;
    // Put again under another lease, or none (etcd keeps its create revision): the lease counts
    // move with it.
    const LockQueue& queue = locks_.at(lockNameOf(k.key));
    countQueue(queue, -1);
    countKey(k.lease, -1);
    k.lease = kv.lease();
    countKey(k.lease, +1);
    countQueue(queue, +1);
}

void LockTable::countQueue(const LockQueue& queue, int delta) {
    const std::size_t holders = queue.holderCount();
    const std::size_t waiting = queue.keys.size() - holders;
    delta > 0 ? waiting_ += waiting : waiting_ -= waiting;
    for (std::size_t i = 0; i < holders; ++i) {
        if (queue.keys[i].lease == 0)
            continue;
        LeaseUse& use = leaseUses_.at(queue.keys[i].lease); // its keys are counted
        delta > 0 ? ++use.holding : --use.holding;
    }
}

void LockTable::countKey(int64_t lease, int delta) {
    if (lease == 0)
        return;
    if (delta > 0) {
        ++leaseUses_[lease].keys;
        return;
    }
    const auto use = leaseUses_.find(lease);
    if (--use->second.keys == 0)
        leaseUses_.erase(use);
}

LockEventKind LockTable::departure(const LockKey& gone, bool wasHolder) {
    const auto forced = std::find_if(forceReleases_.begin(), forceReleases_.end(), [&](auto& f) {
        return f.second != 0 ? f.second == gone.lease : f.first == gone.key;
    });
    if (forced != forceReleases_.end()) {
        if (forced->second == 0) // a lease may hold more keys; a deleted key goes once
            forceReleases_.erase(forced);
        return LockEventKind::ForceReleased;
    }
    if (expiredLeases_.count(gone.lease))
        return LockEventKind::Expired;
    return wasHolder ? LockEventKind::Released : LockEventKind::Cancelled;
}

void LockTable::expectForceRelease(const std::string& key, int64_t lease) {
    constexpr std::size_t remembered = 256;
    forceReleases_.emplace_back(key, lease);
    if (forceReleases_.size() > remembered)
        forceReleases_.pop_front();
}

void LockTable::noteHolders(LockQueue& queue, int64_t revision, Clock::time_point now,
                            bool recovered, std::vector<LockEvent>& out, std::size_t heldBefore) {
    const std::size_t holders = queue.holderCount();
    for (std::size_t i = 0; i < holders; ++i) {
        LockKey& holder = queue.keys[i];
        if (holder.acquiredAt)
            continue;
        holder.acquiredAt = now;
        holder.acquiredBeforeSeen = unseen(recovered);
        out.push_back({LockEventKind::Acquired, queue.name, holder.key, holder.lease, revision, now,
                       since(holder.enqueuedAt, now), std::nullopt, recovered,
                       holder.createRevision, holder.enqueuedBeforeSeen});
    }
    for (std::size_t i = holders; i < std::min(heldBefore, queue.keys.size()); ++i)
        queue.keys[i].acquiredAt.reset();
}

bool LockTable::unseen(bool recovered) const {
    return recovered || !loaded_;
}

bool LockTable::setLeaseExpired(int64_t lease, bool expired) {
    return expired ? expiredLeases_.insert(lease).second : expiredLeases_.erase(lease) > 0;
}

AnomaliesByLock LockTable::anomalies() const {
    AnomaliesByLock out;
    for (const auto& [name, queue] : locks_)
        if (auto found = anomaliesOf(queue); !found.empty())
            out.emplace(name, std::move(found));
    return out;
}

std::vector<Anomaly> LockTable::anomaliesOf(const LockQueue& queue) const {
    std::vector<Anomaly> out;
    for (const auto& k : queue.keys) {
        // An RWMutex key names a time, not a lease: nothing to match it with.
        const auto named = k.mode == KeyMode::Exclusive ? leaseNamedBy(k.key) : k.lease;
        if (k.lease == 0)
            out.push_back({k.key, AnomalyKind::NoLease,
                           "the key has no lease, so it never expires and blocks every "
                           "waiter behind it until someone deletes it"});
        if (!named || k.key.find('/') == std::string::npos)
            // The detail names no key: keys are bytes, and whoever shows them escapes them.
            out.push_back({k.key, AnomalyKind::NotALockKey,
                           "not shaped <name>/<lease id in hex>; it still takes a place in "
                           "its lock's queue"});
        else if (k.lease != 0 && *named != k.lease)
            out.push_back({k.key, AnomalyKind::LeaseMismatch,
                           "the key names lease " + leaseHex(*named) + " but is attached to " +
                               leaseHex(k.lease)});
        if (k.lease != 0 && expiredLeases_.count(k.lease))
            out.push_back({k.key, AnomalyKind::ExpiredLease,
                           "lease " + leaseHex(k.lease) + " is gone but the key is still here"});
    }
    return out;
}

} // namespace etcd
