#pragma once

#include "app/core/lock_history.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace lockscope {

// `lockscopectl history FILE --report`: per lock, what its recorded events say: how often it
// was taken, how long it was held and waited for, expiries and losses, and the longest waits
// with the holders they waited behind. Plain computation over entries read from a recording.
//
// Times are the events' own (LockEvent::waited, ::held, measured by the recorder's monitor). A
// wait or hold that began before the recorder saw it (at_least), or that ended in a gap
// (recovered), is only a bound: counted, but left out of the percentiles and the maxima. A gap
// forgets who was holding and waiting, since the events in it are not known; the re-read's
// recovered events start it afresh.
class LockHistoryReport {
public:
    static constexpr std::size_t longestWaitsKept = 3;

    // Nearest-rank percentiles (the smallest value with at least p% of the values at or
    // below it) and the maximum, of the exact times; all zero when there are none.
    struct Spread {
        std::size_t count = 0;
        std::chrono::milliseconds p50{0}, p99{0}, max{0};
    };
    struct Wait {
        std::string key;
        int64_t lease = 0;
        std::chrono::milliseconds waited{0};
        bool atLeast = false;
        int64_t revision = 0; // acquired at
        std::chrono::system_clock::time_point acquiredAt;
        // The keys that held the lock while it waited, first to last (empty when not seen).
        std::vector<std::string> waitedOn;
    };
    struct Lock {
        std::string name;
        etcd::QueueKind recipe = etcd::QueueKind::Mutex; // as its last event left it
        std::size_t acquisitions = 0;
        Spread holds, waits;
        std::size_t bounds = 0; // holds and waits left out: at_least or recovered
        std::size_t expiries = 0, losses = 0, forceReleases = 0;
        std::vector<Wait> longestWaits; // longest first, at most longestWaitsKept
    };

    // A report built entry by entry, as a store reads them (readEntries): a day of a busy
    // prefix is tens of millions of entries, never held at once. Holds each lock's times (for
    // the percentiles) and its longest waits, not its entries.
    class Builder {
    public:
        Builder();
        ~Builder();
        Builder(const Builder&) = delete;
        Builder& operator=(const Builder&) = delete;
        void add(const HistoryEntry& entry);
        LockHistoryReport finish();

    private:
        struct Tallies;
        std::unique_ptr<Tallies> tallies_;
    };

    explicit LockHistoryReport(const std::vector<HistoryEntry>& entries);

    const std::vector<Lock>& locks() const { return locks_; } // by name
    std::size_t gaps() const { return gaps_; }

    static Spread spreadOf(std::vector<std::chrono::milliseconds> times);

private:
    LockHistoryReport() = default;

    std::vector<Lock> locks_;
    std::size_t gaps_ = 0;
};

} // namespace lockscope
