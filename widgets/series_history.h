#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace lockscope {

// The points of one series (time in seconds, value), bounded by count, with min/max summaries
// of aligned runs of points so a view of any span is reduced to one lowest-to-highest span per
// pixel column without visiting every point: a day at 10 Hz is 864,000 points, a replot needs
// ~1,200 spans. Plain C++, no Qt, so it is tested as pure logic.
class SeriesHistory {
public:
    explicit SeriesHistory(std::size_t capacity);

    // Points must come in time order; beyond the capacity the oldest go.
    void append(double time, double value);
    // Drops the points before `time`.
    void removeBefore(double time);

    std::size_t size() const { return times_.size(); }
    bool empty() const { return times_.empty(); }
    double firstTime() const { return times_.front(); }
    double lastTime() const { return times_.back(); }
    // The lowest and highest value of the points in [from, to]; false when there are none.
    bool valueRange(double from, double to, double& low, double& high) const;
    // One point (low == high), or one pixel column's points: the time of its first, its
    // lowest and its highest value.
    struct Span {
        double time;
        double low, high;
    };
    struct View {
        std::vector<Span> spans;
        bool exact; // a span per point, not per column
    };
    // What to draw of [from, to] over `columns` pixel columns: every point in it (and the one
    // on either side, so the line runs to the edges) when there are at most two per column;
    // otherwise a span per column that holds points, and the points on either side. Columns
    // are [k w, (k + 1) w) for whole k, with w = (to - from) / columns, from the one holding
    // `from` to the one holding `to`. Columns that can no longer change are kept for the next
    // call with the same width (so not thread-safe even though const).
    View view(double from, double to, int columns) const;
    // Bytes held, for the figures.
    std::size_t memoryBytes() const;

private:
    struct Extremes {
        float low, high;
    };
    // The points with absolute indices [begin, end) of one column, and their extremes.
    struct ColumnRun {
        uint64_t begin, end;
        Extremes extremes;
    };
    struct ColumnCache {
        double width = 0;
        int64_t first = 0; // the column index of columns.front()
        std::deque<ColumnRun> columns;
    };
    static constexpr int levelCount = 3;
    static constexpr std::size_t runFactor = 16; // level k summarises runs of 16^(k+1) points

    // The first local index in [lo, hi) whose time is at or after `time` (or, with `after`,
    // after it): std::lower_bound (upper_bound) without a binary search over a deque for each
    // of a replot's ~1,200 columns (half of a day's replot went there). Points come at a
    // steady rate, so a guess by interpolation lands near; galloping from it bounds the rest.
    std::size_t search(double time, std::size_t lo, std::size_t hi, bool after = false) const;
    // Column `index` of `width`, searched for from local index `hint` on, or kept from before.
    ColumnRun column(int64_t index, double width, std::size_t hint) const;
    // Extremes of the points with absolute indices [begin, end): whole runs where they fit.
    Extremes extremes(uint64_t begin, uint64_t end) const;
    void trimFront(std::size_t count);

    std::size_t capacity_;
    uint64_t first_ = 0; // absolute index of the oldest point kept
    std::deque<double> times_;
    std::deque<float> values_;
    // levels_[k][r - levelFirst_[k]] summarises the points [r * run(k), (r + 1) * run(k)).
    std::deque<Extremes> levels_[levelCount];
    uint64_t levelFirst_[levelCount] = {};
    mutable ColumnCache columnCache_;
};

} // namespace lockscope
