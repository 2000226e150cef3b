#include "etcdclient/locks/lock_stats.h"

#include <algorithm>

namespace etcd {

namespace {

double ms(std::chrono::milliseconds d) {
    return static_cast<double>(d.count());
}

} // namespace

LockStats computeLockStats(const std::vector<LockEvent>& history, std::chrono::seconds window,
                           std::chrono::system_clock::time_point now) {
    LockStats stats;
    std::vector<double> waits, holds, handoffs;
    std::map<std::string, std::chrono::system_clock::time_point> holderGoneAt;
    const auto from = now - window;
    for (const auto& e : history) {
        if (e.observedAt <= from || e.observedAt > now)
            continue;
        switch (e.kind) {
        case LockEventKind::Acquired:
            ++stats.acquisitions;
            if (!e.recovered && !e.atLeast && e.waited) // exact durations only
                waits.push_back(ms(*e.waited));
            if (auto gone = holderGoneAt.find(e.lock); gone != holderGoneAt.end()) {
                if (!e.recovered)
                    handoffs.push_back(ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                        e.observedAt - gone->second)));
                holderGoneAt.erase(gone);
            }
            break;
        case LockEventKind::Expired: ++stats.expiries; [[fallthrough]];
        case LockEventKind::Released:
        case LockEventKind::ForceReleased:
        case LockEventKind::Cancelled:
            if (e.held) { // only a holder has a hold time
                if (!e.recovered && !e.atLeast)
                    holds.push_back(ms(*e.held));
                holderGoneAt[e.lock] = e.observedAt;
            }
            break;
        case LockEventKind::Enqueued:
        case LockEventKind::Proclaimed:
        case LockEventKind::Lost: break; // ours; the watch reports the key's deletion
        }
    }
    stats.acquisitionsPerSecond =
        static_cast<double>(stats.acquisitions) / static_cast<double>(window.count());
    stats.wait = summarizeMs(std::move(waits));
    stats.hold = summarizeMs(std::move(holds));
    stats.handoff = summarizeMs(std::move(handoffs));
    return stats;
}

} // namespace etcd
