// The window cut off from etcd by a black-hole proxy (connections stay open, no byte passes)
// while it holds a lock, with `etcdctl lock` waiting for that lock straight on etcd: within
// about a second of the silence the window can notice, the prefix bar leaves "live" and the TTLs
// say "stale"; our lock shows lost (Session::safeDeadline) before the contender gets it; once
// the proxy passes bytes again the view is live again. Screenshots in English and Chinese go to
// $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/core/problem_log_model.h"
#include "app/core/ui_language.h"
#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "etcdclient/locks/lock_monitor.h"
#include "main_window_probes.h"
#include "support/black_hole_proxy.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/holder_card.h"
#include "widgets/problem_list.h"
#include "widgets/ttl_bar.h"

#include <QRegularExpression>
#include <QTest>
#include <csignal>
#include <filesystem>
#include <fstream>

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int UiTimeoutMs = 20000;
// How long after etcd fell silent the window may still look live: the monitor's staleness
// limit, and a second for its check (every 250 ms), the drain to the GUI thread and the test.
constexpr auto allowed = etcd::LockMonitor::staleAfter + 1s;

long long ms(Clock::duration duration) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

// The lock list's `column` cell of `lock`, as shown.
// The problem listed that stands for `condition` ("outage": the view's; "unanswered": the
// cluster not answering our status), if any.
const ProblemLogModel::Problem* problemFor(MainWindow& window, const QString& condition) {
    auto* list = window.findChild<ProblemList*>();
    const auto* problems = list ? qobject_cast<const ProblemLogModel*>(list->model()) : nullptr;
    for (int row = 0; problems && row < problems->rowCount(); ++row)
        // A condition is its cluster's own: "<view>:<condition>".
        if (problems->problemAt(row).condition.endsWith(':' + condition))
            return &problems->problemAt(row);
    return nullptr;
}

const ProblemLogModel::Problem* outageProblem(MainWindow& window) {
    return problemFor(window, "outage");
}

QString cell(MainWindow& window, const std::string& lock, LockListModel::Column column) {
    const LockListModel* locks = window.lockWatch()->locks();
    const int row = locks->rowOfLock(lock);
    return row < 0 ? QString("(not listed)") : locks->index(row, column).data().toString();
}

} // namespace

class PartitionWindowIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }
    void cleanupTestCase() { etcd_.stop(); }

    // (Runs first: the Chinese row below leaves its translation installed.)
    // etcd stopped outright (SIGSTOP: connections open, nothing answers) says the same, and
    // the status bar stops showing the last answer's figures as current.
    void aStoppedEtcdLeavesLiveWithinASecondAndComesBack() {
        auto own = test::startCluster(); // stopping the suite's etcd would stop the other test
        QVERIFY2(own, own ? "" : own.error().message.c_str());
        MainWindow window;
        window.connectTo((*own)->clientOptions());
        window.setPrefix("/stopped/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        actions->acquire("/stopped/job", 30, false);
        QTRY_VERIFY_WITH_TIMEOUT(cell(window, "/stopped/job", LockListModel::Ttl).endsWith(" s"),
                                 UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(test::labelText(window, "connectionLabel").contains("Connected"),
                                 UiTimeoutMs);
        window.lockWatch()->selectLock("/stopped/job");
        auto* holderCard = window.findChild<HolderCard*>("holderCard");
        QVERIFY(holderCard);
        auto* holderTtl = holderCard->findChild<TtlBar*>();
        QVERIFY(holderTtl);
        QTRY_VERIFY_WITH_TIMEOUT(holderTtl->text().endsWith(" of 30 s"), UiTimeoutMs);

        std::optional<Clock::duration> liveLeft;
        const auto stoppedAt = Clock::now();
        connect(window.lockWatch(), &LockWatch::livenessChanged, this, [&](bool live) {
            if (!live && !liveLeft)
                liveLeft = Clock::now() - stoppedAt;
        });
        const pid_t member = (*own)->pid(0);
        ::kill(member, SIGSTOP);
        QTRY_VERIFY_WITH_TIMEOUT(liveLeft.has_value(), UiTimeoutMs);
        qInfo("live left %lld ms after etcd stopped", ms(*liveLeft));
        QVERIFY2(*liveLeft < allowed, qPrintable(QString("after %1 ms").arg(ms(*liveLeft))));
        QTRY_COMPARE_WITH_TIMEOUT(cell(window, "/stopped/job", LockListModel::Ttl),
                                  QString("stale"), 1000);
        // The holder card says why: etcd is silent, not a look-up that came late.
        QTRY_COMPARE_WITH_TIMEOUT(holderTtl->text(), QString("stale: etcd is not answering"), 1000);
        QVERIFY(test::labelText(window, "connectionLabel").contains("No answer since"));
        QVERIFY(test::saveScreenshot(window, "stopped_etcd_en.png"));
        // The status call gives up at the command timeout: the cluster does not answer.
        QTRY_VERIFY_WITH_TIMEOUT(problemFor(window, "unanswered"), UiTimeoutMs);

        ::kill(member, SIGCONT);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(cell(window, "/stopped/job", LockListModel::Ttl).endsWith(" s"),
                                 UiTimeoutMs);
        QCOMPARE(test::eventCount(window, EventCause::OutageEnded), 1);
        QVERIFY(outageProblem(window) && outageProblem(window)->recovered.isValid());
        QTRY_VERIFY_WITH_TIMEOUT(test::labelText(window, "connectionLabel").contains("Connected"),
                                 UiTimeoutMs);
        QCOMPARE(actions->ownLock("/stopped/job")->state, OwnLock::State::Held);
        // Both problems are over, and say when.
        QTRY_VERIFY_WITH_TIMEOUT(problemFor(window, "unanswered")->recovered.isValid(),
                                 UiTimeoutMs);
        QVERIFY(test::saveScreenshot(window, "stopped_etcd_recovered_en.png"));
    }

    void aBlackHoleLeavesLiveWithinASecondAndLosesOurLockBeforeTheContenderGetsIt_data() {
        QTest::addColumn<QString>("language");
        QTest::newRow("English") << "en";
        QTest::newRow("Chinese") << "zh_CN";
    }
    void aBlackHoleLeavesLiveWithinASecondAndLosesOurLockBeforeTheContenderGetsIt() {
        QFETCH(QString, language);
        installTranslations(*QCoreApplication::instance(), *uiLanguageFromCode(language));
        const std::string name = "/partition-" + language.toStdString() + "/job";
        test::BlackHoleProxy proxy(etcd_.cluster().endpointList());
        QCOMPARE(proxy.error(), std::string());
        etcd::ClientOptions options = etcd_.cluster().clientOptions();
        options.endpoints = {proxy.endpoint()};

        MainWindow window;
        window.connectTo(options);
        window.setPrefix(QString::fromStdString(name.substr(0, name.rfind('/') + 1)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        actions->acquire(QString::fromStdString(name), 4, false);
        QTRY_VERIFY_WITH_TIMEOUT(actions->ownLock(QString::fromStdString(name)) &&
                                     actions->ownLock(QString::fromStdString(name))->state ==
                                         OwnLock::State::Held,
                                 UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);

        // The contender, straight on etcd, writes the wall-clock time it got the lock.
        const std::string stamp = QDir::temp().filePath("partition-contender").toStdString() +
                                  std::to_string(::getpid()) + language.toStdString();
        std::filesystem::remove(stamp);
        auto contender = test::etcdctlLock(etcd_.cluster().endpointList(), name,
                                           {"--", "sh", "-c", "date +%s%N > " + stamp});
        QTRY_COMPARE_WITH_TIMEOUT(test::waitersShown(window, name), 1, UiTimeoutMs);

        // The holder's TTL counts down while etcd answers.
        QTRY_VERIFY_WITH_TIMEOUT(cell(window, name, LockListModel::Ttl).endsWith(" s"),
                                 UiTimeoutMs);
        std::optional<Clock::duration> liveLeft;
        std::optional<std::chrono::system_clock::time_point> lostAt;
        const auto cutAt = Clock::now();
        connect(window.lockWatch(), &LockWatch::livenessChanged, this, [&](bool live) {
            if (!live && !liveLeft)
                liveLeft = Clock::now() - cutAt;
        });
        connect(actions, &LockActions::lost, this,
                [&] { lostAt = std::chrono::system_clock::now(); });
        proxy.setBlackHole(true);

        QTRY_VERIFY_WITH_TIMEOUT(liveLeft.has_value(), UiTimeoutMs);
        qInfo("live left %lld ms after the black hole", ms(*liveLeft));
        QVERIFY2(*liveLeft < allowed, qPrintable(QString("after %1 ms").arg(ms(*liveLeft))));
        QVERIFY(!window.lockWatch()->whyNotLive().isEmpty());
        // On the record from its start: what is shown is as of the last word from etcd.
        QTRY_VERIFY_WITH_TIMEOUT(outageProblem(window), 1000);
        QVERIFY(!outageProblem(window)->recovered.isValid());
        // What is shown is as old as the last word heard: the TTL says so, at once.
        QTRY_COMPARE_WITH_TIMEOUT(cell(window, name, LockListModel::Ttl),
                                  QCoreApplication::translate("LeaseCountdown", "stale"), 1000);
        QVERIFY(test::saveScreenshot(window, "partition_stale_" + language + ".png"));

        // Ours is lost by the safe deadline, before etcd can have handed the lock on.
        QTRY_VERIFY_WITH_TIMEOUT(lostAt.has_value(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            std::filesystem::exists(stamp) && std::filesystem::file_size(stamp) > 0, UiTimeoutMs);
        int64_t contenderNs = 0;
        std::ifstream(stamp) >> contenderNs;
        const auto lead =
            std::chrono::system_clock::time_point(std::chrono::nanoseconds(contenderNs)) - *lostAt;
        qInfo("ours lost %lld ms before the contender got the lock", ms(lead));
        QVERIFY2(lead > 0ms, qPrintable(QString("lost %1 ms after").arg(-ms(lead))));
        QCOMPARE(actions->ownLock(QString::fromStdString(name))->state, OwnLock::State::Lost);

        proxy.setBlackHole(false);
        const QDateTime restoredAt = QDateTime::currentDateTime();
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        // One outage, over: both times and the revision re-read.
        const ProblemLogModel::Problem* outage = outageProblem(window);
        QVERIFY(outage);
        QCOMPARE(outage->count, 1);
        QVERIFY(outage->recovered.isValid());
        QVERIFY(outage->recovered >= restoredAt.addMSecs(-1));
        // And in the event log: a line when it began, one with both times when it ended.
        QCOMPARE(test::eventCount(window, EventCause::OutageBegan), 1);
        QCOMPARE(test::eventCount(window, EventCause::OutageEnded), 1);
        // Our key, found gone by the re-read, may have expired as well as been revoked: no one
        // is named as having taken it.
        QCOMPARE(test::eventCount(window, EventCause::ForceReleased), 0);
        QVERIFY2(outage->recoveredNote.contains(QRegularExpression(
                     QCoreApplication::translate("lockscope::ClusterView",
                                                 "outage from %1 to %2, re-read at revision %3")
                         .arg("[0-9:.]+", "[0-9:.]+", "[0-9]+"))),
                 qPrintable(outage->recoveredNote));
        QVERIFY(test::saveScreenshot(window, "partition_recovered_" + language + ".png"));
        contender->signal(SIGINT);
        contender->wait(10s);
        std::filesystem::remove(stamp);
    }

private:
    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(PartitionWindowIntegrationTest)
#include "partition_window_integration_test.moc"
