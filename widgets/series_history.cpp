#include "widgets/series_history.h"

#include <algorithm>

namespace lockscope {

namespace {

constexpr uint64_t runLength(int level) {
    uint64_t run = 16;
    for (int k = 0; k < level; ++k)
        run *= 16;
    return run;
}

// Extremes merged run by run.
struct Span {
    float low = 0, high = 0;
    bool any = false;

    void merge(float lowValue, float highValue) {
        low = any ? std::min(low, lowValue) : lowValue;
        high = any ? std::max(high, highValue) : highValue;
        any = true;
    }
};

} // namespace

SeriesHistory::SeriesHistory(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 1)) {}

void SeriesHistory::append(double time, double value) {
    const uint64_t index = first_ + times_.size();
    times_.push_back(time);
    values_.push_back(static_cast<float>(value));
    const float stored = values_.back();
    for (int k = 0; k < levelCount; ++k) {
        auto& level = levels_[k];
        const uint64_t run = index / runLength(k);
        if (level.empty())
            levelFirst_[k] = run;
        if (level.empty() || levelFirst_[k] + level.size() - 1 < run) {
            level.push_back({stored, stored});
            continue;
        }
        Extremes& last = level.back();
        last.low = std::min(last.low, stored);
        last.high = std::max(last.high, stored);
    }
    if (times_.size() > capacity_)
        trimFront(times_.size() - capacity_);
}

void SeriesHistory::removeBefore(double time) {
    const auto end = std::lower_bound(times_.begin(), times_.end(), time);
    trimFront(static_cast<std::size_t>(end - times_.begin()));
}

void SeriesHistory::trimFront(std::size_t count) {
    if (count == 0)
        return;
    times_.erase(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(count));
    values_.erase(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(count));
    first_ += count;
    // A run that lost only some of its points stays: extremes() uses a run only when all of it
    // lies inside the asked span, which never reaches before first_.
    for (int k = 0; k < levelCount; ++k) {
        auto& level = levels_[k];
        while (!level.empty() && (levelFirst_[k] + 1) * runLength(k) <= first_) {
            level.pop_front();
            ++levelFirst_[k];
        }
    }
}

SeriesHistory::Extremes SeriesHistory::extremes(uint64_t begin, uint64_t end) const {
    Span span;
    uint64_t i = begin;
    while (i < end) {
        int k = levelCount - 1;
        for (; k >= 0; --k) {
            const uint64_t run = runLength(k);
            if (i % run == 0 && i + run <= end)
                break;
        }
        if (k < 0) {
            const float v = values_[i - first_];
            span.merge(v, v);
            ++i;
            continue;
        }
        const uint64_t run = runLength(k);
        const Extremes& e = levels_[k][i / run - levelFirst_[k]];
        span.merge(e.low, e.high);
        i += run;
    }
    return {span.low, span.high};
}

bool SeriesHistory::valueRange(double from, double to, double& low, double& high) const {
    const auto b = std::lower_bound(times_.begin(), times_.end(), from);
    const auto e = std::upper_bound(b, times_.end(), to);
    if (b == e)
        return false;
    const uint64_t begin = first_ + static_cast<uint64_t>(b - times_.begin());
    const Extremes found = extremes(begin, first_ + static_cast<uint64_t>(e - times_.begin()));
    low = found.low;
    high = found.high;
    return true;
}

std::vector<SeriesHistory::Point> SeriesHistory::decimated(double from, double to,
                                                           int columns) const {
    std::vector<Point> out;
    if (times_.empty() || columns <= 0 || !(to > from))
        return out;
    const auto b = static_cast<std::size_t>(std::lower_bound(times_.begin(), times_.end(), from) -
                                            times_.begin());
    const auto e = static_cast<std::size_t>(
        std::upper_bound(times_.begin() + static_cast<std::ptrdiff_t>(b), times_.end(), to) -
        times_.begin());
    auto emit = [&](std::size_t local) { out.push_back({times_[local], values_[local]}); };
    if (b > 0)
        emit(b - 1); // the line runs in from the left edge
    if (e - b <= 2 * static_cast<std::size_t>(columns)) {
        for (std::size_t i = b; i < e; ++i)
            emit(i);
    } else {
        out.reserve(2 * static_cast<std::size_t>(columns) + 2);
        const double width = (to - from) / columns;
        std::size_t begin = b;
        for (int c = 0; c < columns && begin < e; ++c) {
            const double columnEnd = from + (c + 1) * width;
            const std::size_t end =
                c == columns - 1
                    ? e
                    : static_cast<std::size_t>(
                          std::lower_bound(times_.begin() + static_cast<std::ptrdiff_t>(begin),
                                           times_.begin() + static_cast<std::ptrdiff_t>(e),
                                           columnEnd) -
                          times_.begin());
            if (end == begin)
                continue;
            // Both at the column's first point, lowest or highest first, whichever is nearer
            // where the line stands: one vertical stroke a column, not a zigzag through it
            // (half the pixels to fill).
            const Extremes found = extremes(first_ + begin, first_ + end);
            const double at = times_[begin];
            const bool highFirst =
                !out.empty() && out.back().value - found.low > found.high - out.back().value;
            out.push_back({at, highFirst ? found.high : found.low});
            if (found.low != found.high)
                out.push_back({at, highFirst ? found.low : found.high});
            begin = end;
        }
    }
    if (e < times_.size())
        emit(e); // and out to the right edge
    return out;
}

std::size_t SeriesHistory::memoryBytes() const {
    std::size_t bytes = times_.size() * sizeof(double) + values_.size() * sizeof(float);
    for (const auto& level : levels_)
        bytes += level.size() * sizeof(Extremes);
    return bytes;
}

} // namespace lockscope
