// The window records what it watches, against a real etcd and real `etcdctl lock` holders: into
// the cluster's SQLite file under a test data folder, read back through LockHistoryStore, a
// source per prefix watched; an outage as a gap; nothing when recording is off, and from the moment
// it is turned on; what is older than the days kept goes as the file opens; a sandbox's file is
// begun again; a history folder that cannot be made is one problem, and the live view goes on.
#include "app/core/cluster_history_file.h"
#include "app/core/lock_history_store.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/core/problem_log_model.h"
#include "app/gui/main_window.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "support/stopped_member.h"
#include "test_settings.h"
#include "widgets/problem_list.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <csignal>

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::test::eventLogHas;
using lockscope::test::saveScreenshot;
using lockscope::test::waitersShown;

namespace {

constexpr int UiTimeoutMs = 15000;

// The events recorded of source `source` in the file at `path` (none while it cannot be read).
std::vector<etcd::LockEvent> recordedEvents(const QString& path, int64_t source) {
    QString problem;
    auto store = LockHistoryStore::openForReading(path, problem, source);
    const auto entries = store ? store->entries({}) : std::nullopt;
    std::vector<etcd::LockEvent> events;
    for (const HistoryEntry& entry : entries.value_or(std::vector<HistoryEntry>{}))
        if (const auto* event = std::get_if<etcd::LockEvent>(&entry))
            events.push_back(*event);
    return events;
}

bool recorded(const QString& path, int64_t source, etcd::LockEventKind kind,
              const std::string& key) {
    const auto events = recordedEvents(path, source);
    return std::any_of(events.begin(), events.end(), [&](const etcd::LockEvent& event) {
        return event.kind == kind && event.key == key;
    });
}

// How many checkpoints the file at `path` holds of its only source (0 while it cannot be read).
std::size_t recordedCheckpoints(const QString& path) {
    QString problem;
    auto store = LockHistoryStore::openForReading(path, problem);
    const auto checkpoints = store ? store->checkpoints() : std::nullopt;
    return checkpoints ? checkpoints->size() : 0;
}

// The problems listed whose text holds `part`, and how many times each was said.
std::vector<int> problemCounts(MainWindow& window, const QString& part) {
    const auto* problems =
        qobject_cast<const ProblemLogModel*>(window.findChild<ProblemList*>()->model());
    std::vector<int> counts;
    for (int row = 0; row < problems->rowCount(); ++row)
        if (problems->problemAt(row).text.contains(part))
            counts.push_back(problems->problemAt(row).count);
    return counts;
}

QString historyFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/history";
}

} // namespace

class DesktopRecordingIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Settings and a data folder of its own: other GUI tests running at once record too.
        useFreshTestSettings("LockScopeRecordingTest");
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void init() {
        QDir(historyFolder()).removeRecursively();
        QFile::remove(historyFolder());
        QSettings settings;
        RecordingSettings{}.write(settings);
    }

    void cleanupTestCase() { etcd_.stop(); }

    // A holder and a waiter by `etcdctl lock`, the handoff between them, and a second prefix:
    // every event in the cluster's file, each prefix a source of its own.
    void whatTheWindowWatchesIsRecordedIntoTheClustersFile() {
        const std::string endpoints = etcd_.cluster().endpointList();
        QString path;
        std::string holderKey, waiterKey, otherKey;
        {
            MainWindow window;
            window.connectTo(etcd_.cluster().clientOptions());
            window.setPrefix("/recorded/");
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            path = window.historyPath();
            QCOMPARE(path, clusterHistoryPath(etcd_.cluster().clientOptions().endpoints));
            QVERIFY2(path.startsWith(historyFolder() + "/"), qPrintable(path));
            QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);

            auto holder = test::etcdctlLock(endpoints, "/recorded/deploy");
            std::optional<std::string> line;
            QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); },
                                    UiTimeoutMs));
            holderKey = *line;
            auto waiter = test::etcdctlLock(endpoints, "/recorded/deploy");
            QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/recorded/deploy"), 1, UiTimeoutMs);
            holder->signal(SIGINT);
            QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*waiter)).has_value(); },
                                    UiTimeoutMs));
            waiterKey = *line;
            waiter->signal(SIGINT);
            QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Released, waiterKey),
                                     UiTimeoutMs);

            // Written while the window watches, not only at its end.
            QTRY_VERIFY_WITH_TIMEOUT(recorded(path, 1, etcd::LockEventKind::Acquired, holderKey),
                                     UiTimeoutMs);
            QTRY_VERIFY_WITH_TIMEOUT(recorded(path, 1, etcd::LockEventKind::Acquired, waiterKey),
                                     UiTimeoutMs);

            window.setPrefix("/recorded-other/");
            QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->prefix() == "/recorded-other/" &&
                                         window.lockWatch()->live(),
                                     UiTimeoutMs);
            auto other = test::etcdctlLock(endpoints, "/recorded-other/job");
            QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*other)).has_value(); },
                                    UiTimeoutMs));
            otherKey = *line;
            QTRY_COMPARE_WITH_TIMEOUT(
                window.lockWatch()->locks()->rowOfLock("/recorded-other/job") >= 0, true,
                UiTimeoutMs);
            QVERIFY(saveScreenshot(window, "desktop_recording.png"));
            other->signal(SIGINT);
            QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Released, otherKey),
                                     UiTimeoutMs);
        } // the window's end commits the rest

        QString problem;
        auto first = LockHistoryStore::openForReading(path, problem, 1);
        QVERIFY2(first, qPrintable(problem));
        QCOMPARE(first->prefix(), std::string("/recorded/"));
        QCOMPARE(first->source().name, clusterName(etcd_.cluster().clientOptions().endpoints));
        const auto checkpoints = first->checkpoints();
        QVERIFY(checkpoints && !checkpoints->empty());
        QCOMPARE(checkpoints->front().reason, std::string("start"));
        std::vector<std::pair<etcd::LockEventKind, std::string>> seen;
        for (const etcd::LockEvent& event : recordedEvents(path, 1))
            seen.emplace_back(event.kind, event.key);
        const std::vector<std::pair<etcd::LockEventKind, std::string>> expected{
            {etcd::LockEventKind::Acquired, holderKey},
            {etcd::LockEventKind::Enqueued, waiterKey},
            {etcd::LockEventKind::Released, holderKey},
            {etcd::LockEventKind::Acquired, waiterKey},
            {etcd::LockEventKind::Released, waiterKey}};
        // In this order, whatever else the monitor made of it.
        auto next = seen.begin();
        for (const auto& event : expected) {
            next = std::find(next, seen.end(), event);
            QVERIFY2(next != seen.end(), etcd::lockEventKindName(event.first));
        }

        auto second = LockHistoryStore::openForReading(path, problem, 2);
        QVERIFY2(second, qPrintable(problem));
        QCOMPARE(second->prefix(), std::string("/recorded-other/"));
        QVERIFY(recorded(path, 2, etcd::LockEventKind::Acquired, otherKey));
        QVERIFY(recorded(path, 2, etcd::LockEventKind::Released, otherKey));
        QVERIFY(!recorded(path, 2, etcd::LockEventKind::Acquired, holderKey));
    }

    // etcd stopped (SIGSTOP) and going on: the outage is recorded as a gap, then the state
    // re-read, as lockscopectl record records one.
    void anOutageIsRecordedAsAGapThenTheStateReRead() {
        auto own = test::startCluster(); // stopping the suite's etcd would stop the other tests
        QVERIFY2(own, own ? "" : own.error().message.c_str());
        MainWindow window;
        window.connectTo((*own)->clientOptions());
        window.setPrefix("/outage/");
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        const QString path = window.historyPath();
        auto holder = test::etcdctlLock((*own)->endpointList(), "/outage/job");
        std::optional<std::string> line;
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); },
                                UiTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(recorded(path, 1, etcd::LockEventKind::Acquired, *line),
                                 UiTimeoutMs);

        {
            const test::StoppedMember stopped(**own, 0);
            QTRY_VERIFY_WITH_TIMEOUT(!window.lockWatch()->live(), UiTimeoutMs);
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        const auto gapRecorded = [&path] {
            QString problem;
            auto store = LockHistoryStore::openForReading(path, problem);
            const auto entries = store ? store->entries({}) : std::nullopt;
            return entries && std::any_of(entries->begin(), entries->end(), [](const auto& entry) {
                       return std::holds_alternative<HistoryGap>(entry);
                   });
        };
        QTRY_VERIFY_WITH_TIMEOUT(gapRecorded(), UiTimeoutMs);
        QString problem;
        auto store = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(store, qPrintable(problem));
        const auto checkpoints = store->checkpoints();
        QVERIFY(checkpoints);
        // Written with the gap, in one batch.
        QVERIFY(std::any_of(
            checkpoints->begin(), checkpoints->end(),
            [](const HistoryCheckpoint& checkpoint) { return checkpoint.reason == "resync"; }));
        holder->signal(SIGINT);
    }

    // Off: no file at all. Turned on while watching: recorded from then, with the state then.
    void recordingOffWritesNothingUntilTurnedOn() {
        MainWindow window;
        window.setRecordingSettings({false, 7, 500});
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/unrecorded/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Live first: a lock taken before the first listing is in it, and no Acquired is shown.
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        auto holder = test::etcdctlLock(etcd_.cluster().endpointList(), "/unrecorded/job");
        std::optional<std::string> line;
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); },
                                UiTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Acquired, *line),
                                 UiTimeoutMs);
        QTest::qWait(1000); // two of the recorder's commits, had it been on
        QVERIFY(!QFileInfo::exists(window.historyPath()));
        QVERIFY(!QFileInfo::exists(historyFolder()));

        window.setRecordingSettings({true, 7, 500});
        // Recorded from the monitor's next word on (its lease lookups come every second): the
        // state then first.
        QTRY_VERIFY_WITH_TIMEOUT(recordedCheckpoints(window.historyPath()) > 0, UiTimeoutMs);
        holder->signal(SIGINT);
        QTRY_VERIFY_WITH_TIMEOUT(
            recorded(window.historyPath(), 1, etcd::LockEventKind::Released, *line), UiTimeoutMs);
        QString problem;
        auto store = LockHistoryStore::openForReading(window.historyPath(), problem);
        QVERIFY2(store, qPrintable(problem));
        const auto checkpoints = store->checkpoints();
        QVERIFY(checkpoints && !checkpoints->empty());
        QCOMPARE(checkpoints->front().reason, std::string("start"));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(1)); // the holder, when turned on
        QCOMPARE(checkpoints->front().keys.front().key, *line);
        // What happened before is not in the file: only what came after.
        QVERIFY(!recorded(window.historyPath(), 1, etcd::LockEventKind::Acquired, *line));
    }

    // Retention runs as the window opens the cluster's file: history older than the days kept
    // goes, from every prefix recorded in it, up to the checkpoint the rest replays from.
    void openingTheClustersFilePrunesWhatIsOlderThanTheDaysKept() {
        const auto endpoints = etcd_.cluster().clientOptions().endpoints;
        const QString path = clusterHistoryPath(endpoints);
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        // In the store's milliseconds.
        const std::chrono::system_clock::time_point now =
            std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
        {
            QString problem;
            auto old =
                LockHistoryStore::openForWriting(path, clusterName(endpoints), "/old/", problem);
            QVERIFY2(old, qPrintable(problem));
            int64_t revision = 1;
            for (const auto age : {20 * 24h, 10 * 24h, 3 * 24h}) {
                QVERIFY(old->write(HistoryCheckpoint{revision, now - age, "periodic", {}}));
                etcd::LockEvent event{};
                event.kind = etcd::LockEventKind::Enqueued;
                event.lock = "/old/job";
                event.key = "/old/job/" + std::to_string(++revision);
                event.revision = revision;
                event.observedAt = now - age + 1h;
                QVERIFY(old->write(event));
            }
            QVERIFY(old->commit());
        }
        QCOMPARE(recordedEvents(path, 1).size(), std::size_t(3));

        MainWindow window;
        window.setRecordingSettings({true, 7, 500});
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/retained/");
        QTRY_COMPARE_WITH_TIMEOUT(recordedEvents(path, 1).size(), std::size_t(2), UiTimeoutMs);
        QString problem;
        auto old = LockHistoryStore::openForReading(path, problem, 1);
        QVERIFY2(old, qPrintable(problem));
        const auto checkpoints = old->checkpoints();
        QVERIFY(checkpoints);
        QCOMPARE(checkpoints->size(), std::size_t(2));
        QVERIFY(checkpoints->front().at == now - 10 * 24h);
        QCOMPARE(recordedEvents(path, 1).front().key, std::string("/old/job/3"));
    }

    // A sandbox is another cluster each time: its recording goes into sandbox.db, begun again.
    void aNewSandboxRecordsIntoItsOwnFileBegunAgain() {
        const QString path = sandboxHistoryPath();
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        {
            QString problem;
            auto last = LockHistoryStore::openForWriting(path, "127.0.0.1:1", "/last/", problem);
            QVERIFY2(last, qPrintable(problem));
            QVERIFY(
                last->write(HistoryCheckpoint{1, std::chrono::system_clock::now(), "start", {}}));
            QVERIFY(last->commit());
        }
        MainWindow window;
        window.setPrefix("/sandboxed/");
        window.startSandbox("etcd");
        QTRY_COMPARE_WITH_TIMEOUT(window.historyPath(), path, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        const auto onlyPrefix = [&path] {
            QString problem;
            auto store = LockHistoryStore::openForReading(path, problem);
            return store ? store->prefix() : std::string();
        };
        QTRY_COMPARE_WITH_TIMEOUT(onlyPrefix(), std::string("/sandboxed/"), UiTimeoutMs);
        QVERIFY(!QFileInfo::exists(clusterHistoryPath(window.workspace()->options().endpoints)));
    }

    // The history folder cannot be made (a file stands in its place; tests run as root, who may
    // write any folder): one problem saying what to do, said once however many prefixes follow,
    // and the locks still shown live.
    void aFolderThatCannotBeWrittenIsOneProblemAndTheViewGoesOn() {
        QDir().mkpath(QFileInfo(historyFolder()).absolutePath());
        QFile blocker(historyFolder());
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/unwritable/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(problemCounts(window, "Not recording").size(), std::size_t(1),
                                  UiTimeoutMs);
        window.setPrefix("/unwritable-too/");
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->prefix() == "/unwritable-too/" &&
                                     window.lockWatch()->live(),
                                 UiTimeoutMs);
        auto holder = test::etcdctlLock(etcd_.cluster().endpointList(), "/unwritable-too/job");
        std::optional<std::string> line;
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); },
                                UiTimeoutMs));
        QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Acquired, *line),
                                 UiTimeoutMs);
        QVERIFY(window.lockWatch()->locks()->rowOfLock("/unwritable-too/job") >= 0);
        QVERIFY(window.lockWatch()->live());
        QCOMPARE(problemCounts(window, "Not recording"), std::vector<int>{1});
        const QString text =
            window.findChild<ProblemList*>()->model()->index(0, 2).data().toString();
        QVERIFY2(text.contains("cannot create the folder") && text.contains("Recording settings"),
                 qPrintable(text));
        QVERIFY(saveScreenshot(window, "desktop_recording_failed.png"));
        holder->signal(SIGINT);
    }

private:
    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(DesktopRecordingIntegrationTest)
#include "desktop_recording_integration_test.moc"
