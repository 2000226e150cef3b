#include "support/qtest_registry.h"
#include "widgets/two_generation_cache.h"

#include <QString>
#include <QTest>

using namespace lockscope;

class TwoGenerationCacheTest : public QObject {
    Q_OBJECT

    // Gets `key` from `cache`; counts in `made` whether it had to be made.
    static QString get(TwoGenerationCache<int, QString>& cache, int key, int& made) {
        return cache.get(key, [&] {
            ++made;
            return QString::number(key);
        });
    }

private slots:
    void aValueIsMadeOnce() {
        TwoGenerationCache<int, QString> cache(4);
        int made = 0;
        QCOMPARE(get(cache, 7, made), QString("7"));
        QCOMPARE(get(cache, 7, made), QString("7"));
        QCOMPARE(made, 1);
    }

    // The property that keeps frames even: a full generation is not emptied, so what was
    // used just before the turnover is still there after it.
    void aFullGenerationIsKeptAsThePreviousOne() {
        TwoGenerationCache<int, QString> cache(4);
        int made = 0;
        for (int key = 0; key < 5; ++key) // 0-3 fill a generation, 4 starts the next
            get(cache, key, made);
        QCOMPARE(made, 5);
        for (int key = 0; key < 5; ++key)
            QCOMPARE(get(cache, key, made), QString::number(key));
        QCOMPARE(made, 5);
    }

    void whatGoesUnusedForAGenerationIsForgotten() {
        TwoGenerationCache<int, QString> cache(4);
        int made = 0;
        for (int key = 0; key < 4; ++key)
            get(cache, key, made);
        get(cache, 4, made); // previous: 0-3; current: 4
        get(cache, 0, made); // moves 0 into the current generation
        get(cache, 5, made);
        get(cache, 6, made); // current full: 4, 0, 5, 6
        get(cache, 7, made); // previous: 4, 0, 5, 6; 1-3 gone
        QCOMPARE(made, 8);
        get(cache, 0, made);
        QCOMPARE(made, 8);
        get(cache, 1, made);
        QCOMPARE(made, 9);
    }

    // Texts that change slowly (a new holder now and then) fill no generation for a long time:
    // the age turns it over instead, so what is kept is what was used lately.
    void anAgedGenerationTurnsOverBeforeItIsFull() {
        TwoGenerationCache<int, QString> cache(100, std::chrono::seconds(0));
        int made = 0;
        get(cache, 0, made);
        get(cache, 1, made); // previous: 0; current: 1
        get(cache, 2, made); // previous: 1; 0 gone
        QCOMPARE(cache.size(), 2);
        get(cache, 1, made);
        QCOMPARE(made, 3);
        get(cache, 0, made);
        QCOMPARE(made, 4);
    }

    void keepsAtMostTwoGenerations() {
        TwoGenerationCache<int, QString> cache(4);
        int made = 0;
        for (int key = 0; key < 100; ++key) {
            get(cache, key, made);
            QVERIFY(cache.size() <= 8);
        }
        QCOMPARE(cache.size(), 4 + 4);
        cache.clear();
        QCOMPARE(cache.size(), 0);
        get(cache, 99, made);
        QCOMPARE(made, 101);
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(TwoGenerationCacheTest)
#include "two_generation_cache_test.moc"
