// The file that keeps what this machine saw of a cluster's key times between runs: written and
// read back whole, one per cluster whatever the endpoints' order, and nothing from a damaged,
// foreign or missing file.
#include "app/core/seen_times_file.h"
#include "support/qtest_registry.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;

class SeenTimesFileTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void timesAreReadBackAsWritten() {
        using namespace std::chrono;
        const system_clock::time_point at(milliseconds(1'764'210'000'123));
        etcd::SeenTimesByKey times;
        times["/l/a"] = {11, at, at + seconds(2), false, false};
        times[std::string("/l/\x00\xff", 5)] = {12, at, std::nullopt, true, false};
        times["/l/c"] = {13, at, at, true, true};
        QTemporaryDir dir;
        const QString path = dir.filePath("times.dat");
        QVERIFY(writeSeenTimes(path, times));
        const etcd::SeenTimesByKey read = readSeenTimes(path);
        QCOMPARE(read.size(), times.size());
        for (const auto& [key, seen] : times) {
            const auto found = read.find(key);
            QVERIFY(found != read.end());
            QCOMPARE(found->second.createRevision, seen.createRevision);
            QVERIFY(found->second.enqueuedAt == seen.enqueuedAt);
            QVERIFY(found->second.acquiredAt == seen.acquiredAt);
            QCOMPARE(found->second.enqueuedBeforeSeen, seen.enqueuedBeforeSeen);
            QCOMPARE(found->second.acquiredBeforeSeen, seen.acquiredBeforeSeen);
        }
    }

    void aDamagedForeignOrMissingFileGivesNothing() {
        etcd::SeenTimesByKey times;
        times["/l/a"] = {11, {}, std::nullopt, false, false};
        QTemporaryDir dir;
        const QString path = dir.filePath("times.dat");
        QVERIFY(writeSeenTimes(path, times));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(file.size() - 3)); // cut short
        file.close();
        QVERIFY(readSeenTimes(path).empty());
        QFile foreign(dir.filePath("foreign.dat"));
        QVERIFY(foreign.open(QIODevice::WriteOnly));
        foreign.write("not a LockScope file at all");
        foreign.close();
        QVERIFY(readSeenTimes(foreign.fileName()).empty());
        QVERIFY(readSeenTimes(dir.filePath("missing.dat")).empty());
    }

    void oneFilePerClusterWhateverTheEndpointsOrder() {
        QCOMPARE(seenTimesPath({"10.0.0.1:2379", "10.0.0.2:2379"}),
                 seenTimesPath({"10.0.0.2:2379", "10.0.0.1:2379"}));
        QVERIFY(seenTimesPath({"10.0.0.1:2379"}) != seenTimesPath({"10.0.0.3:2379"}));
        QVERIFY(seenTimesPath({"10.0.0.1:2379"})
                    .startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(SeenTimesFileTest)
#include "seen_times_file_test.moc"
