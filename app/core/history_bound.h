#pragma once

#include <QString>
#include <chrono>
#include <cstdint>
#include <optional>

namespace lockscope {

// One end of a span of a recorded history, as typed after --since or --until: a revision (a
// whole number) or an ISO 8601 time, UTC unless it names its offset. False when `text` is
// neither.
bool readHistoryBound(const QString& text, std::optional<int64_t>& revision,
                      std::optional<std::chrono::system_clock::time_point>& time);

} // namespace lockscope
