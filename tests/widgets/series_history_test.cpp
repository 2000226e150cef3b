#include "widgets/series_history.h"

#include <QTest>
#include <algorithm>
#include <random>

using namespace lockscope;

namespace {

// The lowest and highest value of the points in [from, to), by looking at every one.
std::pair<double, double> bruteExtremes(const std::vector<SeriesHistory::Point>& all, double from,
                                        double to) {
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
private slots:
    void aFewPointsComeBackExactly() {
        SeriesHistory history(100);
        for (int i = 0; i < 10; ++i)
            history.append(i, i * 1.5);
        // [2, 6] over 100 columns: the points in it, and one on either side for the edges.
        const auto shown = history.decimated(2, 6, 100);
        QCOMPARE(shown.size(), std::size_t(7));
        for (std::size_t i = 0; i < shown.size(); ++i) {
            QCOMPARE(shown[i].time, double(i + 1));
            QCOMPARE(shown[i].value, (i + 1) * 1.5);
        }
    }

    void manyPointsBecomeEachColumnsLowestAndHighestInTimeOrder() {
        SeriesHistory history(1'000'000);
        std::mt19937 random(7);
        std::uniform_real_distribution<float> value(0, 100);
        std::vector<SeriesHistory::Point> all;
        for (int i = 0; i < 200'000; ++i) { // 10 Hz, 20,000 s
            all.push_back({i * 0.1, value(random)});
            history.append(all.back().time, all.back().value);
        }
        const double from = 1234.56, to = 17654.35;
        const int columns = 300;
        const auto shown = history.decimated(from, to, columns);
        QVERIFY(shown.size() <= 2 * columns + 2);
        QVERIFY(std::is_sorted(shown.begin(), shown.end(),
                               [](const auto& a, const auto& b) { return a.time < b.time; }));
        // Each column holds the true extremes of its points; the first and last shown points
        // are the neighbours outside the span.
        QVERIFY(shown.front().time < from && shown.back().time > to);
        const double width = (to - from) / columns;
        for (int c = 0; c < columns; ++c) {
            const double begin = from + c * width, end = from + (c + 1) * width;
            const auto [low, high] = bruteExtremes(all, begin, end);
            double shownLow = 1e300, shownHigh = -1e300;
            for (const auto& p : shown)
                if (p.time >= begin && p.time < end) {
                    shownLow = std::min(shownLow, p.value);
                    shownHigh = std::max(shownHigh, p.value);
                }
            QCOMPARE(shownLow, low);
            QCOMPARE(shownHigh, high);
        }
        double low = 0, high = 0;
        QVERIFY(history.valueRange(from, to, low, high));
        const auto [bruteLow, bruteHigh] = bruteExtremes(all, from, to + 1e-9);
        QCOMPARE(low, bruteLow);
        QCOMPARE(high, bruteHigh);
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
        const auto shown = history.decimated(4501, 4999, 10);
        QVERIFY(shown.size() <= 20); // nothing kept lies outside it to run the line to
        QVERIFY(shown.front().time >= 4501.0);
        const auto [shownLow, shownHigh] =
            std::minmax_element(shown.begin(), shown.end(),
                                [](const auto& a, const auto& b) { return a.value < b.value; });
        QCOMPARE(shownLow->value, 1000.0 - 4999);
        QCOMPARE(shownHigh->value, 4998.0);
        QVERIFY(!history.valueRange(0, 100, low, high));
    }
};

QTEST_GUILESS_MAIN(SeriesHistoryTest)
#include "series_history_test.moc"
