#include "app/core/recording_settings.h"

#include <algorithm>

namespace lockscope {

RecordingSettings RecordingSettings::read(const QSettings& settings) {
    const RecordingSettings defaults;
    RecordingSettings read;
    read.on = settings.value("recording/on", defaults.on).toBool();
    read.keepDays =
        std::clamp(settings.value("recording/keepDays", defaults.keepDays).toInt(), 1, MaxDays);
    read.maxMegabytes = std::clamp(
        settings.value("recording/maxMegabytes", defaults.maxMegabytes).toInt(), 1, MaxMegabytes);
    return read;
}

void RecordingSettings::write(QSettings& settings) const {
    settings.setValue("recording/on", on);
    settings.setValue("recording/keepDays", keepDays);
    settings.setValue("recording/maxMegabytes", maxMegabytes);
}

std::chrono::system_clock::time_point
RecordingSettings::keepSince(std::chrono::system_clock::time_point now) const {
    return now - std::chrono::hours(24) * keepDays;
}

int64_t RecordingSettings::maxBytes() const {
    return int64_t(maxMegabytes) * 1024 * 1024;
}

} // namespace lockscope
