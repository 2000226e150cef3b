#include "app/core/hold_spans.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace lockscope {

HoldChange holdChangeOf(const etcd::LockEvent& event) {
    switch (event.kind) {
    case etcd::LockEventKind::Acquired: return HoldChange::Begins;
    case etcd::LockEventKind::Released:
    case etcd::LockEventKind::Cancelled:
    case etcd::LockEventKind::Expired:
    case etcd::LockEventKind::ForceReleased:
        // Only the holder's departure has a hold time: a waiter leaving holds nothing.
        return event.held ? HoldChange::Ends : HoldChange::None;
    case etcd::LockEventKind::Enqueued:
    case etcd::LockEventKind::Proclaimed:
    case etcd::LockEventKind::Lost: return HoldChange::None;
    }
    return HoldChange::None;
}

namespace {

class SpanBuilder {
public:
    SpanBuilder(std::size_t maxLocks, std::size_t maxSpans)
        : maxLocks_(maxLocks)
        , maxSpans_(maxSpans) {}

    void begin(HoldSpan span) {
        if (!laneFor(span.lock))
            return;
        const auto open = open_.find(span.lock);
        if (open != open_.end()) {
            HoldSpan& current = result_.spans[open->second];
            if (current.key == span.key && current.fencingToken == span.fencingToken)
                return;               // the same hold, seen again (a re-read after a gap)
            current.end = span.start; // its end went unseen: the next holder was found
            open_.erase(open);
        }
        if (result_.spans.size() >= maxSpans_) {
            ++result_.spansLeftOut;
            return;
        }
        open_.emplace(span.lock, result_.spans.size());
        result_.spans.push_back(std::move(span));
    }

    void end(const etcd::LockEvent& event) {
        const auto open = open_.find(event.lock);
        if (open == open_.end())
            return;
        HoldSpan& span = result_.spans[open->second];
        span.end = std::max(span.start, event.observedAt);
        span.endedBy = event.kind;
        open_.erase(open);
    }

    HoldSpans take() { return std::move(result_); }

private:
    // Whether `lock` has a lane: those of the first maxLocks locks held do.
    bool laneFor(const std::string& lock) {
        if (lanes_.contains(lock))
            return true;
        if (lanes_.size() < maxLocks_) {
            lanes_.insert(lock);
            return true;
        }
        if (leftOut_.insert(lock).second)
            ++result_.locksLeftOut;
        return false;
    }

    const std::size_t maxLocks_, maxSpans_;
    HoldSpans result_;
    std::unordered_set<std::string> lanes_, leftOut_;
    std::unordered_map<std::string, std::size_t> open_; // lock -> its open span in result_
};

} // namespace

HoldSpans holdSpansOf(const HistoryCheckpoint* start, const std::vector<HistoryEntry>& entries,
                      std::size_t maxLocks, std::size_t maxSpans) {
    SpanBuilder builder(maxLocks, maxSpans);
    if (start)
        for (const HistoryKey& key : start->keys)
            if (key.holds)
                builder.begin({key.lock, key.key, key.lease, key.createRevision, key.recipe,
                               key.acquiredAt.value_or(start->at), std::nullopt, std::nullopt,
                               key.acquiredBeforeSeen || !key.acquiredAt});
    for (const HistoryEntry& entry : entries) {
        const auto* event = std::get_if<etcd::LockEvent>(&entry);
        if (!event)
            continue;
        switch (holdChangeOf(*event)) {
        case HoldChange::Begins:
            // Recovered after a gap: it began somewhere in the gap, unseen.
            builder.begin({event->lock, event->key, event->lease, event->createRevision,
                           event->recipe, event->observedAt, std::nullopt, std::nullopt,
                           event->recovered});
            break;
        case HoldChange::Ends: builder.end(*event); break;
        case HoldChange::None: break;
        }
    }
    return builder.take();
}

} // namespace lockscope
