#include "app/core/hold_spans.h"

#include <algorithm>
#include <unordered_map>

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
        Lane& lane = laneOf(span.lock);
        if (!lane.drawn)
            return;
        if (lane.open) {
            HoldSpan& current = result_.spans[*lane.open];
            if (current.key == span.key && current.fencingToken == span.fencingToken)
                return;               // the same hold, seen again (a re-read after a gap)
            current.end = span.start; // its end went unseen: the next holder was found
            lane.open.reset();
        }
        if (result_.spans.size() >= maxSpans_) {
            if (result_.spansLeftOut++ == 0)
                result_.leftOutFrom = span.start;
            return;
        }
        lane.open = result_.spans.size();
        result_.spans.push_back(std::move(span));
    }

    void end(const etcd::LockEvent& event) {
        const auto lane = lanes_.find(event.lock);
        if (lane == lanes_.end() || !lane->second.open)
            return;
        HoldSpan& span = result_.spans[*lane->second.open];
        span.end = std::max(span.start, event.observedAt);
        span.endedBy = event.kind;
        lane->second.open.reset();
    }

    HoldSpans take() { return std::move(result_); }

private:
    struct Lane {
        bool drawn = false;              // one of the first maxLocks locks held
        std::optional<std::size_t> open; // its hold in result_ not ended yet
    };

    // One look-up an event: 3.6 M events took 0.52 s, 0.79 s with a set of lanes beside a map of
    // open holds.
    Lane& laneOf(const std::string& lock) {
        const auto [lane, added] = lanes_.try_emplace(lock);
        if (added) {
            lane->second.drawn = drawnLanes_ < maxLocks_;
            if (lane->second.drawn)
                ++drawnLanes_;
            else
                ++result_.locksLeftOut;
        }
        return lane->second;
    }

    const std::size_t maxLocks_, maxSpans_;
    HoldSpans result_;
    std::unordered_map<std::string, Lane> lanes_; // every lock held, with a lane or not
    std::size_t drawnLanes_ = 0;
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
