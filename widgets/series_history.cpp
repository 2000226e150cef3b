#include "widgets/series_history.h"

#include <algorithm>
#include <cmath>

namespace lockscope {

namespace {

constexpr uint64_t runLength(int level) {
    uint64_t run = 16;
    for (int k = 0; k < level; ++k)
        run *= 16;
    return run;
}

// Extremes merged run by run.
struct Merged {
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
    trimFront(search(time, 0, times_.size()));
}

std::size_t SeriesHistory::search(double time, std::size_t lo, std::size_t hi, bool after) const {
    // True while `i` lies left of the answer.
    auto left = [&](std::size_t i) { return after ? times_[i] <= time : times_[i] < time; };
    if (lo >= hi || !left(lo))
        return lo;
    if (left(hi - 1))
        return hi;
    // Now left(lo) and !left(hi - 1), so the times differ and the answer is in (lo, hi - 1].
    const double share = (time - times_[lo]) / (times_[hi - 1] - times_[lo]);
    const auto guess = std::clamp<std::size_t>(
        lo + static_cast<std::size_t>(share * static_cast<double>(hi - 1 - lo)), lo + 1, hi - 1);
    std::size_t below = lo, above = hi - 1; // left(below) and !left(above)
    for (std::size_t step = 1, i = guess;; step *= 2) {
        if (left(i)) {
            below = i;
            if (above - i <= step)
                break;
            i += step;
        } else {
            above = i;
            if (i - below <= step)
                break;
            i -= step;
        }
    }
    while (above - below > 1) {
        const std::size_t middle = below + (above - below) / 2;
        (left(middle) ? below : above) = middle;
    }
    return above;
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
    // A kept column that lost points would show extremes that are gone.
    ColumnCache& cache = columnCache_;
    while (!cache.columns.empty() && cache.columns.front().begin < first_) {
        cache.columns.pop_front();
        ++cache.first;
    }
}

SeriesHistory::Extremes SeriesHistory::extremes(uint64_t begin, uint64_t end) const {
    Merged span;
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
    const std::size_t b = search(from, 0, times_.size());
    const std::size_t e = search(to, b, times_.size(), true);
    if (b == e)
        return false;
    const Extremes found = extremes(first_ + b, first_ + e);
    low = found.low;
    high = found.high;
    return true;
}

SeriesHistory::ColumnRun SeriesHistory::column(int64_t index, double width,
                                               std::size_t hint) const {
    ColumnCache& cache = columnCache_;
    const auto cached = index - cache.first;
    if (cached >= 0 && cached < static_cast<int64_t>(cache.columns.size()))
        return cache.columns[static_cast<std::size_t>(cached)];
    const std::size_t begin = search(static_cast<double>(index) * width, hint, times_.size());
    const std::size_t end = search(static_cast<double>(index + 1) * width, begin, times_.size());
    const ColumnRun made{first_ + begin, first_ + end,
                         begin < end ? extremes(first_ + begin, first_ + end) : Extremes{0, 0}};
    // With a point after it, no point can come into it any more: it is kept, in a run of
    // neighbouring columns, for the next replot.
    const int64_t after = cache.first + static_cast<int64_t>(cache.columns.size());
    if (end < times_.size() && (cache.columns.empty() || index >= cache.first)) {
        if (index > after || cache.columns.empty()) {
            cache.columns.clear(); // the view jumped on: keep a run from here
            cache.first = index;
        }
        cache.columns.push_back(made);
    }
    return made;
}

SeriesHistory::View SeriesHistory::view(double from, double to, int columns) const {
    View shown{{}, true};
    if (times_.empty() || columns <= 0 || !(to > from))
        return shown;
    auto point = [&](std::size_t local) {
        shown.spans.push_back({times_[local], values_[local], values_[local]});
    };
    const std::size_t b = search(from, 0, times_.size());
    const std::size_t e = search(to, b, times_.size(), true);
    if (e - b <= 2 * static_cast<std::size_t>(columns)) {
        for (std::size_t i = b > 0 ? b - 1 : b; i < e; ++i)
            point(i);
        if (e < times_.size())
            point(e);
        return shown;
    }
    shown.exact = false;
    // Columns lie at whole multiples of their width, so a view that moves on by less than a
    // column (a live view, each replot) finds all but its newest columns as they were.
    ColumnCache& cache = columnCache_;
    const double asked = (to - from) / columns;
    if (std::abs(asked - cache.width) > asked * 1e-9) {
        cache.width = asked;
        cache.columns.clear();
    }
    const double width = cache.width;
    const auto firstColumn = static_cast<int64_t>(std::floor(from / width));
    const auto lastColumn = static_cast<int64_t>(std::floor(to / width));
    while (!cache.columns.empty() && cache.first < firstColumn) {
        cache.columns.pop_front();
        ++cache.first;
    }
    shown.spans.reserve(static_cast<std::size_t>(lastColumn - firstColumn) + 3);
    std::size_t next = 0;
    for (int64_t index = firstColumn; index <= lastColumn; ++index) {
        const ColumnRun found = column(index, width, next);
        if (index == firstColumn && found.begin > first_)
            point(found.begin - first_ - 1); // the band runs in from the left edge
        next = found.end - first_;
        if (found.end > found.begin)
            shown.spans.push_back(
                {times_[found.begin - first_], found.extremes.low, found.extremes.high});
    }
    if (next < times_.size())
        point(next); // and out to the right edge
    return shown;
}

std::size_t SeriesHistory::memoryBytes() const {
    std::size_t bytes = times_.size() * sizeof(double) + values_.size() * sizeof(float);
    for (const auto& level : levels_)
        bytes += level.size() * sizeof(Extremes);
    return bytes;
}

} // namespace lockscope
