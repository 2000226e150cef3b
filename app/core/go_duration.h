#pragma once

#include <QString>
#include <chrono>
#include <optional>

namespace lockscope {

// Reads a duration the way etcdctl (Go's time.ParseDuration) does: one or more numbers, each
// with a unit of ns, us, µs, ms, s, m or h, e.g. "2s", "500ms", "1m30s", "1.5s". Rounded up to
// whole milliseconds. std::nullopt for anything else, including a bare number without a unit.
std::optional<std::chrono::milliseconds> parseGoDuration(const QString& text);

} // namespace lockscope
