#pragma once

#include <QSettings>
#include <chrono>
#include <cstdint>

namespace lockscope {

// What the desktop records of what it watches (WatchRecording), kept in QSettings: whether it
// records at all, and how much history each cluster's file keeps, in days and in megabytes.
struct RecordingSettings {
    bool on = true;
    int keepDays = 7;
    int maxMegabytes = 500;

    static constexpr int MaxDays = 3650;
    static constexpr int MaxMegabytes = 1'000'000;

    // The defaults above for what was never saved; out-of-range values brought in range.
    static RecordingSettings read(const QSettings& settings);
    void write(QSettings& settings) const;

    // The store's limits (LockHistoryStore::prune), as of `now`.
    std::chrono::system_clock::time_point
    keepSince(std::chrono::system_clock::time_point now) const;
    int64_t maxBytes() const;

    bool operator==(const RecordingSettings&) const = default;
};

} // namespace lockscope
