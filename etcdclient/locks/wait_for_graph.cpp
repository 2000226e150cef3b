#include "etcdclient/locks/wait_for_graph.h"

#include <algorithm>
#include <deque>
#include <tuple>

namespace etcd {

void WaitForGraph::setLock(const std::string& name, const LockQueue* queue) {
    if (auto old = waitsByLock_.find(name); old != waitsByLock_.end()) {
        for (const Wait& wait : old->second)
            remove(wait);
        waitsByLock_.erase(old);
    }
    if (auto old = holdersByLock_.find(name); old != holdersByLock_.end()) {
        for (const SessionId& holder : old->second)
            if (--held_[holder] == 0)
                held_.erase(holder);
        holdersByLock_.erase(old);
    }
    // Only a queue with someone waiting in it has waits or holders worth keeping.
    if (!queue || !queue->waitersVisible() || queue->keys.size() <= queue->holderCount())
        return;
    std::vector<SessionId> holders;
    std::vector<Wait> waits;
    const std::size_t holding = queue->holderCount();
    for (std::size_t i = 0; i < queue->keys.size(); ++i) {
        const LockKey& key = queue->keys[i];
        if (i < holding) {
            holders.push_back(SessionId::of(key));
            ++held_[holders.back()];
            continue;
        }
        const LockKey* on = queue->waitsOn(i);
        if (!on)
            continue;
        Wait wait{name,
                  key.key,
                  on->key,
                  SessionId::of(key),
                  SessionId::of(*on),
                  key.enqueuedAt,
                  key.enqueuedBeforeSeen};
        if (wait.waiter == wait.on)
            continue;
        add(wait);
        waits.push_back(std::move(wait));
    }
    if (!holders.empty())
        holdersByLock_.emplace(name, std::move(holders));
    if (!waits.empty())
        waitsByLock_.emplace(name, std::move(waits));
}

void WaitForGraph::setLocks(const std::vector<std::string>& names, const LockQueues& locks) {
    for (const std::string& name : names) {
        const auto lock = locks.find(name);
        setLock(name, lock == locks.end() ? nullptr : &*lock->second);
    }
}

void WaitForGraph::apply(const LockChanges& changes, const LockQueues& locks) {
    if (changes.all)
        *this = of(locks);
    else
        setLocks(changes.locks, locks);
}

WaitForGraph WaitForGraph::of(const LockQueues& locks) {
    WaitForGraph graph;
    for (const auto& [name, queue] : locks)
        graph.setLock(name, &*queue);
    return graph;
}

void WaitForGraph::clear() {
    *this = WaitForGraph();
}

void WaitForGraph::add(const Wait& wait) {
    waitsFrom_[wait.waiter].emplace(wait.waitingKey, wait);
    ++waitedOnBy_[wait.on][wait.waiter];
}

void WaitForGraph::remove(const Wait& wait) {
    auto from = waitsFrom_.find(wait.waiter);
    from->second.erase(wait.waitingKey);
    if (from->second.empty())
        waitsFrom_.erase(from);
    auto on = waitedOnBy_.find(wait.on);
    auto by = on->second.find(wait.waiter);
    if (--by->second == 0)
        on->second.erase(by);
    if (on->second.empty())
        waitedOnBy_.erase(on);
}

std::vector<Wait> WaitForGraph::waitsFrom(const SessionId& session) const {
    std::vector<Wait> out;
    if (auto found = waitsFrom_.find(session); found != waitsFrom_.end())
        for (const auto& [key, wait] : found->second)
            out.push_back(wait);
    return out;
}

std::vector<Wait> WaitForGraph::waitsOn(const SessionId& session) const {
    std::vector<Wait> out;
    if (auto found = waitedOnBy_.find(session); found != waitedOnBy_.end())
        for (const auto& [waiter, count] : found->second)
            for (const auto& [key, wait] : waitsFrom_.at(waiter))
                if (wait.on == session)
                    out.push_back(wait);
    return out;
}

std::size_t WaitForGraph::held(const SessionId& session) const {
    auto found = held_.find(session);
    return found == held_.end() ? 0 : found->second;
}

std::vector<SessionId> WaitForGraph::rootsOf(const SessionId& session) const {
    std::set<SessionId> seen{session};
    std::deque<SessionId> next{session};
    std::vector<SessionId> roots;
    while (!next.empty()) {
        const SessionId at = next.front();
        next.pop_front();
        auto from = waitsFrom_.find(at);
        if (from == waitsFrom_.end()) {
            if (at != session)
                roots.push_back(at);
            continue;
        }
        for (const auto& [key, wait] : from->second)
            if (seen.insert(wait.on).second)
                next.push_back(wait.on);
    }
    std::sort(roots.begin(), roots.end());
    return roots;
}

std::vector<Wait> WaitForGraph::waitsBehind(const SessionId& session) const {
    std::vector<Wait> out;
    std::set<SessionId> seen{session};
    std::deque<SessionId> next{session};
    while (!next.empty()) {
        const SessionId at = next.front();
        next.pop_front();
        auto by = waitedOnBy_.find(at);
        if (by == waitedOnBy_.end())
            continue;
        for (const auto& [waiter, count] : by->second) {
            for (const auto& [key, wait] : waitsFrom_.at(waiter))
                if (wait.on == at)
                    out.push_back(wait);
            if (seen.insert(waiter).second)
                next.push_back(waiter);
        }
    }
    return out;
}

std::vector<RootBlocker> WaitForGraph::rootBlockers() const {
    std::vector<RootBlocker> out;
    for (const auto& [session, waiters] : waitedOnBy_) {
        if (waitsFrom_.count(session))
            continue; // it waits itself: not a root
        RootBlocker root{session, held(session), waiters.size(), 0, {}, false};
        const std::vector<Wait> behind = waitsBehind(session);
        std::set<SessionId> blocked;
        for (const Wait& wait : behind) {
            if (blocked.empty() || wait.since < root.oldestWaitSince) {
                root.oldestWaitSince = wait.since;
                root.oldestAtLeast = wait.sinceAtLeast;
            }
            blocked.insert(wait.waiter);
        }
        root.transitive = blocked.size();
        out.push_back(std::move(root));
    }
    std::sort(out.begin(), out.end(), [](const RootBlocker& a, const RootBlocker& b) {
        return std::tie(b.transitive, a.oldestWaitSince, a.session) <
               std::tie(a.transitive, b.oldestWaitSince, b.session);
    });
    return out;
}

namespace {

// The strongly connected groups of more than one session among `nodes` (Tarjan's algorithm,
// without recursion: a wait chain may be long), each sorted.
template <typename Next>
std::vector<std::vector<SessionId>> cyclicGroups(const std::vector<SessionId>& nodes,
                                                 const Next& next) {
    struct Visit {
        std::size_t index, low;
        bool onStack;
    };
    std::map<SessionId, Visit> visits;
    std::vector<SessionId> stack;
    std::vector<std::vector<SessionId>> groups;
    std::size_t counter = 0;
    struct Frame {
        SessionId node;
        std::vector<SessionId> successors;
        std::size_t at = 0;
    };
    for (const SessionId& start : nodes) {
        if (visits.count(start))
            continue;
        std::vector<Frame> frames;
        auto enter = [&](const SessionId& node) {
            visits[node] = {counter, counter, true};
            ++counter;
            stack.push_back(node);
            frames.push_back({node, next(node), 0});
        };
        enter(start);
        while (!frames.empty()) {
            Frame& frame = frames.back();
            if (frame.at < frame.successors.size()) {
                const SessionId successor = frame.successors[frame.at++];
                auto seen = visits.find(successor);
                if (seen == visits.end())
                    enter(successor);
                else if (seen->second.onStack)
                    visits[frame.node].low = std::min(visits[frame.node].low, seen->second.index);
                continue;
            }
            const SessionId node = frame.node;
            frames.pop_back();
            const Visit done = visits[node];
            if (!frames.empty()) {
                Visit& parent = visits[frames.back().node];
                parent.low = std::min(parent.low, done.low);
            }
            if (done.low != done.index)
                continue;
            std::vector<SessionId> group;
            SessionId member;
            do {
                member = stack.back();
                stack.pop_back();
                visits[member].onStack = false;
                group.push_back(member);
            } while (member != node);
            if (group.size() > 1) {
                std::sort(group.begin(), group.end());
                groups.push_back(std::move(group));
            }
        }
    }
    return groups;
}

} // namespace

std::vector<Deadlock> WaitForGraph::deadlocks() const {
    std::vector<SessionId> waiting;
    for (const auto& [session, waits] : waitsFrom_)
        waiting.push_back(session);
    // The sessions a session waits on, among `within` when given.
    auto successors = [this](const SessionId& node, const std::set<SessionId>* within) {
        std::vector<SessionId> out;
        if (auto from = waitsFrom_.find(node); from != waitsFrom_.end())
            for (const auto& [key, wait] : from->second)
                if (!within || within->count(wait.on))
                    out.push_back(wait.on);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    };
    std::vector<Deadlock> out;
    for (auto& group :
         cyclicGroups(waiting, [&](const SessionId& n) { return successors(n, nullptr); })) {
        const std::set<SessionId> members(group.begin(), group.end());
        Deadlock deadlock;
        deadlock.sessions = group;
        for (const SessionId& member : group)
            for (const auto& [key, wait] : waitsFrom_.at(member))
                if (members.count(wait.on))
                    deadlock.waits.push_back(wait);
        // Whose lease to revoke: one that leaves no cycle among the rest, holding the fewest
        // keys; when no one session ends every cycle of the group, the fewest keys still.
        std::vector<SessionId> candidates = group;
        std::stable_sort(
            candidates.begin(), candidates.end(),
            [this](const SessionId& a, const SessionId& b) { return held(a) < held(b); });
        deadlock.breakBy = candidates.front();
        for (const SessionId& candidate : candidates) {
            std::set<SessionId> rest = members;
            rest.erase(candidate);
            const std::vector<SessionId> restNodes(rest.begin(), rest.end());
            if (cyclicGroups(restNodes, [&](const SessionId& n) {
                    return successors(n, &rest);
                }).empty()) {
                deadlock.breakBy = candidate;
                break;
            }
        }
        deadlock.breakLosesHeld = held(deadlock.breakBy);
        out.push_back(std::move(deadlock));
    }
    return out;
}

} // namespace etcd
