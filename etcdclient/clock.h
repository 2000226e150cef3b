#pragma once

#include <algorithm>
#include <chrono>

namespace etcd {

// `from` + `delay`, saturated at the clock's end: etcd's longest lease TTL (9e9 s) reaches past
// what a nanosecond time point (64 bits, about 292 years) can hold.
template <class TimePoint, class Rep, class Period>
TimePoint saturatingAdd(TimePoint from, std::chrono::duration<Rep, Period> delay) {
    const auto room =
        std::chrono::duration_cast<std::chrono::duration<Rep, Period>>(TimePoint::max() - from);
    return from + std::min(delay, room);
}

// Seconds since the Unix epoch, as charts and timelines plot time.
inline double unixSeconds(std::chrono::system_clock::time_point at) {
    return std::chrono::duration<double>(at.time_since_epoch()).count();
}

// A steady-clock instant (timers, the lab, latency samples) as wall-clock Unix seconds: as far
// before or after the wall clock's now as it is before or after the steady clock's.
inline double unixSeconds(std::chrono::steady_clock::time_point at) {
    return unixSeconds(std::chrono::system_clock::now()) +
           std::chrono::duration<double>(at - std::chrono::steady_clock::now()).count();
}

} // namespace etcd
