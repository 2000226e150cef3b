#include "support/qtest_registry.h"
#include "widgets/series_history.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <random>

using namespace lockscope;

namespace {

struct Point {
    double time;
    double value;
};

// The lowest and highest value of the points in [from, to), by looking at every one.
std::pair<double, double> bruteExtremes(const std::vector<Point>& all, double from, double to) {
    double low = 1e300, high = -1e300;
    for (const auto& p : all)
        if (p.time >= from && p.time < to) {
            low = std::min(low, p.value);
            high = std::max(high, p.value);
        }
    return {low, high};
}

} // namespace

class SeriesHistoryTest : public QObject {
    Q_OBJECT

    // Each column that [from, to] touches (whole multiples of the width) is one span with the
    // true extremes of its points, in time order; the first and last spans are the points
    // next to those columns, where there are.
    static void checkColumns(const SeriesHistory& history, const std::vector<Point>& all,
                             double from, double to, int columns) {
        const auto [shown, exact] = history.view(from, to, columns);
        const auto inSpan = std::count_if(
            all.begin(), all.end(), [&](const auto& p) { return p.time >= from && p.time <= to; });
        QCOMPARE(exact, inSpan <= 2 * columns);
        if (exact) {
            QVERIFY(std::size_t(inSpan) <= shown.size() && shown.size() <= std::size_t(inSpan) + 2);
            return;
        }
        QVERIFY(shown.size() <= std::size_t(columns) + 4);
        QVERIFY(std::is_sorted(shown.begin(), shown.end(),
                               [](const auto& a, const auto& b) { return a.time < b.time; }));
        const double width = (to - from) / columns;
        const double firstStart = std::floor(from / width) * width;
        const double lastEnd = (std::floor(to / width) + 1) * width;
        QCOMPARE(shown.front().time < firstStart, all.front().time < firstStart);
        QCOMPARE(shown.back().time >= lastEnd, all.back().time >= lastEnd);
        for (double begin = firstStart; begin < lastEnd - width / 2; begin += width) {
            const double end = begin + width;
            const auto [low, high] = bruteExtremes(all, begin, end);
            const auto inColumn = std::count_if(shown.begin(), shown.end(), [&](const auto& s) {
                return s.time >= begin && s.time < end;
            });
            QCOMPARE(inColumn, low <= high ? 1 : 0);
            for (const auto& span : shown)
                if (span.time >= begin && span.time < end) {
                    QCOMPARE(span.low, low);
                    QCOMPARE(span.high, high);
                }
        }
        double low = 0, high = 0;
        QVERIFY(history.valueRange(from, to, low, high));
        const auto [bruteLow, bruteHigh] = bruteExtremes(all, from, std::nextafter(to, 1e300));
        QCOMPARE(low, bruteLow);
        QCOMPARE(high, bruteHigh);
    }

