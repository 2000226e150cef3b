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

// The key's parent: all of it before its last slash (which it has).
std::string parentOf(const std::string& key) {
    return key.substr(0, key.rfind('/'));
}

std::string_view lastSegmentOf(std::string_view key) {
    const auto slash = key.rfind('/');
    return slash == std::string_view::npos ? key : key.substr(slash + 1);
}

// The number `digits` write in `base` (10 or 16, lowercase), if they are at most `most` digits
// of it and nothing else.
std::optional<uint64_t> numberIn(std::string_view digits, uint64_t base, std::size_t most) {
    if (digits.empty() || digits.size() > most)
        return std::nullopt;
    uint64_t value = 0;
    for (char c : digits) {
        uint64_t digit = 0;
        if (c >= '0' && c <= '9')
            digit = static_cast<uint64_t>(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            digit = static_cast<uint64_t>(c - 'a' + 10);
        else
            return std::nullopt;
        value = value * base + digit;
    }
    return value;
}

// What the lock of `key` under `name` is: a queue, or the key itself (a single-key lock named
// like a queue is listed with a NUL after its key: lockNameOf).
void describe(LockQueue& queue, const std::string& name, const std::string& key,
              RecipeOverride recipe) {
    queue.name = name;
    queue.keyIsLock = name.size() >= key.size() && name.compare(0, key.size(), key) == 0;
    switch (recipe) {
    case RecipeOverride::Auto:
    case RecipeOverride::RwMutex: queue.assumed.reset(); break;
    case RecipeOverride::Mutex: queue.assumed = QueueKind::Mutex; break;
    case RecipeOverride::Election: queue.assumed = QueueKind::Election; break;
    case RecipeOverride::SingleKey: queue.assumed = QueueKind::SingleKey; break;
    }
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

std::string LockTable::lockNameOf(const std::string& key) const {
    const auto slash = key.rfind('/');
    const std::string parent = slash == std::string::npos ? std::string() : key.substr(0, slash);
    if (recipe_ == RecipeOverride::SingleKey)
        return key;
    if (recipe_ != RecipeOverride::Mutex && recipe_ != RecipeOverride::Election &&
        modeOf(key) != KeyMode::Exclusive) {
        std::size_t roleStart = 0;
        segmentBefore(key, slash, roleStart);
        return key.substr(0, roleStart - 1);
    }
    if (recipe_ != RecipeOverride::Auto)
        return parent;
    if (slash != std::string::npos && isQueue(parent))
        return parent;
    // The key is the lock; a queue of the same name (keys under <key>/) is another lock.
    return isQueue(key) ? key + '\0' : key;
}

bool LockTable::isQueue(const std::string& name) const {
    const auto found = locks_.find(name);
    return found != locks_.end() && !found->second->keyIsLock;
}

std::optional<std::string_view> LockTable::queueMadeBy(const std::string& key,
                                                       int64_t lease) const {
    if (recipe_ != RecipeOverride::Auto)
        return std::nullopt;
    const auto slash = key.rfind('/');
    if (slash == std::string::npos)
        return std::nullopt;
    if (modeOf(key) != KeyMode::Exclusive) {
        std::size_t roleStart = 0;
        segmentBefore(key, slash, roleStart);
        return std::string_view(key).substr(0, roleStart - 1);
    }
    if (!namesItsLease(key, lease))
        return std::nullopt;
    return std::string_view(key).substr(0, slash);
}

bool LockTable::namesItsLease(std::string_view key, int64_t lease) {
    const std::string_view suffix = lastSegmentOf(key);
    const auto named = static_cast<uint64_t>(lease);
    return lease > 0 && (numberIn(suffix, 16, 16) == named || numberIn(suffix, 10, 19) == named);
}

std::optional<int64_t> LockTable::leaseNamedBy(const std::string& key) {
    const auto value = numberIn(lastSegmentOf(key), 16, 16);
    return value ? std::optional(static_cast<int64_t>(*value)) : std::nullopt;
}

LockTable::Locks::iterator LockTable::lockOf(const std::string& key) {
    if (recipe_ != RecipeOverride::Auto || modeOf(key) != KeyMode::Exclusive)
        return locks_.find(lockNameOf(key));
    if (const auto slash = key.rfind('/'); slash != std::string::npos) {
        const auto queue = locks_.find(key.substr(0, slash));
        if (queue != locks_.end() && !queue->second->keyIsLock)
            return queue;
    }
    const auto own = locks_.find(key);
    if (own != locks_.end() && own->second->keyIsLock)
        return own;
    return listedApart_ > 0 ? locks_.find(key + '\0') : locks_.end();
}

const LockKey* LockTable::find(const std::string& key) {
    auto queue = lockOf(key);
    if (queue == locks_.end())
        return nullptr;
    const auto& keys = queue->second->keys;
    auto it =
        std::find_if(keys.begin(), keys.end(), [&](const LockKey& k) { return k.key == key; });
    return it == keys.end() ? nullptr : &*it;
}

LockQueues LockTable::takeLocks() {
    // A map's nodes move with it: LeaseUse's names would point into the map given away.
    Locks taken = std::move(locks_);
    locks_.clear();
    leaseUses_.clear();
    touched_.clear();
    touchedRange_.reset();
    ownLocks_ = 0;
    listedApart_ = 0;
    waiting_ = 0;
    revision_ = 0;
    loaded_ = false;
    return taken;
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
    touched_.clear();
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
        for (const auto& k : queue->keys) {
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
        const LockKey* known = locks_.empty() ? nullptr : find(kv.key());
        if (!known) {
            arrived.push_back(&kv);
            continue;
        }
        refresh(*known, kv, revision, now, true, out);
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
    // A page is in key order, so the keys of one queue under its name come together: the queue
    // gets room for all of them at once instead of growing 1, 2, 4, 8, 16. Only keys that name
    // their lease count (Go's queue keys): a single-key lock beside a million others under the
    // same parent must not reserve a million.
    std::unordered_map<std::string_view, std::size_t> runs;
    std::string_view runParent;
    std::size_t runLength = 0;
    const auto endRun = [&] {
        if (runLength > 1)
            runs[runParent] += runLength;
        runLength = 0;
    };
    for (const auto& kv : kvs) {
        const std::string_view key = kv.key();
        const auto slash = key.rfind('/');
        if (slash == std::string_view::npos || !namesItsLease(key, kv.lease())) {
            endRun();
            continue;
        }
        const std::string_view parent = key.substr(0, slash);
        if (runLength > 0 && parent != runParent)
            endRun();
        runParent = parent;
        ++runLength;
    }
    endRun();
    pageRuns_ = &runs;
    // A page is in key order, but lock names are not ("/a-b/1" before "/a/1"); "" is a name:
    // the range of the names it touched is kept as they come, not each name.
    loadingPage_ = true;
    touchedRange_.reset();
    std::vector<LockEvent> out;
    for (auto* kv : arrived) {
        insert(lockKeyOf(*kv, now), revision, false, out);
        out.clear(); // what was there before we looked is state, not news
    }
    loadingPage_ = false;
    pageRuns_ = nullptr;
    std::pair<std::string, std::string> touched =
        touchedRange_.value_or(std::pair<std::string, std::string>());
    if (last) {
        revision_ = revision;
        loaded_ = true;
    }
    return touched;
}

std::vector<LockEvent> LockTable::apply(const mvccpb::Event& event, int64_t revision,
                                        Clock::time_point now) {
    std::vector<LockEvent> out;
    touched_.clear();
    revision_ = std::max(revision_, revision);
    const auto& kv = event.kv();
    if (event.type() == mvccpb::Event::DELETE) {
        erase(kv.key(), revision, now, false, out);
        return out;
    }
    if (const LockKey* known = find(kv.key())) {
        if (known->createRevision == kv.create_revision()) {
            refresh(*known, kv, revision, now, false, out); // an election's proclaim
            return out;
        }
        erase(kv.key(), revision, now, false, out); // a missed delete: the key was re-created
    }
    insert(lockKeyOf(kv, now), revision, false, out);
    return out;
}

void LockTable::insert(LockKey key, int64_t revision, bool recovered, std::vector<LockEvent>& out) {
    const auto now = key.enqueuedAt;
    Locks::iterator lock;
    if (const auto made = queueMadeBy(key.key, key.lease)) {
        // The name in a buffer kept between keys: a hundred thousand keys allocate no name.
        std::string& queue = nameBuffer_;
        queue.assign(made->data(), made->size());
        lock = locks_.find(queue);
        if (lock == locks_.end() || lock->second->keyIsLock)
            lock = becomeQueue(queue, now);
    } else {
        lock = locks_.try_emplace(lockNameOf(key.key)).first;
    }
    const std::string& name = lock->first;
    LockQueue& queue = lock->second.edit();
    const bool fresh = queue.keys.empty() && queue.name.empty();
    if (fresh)
        describe(queue, name, key.key, recipe_);
    touch(name);
    if (pageRuns_ && queue.keys.empty())
        if (const auto run = pageRuns_->find(name); run != pageRuns_->end())
            queue.keys.reserve(run->second);
    auto at =
        std::upper_bound(queue.keys.begin(), queue.keys.end(), key.createRevision,
                         [](int64_t rev, const LockKey& k) { return rev < k.createRevision; });
    const std::size_t heldBefore = queue.holderCount();
    countQueue(queue, -1);
    countKey(key.lease, name, +1);
    const bool amongHolders = static_cast<std::size_t>(at - queue.keys.begin()) <= heldBefore;
    key.enqueuedBeforeSeen = unseen(recovered);
    if (const SeenTimes* seen = key.enqueuedBeforeSeen ? seenBefore(key) : nullptr) {
        key.enqueuedAt = seen->enqueuedAt;
        key.enqueuedBeforeSeen = seen->enqueuedBeforeSeen;
    }
    // A page of the first load reports nothing (loadPage drops it): no event to copy names into.
    std::optional<LockEvent> enqueued;
    if (!loadingPage_)
        enqueued = LockEvent{LockEventKind::Enqueued,
                             name,
                             key.key,
                             key.lease,
                             revision,
                             now,
                             std::nullopt,
                             std::nullopt,
                             recovered,
                             key.createRevision,
                             false};
    queue.keys.insert(at, std::move(key));
    if (fresh)
        countLock(queue, +1);
    // A key that is its lock joins no queue: it holds, or it is not there.
    if (enqueued && queue.waitersVisible()) {
        enqueued->recipe = queue.kind();
        out.push_back(std::move(*enqueued));
    }
    if (amongHolders) // behind the holders it changes none of them
        noteHolders(queue, revision, now, recovered, out, heldBefore + 1);
    countQueue(queue, +1);
}

void LockTable::erase(const std::string& key, int64_t revision, Clock::time_point now,
                      bool recovered, std::vector<LockEvent>& out) {
    auto found = lockOf(key);
    if (found == locks_.end())
        return;
    // Read before any edit: a lock whose last key goes is not copied only to be dropped.
    const LockQueue& before = *found->second;
    const auto it = std::find_if(before.keys.begin(), before.keys.end(),
                                 [&](const LockKey& k) { return k.key == key; });
    if (it == before.keys.end())
        return;
    touch(found->first);
    const auto index = static_cast<std::size_t>(it - before.keys.begin());
    const bool wasHolder = index < before.holderCount();
    const int64_t lease = it->lease;
    countQueue(before, -1);
    countKey(lease, found->first, -1);
    LockEvent event{departure(*it, wasHolder),
                    before.name,
                    it->key,
                    lease,
                    revision,
                    now,
                    std::nullopt,
                    std::nullopt,
                    recovered,
                    it->createRevision};
    event.recipe = before.kind();
    if (wasHolder && it->acquiredAt) {
        event.held = since(*it->acquiredAt, now);
        event.atLeast = it->acquiredBeforeSeen;
    }
    out.push_back(std::move(event));
    // Its last key gone, an expired lease makes no key an anomaly and no departure an expiry
    // any more: forgotten, or a run of days would keep every lease that ever expired.
    if (!leaseUses_.contains(lease))
        expiredLeases_.erase(lease);
    const auto made = queueMadeBy(key, lease);
    const bool keysLeft = before.keys.size() > 1;
    bool stillMade = false;
    if (!keysLeft) {
        countLock(before, -1); // while it has its key
        locks_.erase(found);
    } else {
        LockQueue& queue = found->second.edit();
        queue.keys.erase(queue.keys.begin() + static_cast<std::ptrdiff_t>(index));
        stillMade = made && madeByItsKeys(queue);
        if (index <= queue.holderCount()) // a holder, or an RWMutex writer readers waited on
            noteHolders(queue, revision, now, recovered, out);
        countQueue(queue, +1);
    }
    // The last key that made its queue one is gone: what is left, and the key named like it
    // that was listed apart, are locks of their own again.
    if (made && !stillMade && (keysLeft || listedApart_ > 0))
        endQueue(std::string(*made), now);
}

void LockTable::refresh(const LockKey& known, const mvccpb::KeyValue& kv, int64_t revision,
                        Clock::time_point now, bool recovered, std::vector<LockEvent>& out) {
    if (known.modRevision == kv.mod_revision() && known.lease == kv.lease())
        return; // a re-list's copy of what we have
    // A new value (an election's proclaim) changes what its lock shows.
    const auto lock = lockOf(known.key);
    touch(lock->first);
    const auto index = static_cast<std::size_t>(&known - lock->second->keys.data());
    LockKey& k = lock->second.edit().keys[index]; // `known` may be gone once edited
    k.modRevision = kv.mod_revision();
    if (k.value != kv.value()) {
        LockEvent proclaimed{LockEventKind::Proclaimed,
                             lock->first,
                             k.key,
                             kv.lease(),
                             revision,
                             now,
                             std::nullopt,
                             std::nullopt,
                             recovered,
                             k.createRevision};
        proclaimed.recipe = lock->second->kind();
        out.push_back(std::move(proclaimed));
    }
    k.value = kv.value();
    if (k.lease == kv.lease())
        return;
    // Put again under another lease, or none (etcd keeps its create revision): the lease counts
    // move with it, and a key that now names its lease, or no longer does, regroups its parent.
    const LockQueue& queue = *lock->second;
    countQueue(queue, -1);
    countKey(k.lease, lock->first, -1);
    const int64_t before = k.lease;
    k.lease = kv.lease();
    countKey(k.lease, lock->first, +1);
    countQueue(queue, +1);
    const std::string key = k.key; // regrouping moves k
    const auto madeBefore = queueMadeBy(key, before);
    const auto madeNow = queueMadeBy(key, kv.lease());
    if (madeNow && !isQueue(std::string(*madeNow)))
        becomeQueue(std::string(*madeNow), now);
    else if (madeBefore && !madeNow && !madeByItsKeys(*locks_.at(std::string(*madeBefore))))
        endQueue(std::string(*madeBefore), now);
}

bool LockTable::madeByItsKeys(const LockQueue& queue) const {
    // The first key almost always does.
    return std::any_of(queue.keys.begin(), queue.keys.end(),
                       [&](const LockKey& k) { return queueMadeBy(k.key, k.lease).has_value(); });
}

LockTable::Locks::iterator LockTable::becomeQueue(const std::string& queue, Clock::time_point now) {
    // The keys that are locks of their own until now: the one named like the queue, and every
    // one directly under <queue>/, which Go's waiters of the queue wait on too.
    std::vector<LockKey> moving;
    if (ownLocks_ > 0) {
        if (auto own = locks_.find(queue); own != locks_.end())
            take(own, moving);
        const std::string under = queue + '/';
        for (auto it = locks_.lower_bound(under);
             it != locks_.end() && it->first.compare(0, under.size(), under) == 0;) {
            const LockQueue& own = *it->second;
            it = own.keyIsLock && parentOf(own.keys.front().key) == queue ? take(it, moving)
                                                                          : std::next(it);
        }
    }
    const auto made = locks_.try_emplace(queue).first;
    made->second.edit().name = queue;
    touch(queue);
    place(std::move(moving), now);
    return made;
}

void LockTable::endQueue(const std::string& queue, Clock::time_point now) {
    std::vector<LockKey> moving;
    if (const auto left = locks_.find(queue); left != locks_.end() && !left->second->keyIsLock)
        take(left, moving);
    if (const auto apart = locks_.find(queue + '\0'); apart != locks_.end())
        take(apart, moving);
    place(std::move(moving), now);
}

LockTable::Locks::iterator LockTable::take(Locks::iterator lock, std::vector<LockKey>& into) {
    touch(lock->first);
    countQueue(*lock->second, -1);
    countLock(*lock->second, -1);
    for (auto& k : lock->second.edit().keys) {
        unlinkLease(k.lease, lock->first);
        into.push_back(std::move(k));
    }
    return locks_.erase(lock);
}

void LockTable::countLock(const LockQueue& lock, int delta) {
    if (!lock.keyIsLock) // a queue; the counts are of locks whose key is the lock, while it has it
        return;
    ownLocks_ += delta;
    if (lock.name.size() > lock.keys.front().key.size()) // its key and a NUL: listed apart
        listedApart_ += delta;
}

void LockTable::place(std::vector<LockKey> moving, Clock::time_point now) {
    std::sort(moving.begin(), moving.end(), [](const LockKey& a, const LockKey& b) {
        return a.createRevision < b.createRevision;
    });
    std::set<std::string> placed;
    for (auto& k : moving) {
        const std::string name = lockNameOf(k.key);
        const auto lock = locks_.try_emplace(name).first;
        LockQueue& target = lock->second.edit();
        linkLease(k.lease, lock->first);
        const bool fresh = target.keys.empty() && target.name.empty();
        if (placed.insert(name).second && !fresh)
            countQueue(target, -1);
        auto at = std::upper_bound(
            target.keys.begin(), target.keys.end(), k.createRevision,
            [](int64_t rev, const LockKey& key) { return rev < key.createRevision; });
        target.keys.insert(at, std::move(k));
        if (fresh) {
            describe(target, name, target.keys.front().key, recipe_);
            countLock(target, +1);
        }
    }
    // Nothing left etcd, so no events: a key that holds now held all along by its own recipe,
    // as far as anyone can tell, and a key behind another in a queue waits.
    for (const auto& name : placed) {
        touch(name);
        LockQueue& target = locks_.at(name).edit();
        const std::size_t holders = target.holderCount();
        for (std::size_t i = 0; i < target.keys.size(); ++i) {
            LockKey& k = target.keys[i];
            if (i >= holders)
                k.acquiredAt.reset();
            else if (!k.acquiredAt) {
                k.acquiredAt = now;
                k.acquiredBeforeSeen = true;
            }
        }
        countQueue(target, +1);
    }
}

void LockTable::touch(const std::string& lock) {
    if (!loadingPage_) {
        touched_.push_back(lock);
        return;
    }
    if (!touchedRange_)
        touchedRange_.emplace(lock, lock);
    else if (lock < touchedRange_->first)
        touchedRange_->first = lock;
    else if (lock > touchedRange_->second)
        touchedRange_->second = lock;
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

void LockTable::linkLease(int64_t lease, const std::string& lock) {
    if (lease == 0)
        return;
    LeaseUse& use = leaseUses_.at(lease); // counted first
    if (!use.firstLock)
        use.firstLock = &lock;
    else
        use.moreLocks.push_back(&lock);
}

void LockTable::unlinkLease(int64_t lease, const std::string& lock) {
    if (lease == 0)
        return;
    LeaseUse& use = leaseUses_.at(lease);
    if (use.firstLock == &lock) {
        use.firstLock = use.moreLocks.empty() ? nullptr : use.moreLocks.back();
        if (!use.moreLocks.empty())
            use.moreLocks.pop_back();
        return;
    }
    const auto found = std::find(use.moreLocks.begin(), use.moreLocks.end(), &lock);
    if (found != use.moreLocks.end()) {
        *found = use.moreLocks.back();
        use.moreLocks.pop_back();
    }
}

std::vector<std::string> LockTable::locksOfLease(int64_t lease) const {
    std::vector<std::string> names;
    const auto use = leaseUses_.find(lease);
    if (lease == 0 || use == leaseUses_.end())
        return names;
    if (use->second.firstLock)
        names.push_back(*use->second.firstLock);
    for (const std::string* lock : use->second.moreLocks)
        names.push_back(*lock);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

void LockTable::countKey(int64_t lease, const std::string& lock, int delta) {
    if (lease == 0)
        return;
    if (delta > 0) {
        ++leaseUses_[lease].keys;
        linkLease(lease, lock);
        return;
    }
    unlinkLease(lease, lock);
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
        if (const SeenTimes* seen = holder.acquiredBeforeSeen ? seenBefore(holder) : nullptr;
            seen && seen->acquiredAt) {
            holder.acquiredAt = seen->acquiredAt;
            holder.acquiredBeforeSeen = seen->acquiredBeforeSeen;
        }
        if (loadingPage_) // a first load's page reports nothing (loadPage drops it)
            continue;
        LockEvent acquired{LockEventKind::Acquired,
                           queue.name,
                           holder.key,
                           holder.lease,
                           revision,
                           now,
                           std::nullopt,
                           std::nullopt,
                           recovered,
                           holder.createRevision,
                           holder.enqueuedBeforeSeen};
        // A lock whose waiters hold no key shows no wait: unknown, not none.
        if (queue.waitersVisible())
            acquired.waited = since(holder.enqueuedAt, now);
        acquired.recipe = queue.kind();
        out.push_back(std::move(acquired));
    }
    for (std::size_t i = holders; i < std::min(heldBefore, queue.keys.size()); ++i)
        queue.keys[i].acquiredAt.reset();
}

const SeenTimes* LockTable::seenBefore(const LockKey& key) const {
    if (!seen_)
        return nullptr;
    const auto found = seen_->find(key.key);
    return found != seen_->end() && found->second.createRevision == key.createRevision
               ? &found->second
               : nullptr;
}

void addSeenTimes(const LockQueues& locks, SeenTimesByKey& seen, std::size_t most) {
    for (const auto& [name, queue] : locks)
        for (const LockKey& key : queue->keys) {
            if (seen.size() >= most)
                return;
            seen[key.key] = {key.createRevision, key.enqueuedAt, key.acquiredAt,
                             key.enqueuedBeforeSeen, key.acquiredBeforeSeen};
        }
}

void addSeenTimes(const SeenTimesByKey& from, SeenTimesByKey& seen, std::size_t most) {
    for (const auto& [key, times] : from) {
        if (seen.size() >= most)
            return;
        seen.try_emplace(key, times);
    }
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
        if (auto found = anomaliesOf(*queue); !found.empty())
            out.emplace(name, std::move(found));
    return out;
}

std::vector<Anomaly> LockTable::anomaliesOf(const LockQueue& queue) const {
    std::vector<Anomaly> out;
    for (const auto& k : queue.keys) {
        // The details name no key: keys are bytes, and whoever shows them escapes them.
        if (queue.keyIsLock && k.lease == 0 && !queue.assumed)
            out.push_back({k.key, AnomalyKind::NotALockKey,
                           "matches no known lock recipe: no lease, and not <name>/<its lease "
                           "id>; it never expires"});
        else if (k.lease == 0)
            out.push_back({k.key, AnomalyKind::NoLease,
                           queue.keyIsLock
                               ? "the key has no lease, so it is held until someone deletes it"
                               : "the key has no lease, so it never expires and blocks every "
                                 "waiter behind it until someone deletes it"});
        // An RWMutex key names a time, not a lease: nothing to match it with.
        if (!queue.keyIsLock && k.mode == KeyMode::Exclusive && !namesItsLease(k.key, k.lease)) {
            const auto named = leaseNamedBy(k.key);
            if (!named || k.key.find('/') == std::string::npos)
                out.push_back({k.key, AnomalyKind::NotALockKey,
                               "not shaped <name>/<its lease id>, yet under a queue's name: "
                               "Go's waiters of this lock wait on it too"});
            else if (k.lease != 0)
                out.push_back({k.key, AnomalyKind::LeaseMismatch,
                               "the key names lease " + leaseHex(*named) + " but is attached to " +
                                   leaseHex(k.lease)});
        }
        if (k.lease != 0 && expiredLeases_.count(k.lease))
            out.push_back({k.key, AnomalyKind::ExpiredLease,
                           "lease " + leaseHex(k.lease) + " is gone but the key is still here"});
    }
    return out;
}

} // namespace etcd
