#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace lockscope {

// The points of one series (time in seconds, value), bounded by count, with min/max summaries
// of aligned runs of points so a view of any span is reduced to at most two points per pixel
// column without visiting every point: a day at 10 Hz is 864,000 points, a replot needs ~2 per
// column. Plain C++, no Qt, so it is tested as pure logic.
class SeriesHistory {
public:
    struct Point {
        double time;
        double value;
    };

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
    // What to draw of [from, to] over `columns` pixel columns: every point in it (and the one
    // on either side, so the line runs to the edges) when there are at most two per column;
    // otherwise per column its lowest and highest value, both at the column's first point's
    // time, in the order that keeps the line short.
    std::vector<Point> decimated(double from, double to, int columns) const;
    // Bytes held, for the figures.
    std::size_t memoryBytes() const;

private:
    struct Extremes {
        float low, high;
    };
    static constexpr int levelCount = 3;
    static constexpr std::size_t runFactor = 16; // level k summarises runs of 16^(k+1) points

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
};

} // namespace lockscope