    static bool sameView(const SeriesHistory::View& a, const SeriesHistory::View& b) {
        return a.exact == b.exact && std::equal(a.spans.begin(), a.spans.end(), b.spans.begin(),
                                                b.spans.end(), [](const auto& x, const auto& y) {
                                                    return x.time == y.time && x.low == y.low &&
                                                           x.high == y.high;
                                                });
    }

private slots:
    void aFewPointsComeBackExactly() {
        SeriesHistory history(100);
        for (int i = 0; i < 10; ++i)
            history.append(i, i * 1.5);
        // [2, 6] over 100 columns: the points in it, and one on either side for the edges.
        const auto [shown, exact] = history.view(2, 6, 100);
        QVERIFY(exact);
        QCOMPARE(shown.size(), std::size_t(7));
        for (std::size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].time, double(i + 1));
            QCOMPARE(shown[i].low, (i + 1) * 1.5);
            QCOMPARE(shown[i].high, (i + 1) * 1.5);
        }
    }

    void manyPointsBecomeEachColumnsLowestAndHighestInTimeOrder() {
        SeriesHistory history(1'000'000);
        std::mt19937 random(7);
        std::uniform_real_distribution<float> value(0, 100);
        std::vector<Point> all;
        for (int i = 0; i < 200'000; ++i) { // 10 Hz, 20,000 s
            all.push_back({i * 0.1, value(random)});
            history.append(all.back().time, all.back().value);
        }
        checkColumns(history, all, 1234.56, 17654.35, 300);
    }

    // Points that come in bursts (equal times), with long gaps and uneven steps: the search
    // that guesses by interpolation must still find each column's points exactly. Values rise
    // with each point, so a column's extremes are its first and last point: one point put in
    // the wrong column changes them.
    void unevenTimesAreFoundExactly() {
        SeriesHistory history(1'000'000);
        std::mt19937 random(11);
        std::uniform_int_distribution<int> burst(1, 40), gapKind(0, 20);
        std::exponential_distribution<double> step(5.0);
        std::vector<Point> all;
        double time = 0;
        while (all.size() < 100'000) {
            for (int n = burst(random); n > 0; --n) {
                all.push_back({time, static_cast<double>(all.size())});
                history.append(time, all.back().value);
            }
            time += gapKind(random) == 0 ? 500 + step(random) * 1000 : step(random);
        }
        std::uniform_real_distribution<double> at(-10, time + 10);
        for (int round = 0; round < 20; ++round) {
            const double a = at(random), b = at(random); // minmax of temporaries would dangle
            checkColumns(history, all, std::min(a, b), std::max(a, b) + 1, 50 + round * 37);
        }
    }

    // A live view: points come, the oldest go past the capacity, and the view moves on a
    // little each replot. Columns kept from earlier calls must show what a history that never
    // drew before shows.
    void aMovingViewShowsWhatAFreshOneShows() {
        constexpr std::size_t capacity = 50'000;
        SeriesHistory live(capacity);
        std::vector<Point> all;
        std::mt19937 random(3);
        std::uniform_real_distribution<float> value(0, 100);
        auto add = [&](int count) {
            for (int i = 0; i < count; ++i) {
                all.push_back({all.size() * 0.1, value(random)});
                live.append(all.back().time, all.back().value);
            }
        };
        auto fresh = [&] {
            SeriesHistory history(capacity);
            for (const auto& p : all)
                history.append(p.time, p.value);
            return history;
        };
        add(60'000);
        for (int replot = 0; replot < 30; ++replot) {
            add(replot % 3 == 0 ? 7 : 1); // sometimes several points between replots
            const double to = all.back().time + 0.5, from = to - 4000 - (replot == 20 ? 500 : 0);
            QVERIFY(sameView(live.view(from, to, 400), fresh().view(from, to, 400)));
        }
        live.removeBefore(all.back().time - 3000); // the view now reaches before what is kept
        const double to = all.back().time + 0.5, from = to - 4000;
        auto trimmed = fresh();
        trimmed.removeBefore(all.back().time - 3000);
        QVERIFY(sameView(live.view(from, to, 400), trimmed.view(from, to, 400)));
    }

    void theOldestGoBeyondTheCapacityAndBeforeATime() {
        SeriesHistory history(1000);
        for (int i = 0; i < 5000; ++i)
            history.append(i, i % 2 ? 1000.0 - i : i); // extremes near the old end too
        QCOMPARE(history.size(), std::size_t(1000));
        QCOMPARE(history.firstTime(), 4000.0);
        // Runs that lost some of their points never lend their old extremes to what is shown.
        double low = 0, high = 0;
        QVERIFY(history.valueRange(0, 1e9, low, high));
        QCOMPARE(low, 1000.0 - 4999);
        QCOMPARE(high, 4998.0);
        history.removeBefore(4500.5);
        QCOMPARE(history.size(), std::size_t(499));
        QVERIFY(history.valueRange(0, 1e9, low, high));
        QCOMPARE(low, 1000.0 - 4999);
        QCOMPARE(high, 4998.0);
        const auto [shown, exact] = history.view(4501, 4999, 10);
        QVERIFY(!exact);
        // 11 columns of 49.8 s from 4482: nothing kept lies outside them to run the band to.
        QVERIFY(shown.size() <= 11);
        QVERIFY(shown.front().time >= 4501.0);
        double shownLow = 1e300, shownHigh = -1e300;
        for (const auto& span : shown) {
            shownLow = std::min(shownLow, span.low);
            shownHigh = std::max(shownHigh, span.high);
        }
        QCOMPARE(shownLow, 1000.0 - 4999);
        QCOMPARE(shownHigh, 4998.0);
        QVERIFY(!history.valueRange(0, 100, low, high));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(SeriesHistoryTest)
#include "series_history_test.moc"
