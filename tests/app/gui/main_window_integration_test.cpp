// The main window against real etcd servers, offscreen. Saves a screenshot of each state to
// $LOCKSCOPE_ARTIFACTS_DIR (or the test's build directory).
#include "app/core/endpoint_status_model.h"
#include "app/core/event_log_model.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/sandbox.h"
#include "app/gui/main_window.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "main_window_probes.h"
#include "process/child_process.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/holder_card.h"
#include "widgets/latency_plot.h"

#include <QAbstractProxyModel>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <csignal>
#include <memory>

using namespace lockscope;
using lockscope::test::eventLogHas;
using lockscope::test::labelText;
using lockscope::test::saveScreenshot;
using lockscope::test::statusModel;
using lockscope::test::waitersShown;

namespace {

bool problemShown(MainWindow& window) {
    auto* problems = window.findChild<ProblemList*>();
    return problems && problems->isVisible() && !test::newestProblem(window).isEmpty();
}

// True once the window's only row is a real answer.
bool answered(MainWindow& window) {
    const EndpointStatusModel* model = statusModel(window);
    return model && model->rowCount() == 1 && model->statusAt(0).answered();
}

// The members table and latency graph are on the Cluster tab.
void showClusterTab(MainWindow& window) {
    auto* tabs = window.findChild<QTabWidget*>("mainTabs");
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == "Cluster")
            tabs->setCurrentIndex(i);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Cluster"));
}

} // namespace

class MainWindowIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanup() { etcdctls_.clear(); }

    void cleanupTestCase() { etcd_.stop(); }

    void showsTheClustersRealRevision() {
        etcd::pb::PutRequest put;
        put.set_key("/main-window-test/key");
        put.set_value("v");
        const auto reply = etcd::call(etcd_.client(), &etcd::Client::put, put);
        QVERIFY2(reply, reply.error().message.c_str());
        const QString revision = QString::number(reply->header().revision());

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(answered(window), 10000);
        const EndpointStatusModel* model = statusModel(window);
        QCOMPARE(model->data(model->index(0, EndpointStatusModel::RevisionColumn)).toString(),
                 revision);
        QCOMPARE(model->statusAt(0).endpoint, QString::fromStdString(etcd_.cluster().endpoint(0)));
        QVERIFY(model->statusAt(0).isLeader());
        QTRY_VERIFY_WITH_TIMEOUT(labelText(window, "connectionLabel").contains("Connected"), 10000);
        QVERIFY(window.statusBar()->findChildren<QLabel*>().size() >= 6);
        QVERIFY(!problemShown(window));
        QVERIFY(window.windowTitle().startsWith("LockScope"));

        // A few refreshes so the graph has lines, not dots.
        auto* plot = window.findChild<LatencyPlot*>("latencyPlot");
        QVERIFY(plot);
        QTRY_VERIFY_WITH_TIMEOUT(plot->pointCount("Maintenance.Status") >= 4, 15000);
        QVERIFY(plot->pointCount("Cluster.MemberList") >= 1);
        showClusterTab(window);
        QVERIFY(saveScreenshot(window, "main_window_endpoints.png"));
    }

    // Real `etcdctl lock` processes queue on one lock; the window follows them live.
    void showsALockQueueAndItsHandOver() {
        etcd::ClientOptions options;
        options.endpoints = etcd_.cluster().endpoints();
        MainWindow window;
        window.connectTo(options);
        window.setPrefix("/locks/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QSettings().value("locks/recentPrefixes").toStringList().contains("/locks/"));

        process::ChildProcess* holder = startEtcdctlLock("/locks/demo");
        std::optional<std::string> line;
        QVERIFY(
            QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); }, 15000));
        const std::string holderKey = *line;
        QVERIFY2(holderKey.starts_with("/locks/demo/"), holderKey.c_str());
        std::vector<process::ChildProcess*> waiters;
        for (int i = 1; i <= 3; ++i) {
            waiters.push_back(startEtcdctlLock("/locks/demo"));
            // One at a time, so create order is start order.
            QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/locks/demo"), i, 15000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<QLabel*>("lockWatchStatus")->text().contains("live"), 10000);

        auto* lockTable = window.findChild<QTableView*>("lockTable");
        auto* proxy = qobject_cast<QAbstractProxyModel*>(lockTable->model());
        const LockListModel* locks = window.lockWatch()->locks();
        lockTable->setCurrentIndex(
            proxy->mapFromSource(locks->index(locks->rowOfLock("/locks/demo"), 0)));
        QCOMPARE(window.lockWatch()->selectedLock(), std::string("/locks/demo"));

        const LockQueueModel* queue = window.lockWatch()->queue();
        QCOMPARE(queue->rowCount(), 4);
        QCOMPARE(queue->entryAt(0).key, holderKey);
        for (int row = 1; row < 4; ++row)
            QVERIFY(queue->entryAt(row - 1).createRevision < queue->entryAt(row).createRevision);
        auto* card = window.findChild<HolderCard*>("holderCard");
        QCOMPARE(card->key(), QString::fromStdString(holderKey));
        // Every lease looked up, so the countdown bars are drawn.
        QTRY_VERIFY_WITH_TIMEOUT(
            queue->data(queue->index(3, LockQueueModel::Ttl), TtlGrantedRole).isValid(), 10000);
        QVERIFY(saveScreenshot(window, "main_window_busy_queue.png"));

        holder->signal(SIGINT);
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*waiters[0])).has_value(); },
                                15000));
        const std::string nextKey = *line;
        // etcdctl and the window each learn of the hand-over from a watch of their own.
        QTRY_COMPARE_WITH_TIMEOUT(queue->entryAt(0).key, nextKey, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(card->key(), QString::fromStdString(nextKey), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Acquired, nextKey), 5000);
        QVERIFY(eventLogHas(window, etcd::LockEventKind::Released, holderKey));
        QCOMPARE(waitersShown(window, "/locks/demo"), 2);
        QVERIFY(saveScreenshot(window, "main_window_handed_over.png"));

        QTemporaryDir directory;
        QString error;
        const QString exported = directory.filePath("events.json");
        QVERIFY2(window.exportEventLog(exported, error), qPrintable(error));
        QFile file(exported);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains(QByteArray::fromStdString(nextKey)));
        file.close();
        // With a filter: the events shown, or every one when asked.
        const int all = window.lockWatch()->events()->rowCount();
        window.findChild<QLineEdit*>("eventFilter")->setText(QString::fromStdString(nextKey));
        const auto exportedEvents = [&](LocksPage::EventExport what) {
            QString failed;
            const QString path = directory.filePath("filtered.json");
            if (!window.exportEventLog(path, failed, what))
                return -1;
            QFile written(path);
            return written.open(QIODevice::ReadOnly)
                       ? static_cast<int>(QJsonDocument::fromJson(written.readAll()).array().size())
                       : -1;
        };
        const int shown = window.findChild<QTableView*>("eventTable")->model()->rowCount();
        QVERIFY2(shown > 0 && shown < all, qPrintable(QString("%1 of %2").arg(shown).arg(all)));
        QCOMPARE(exportedEvents(LocksPage::EventExport::Shown), shown);
        QCOMPARE(exportedEvents(LocksPage::EventExport::All), all);
        window.findChild<QLineEdit*>("eventFilter")->clear();

        // Another prefix restarts the watch (once its keys are counted): /locks/demo is not
        // under it.
        window.setPrefix("/elsewhere/");
        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/locks/demo"), -1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), 10000);
        QCOMPARE(window.lockWatch()->locks()->rowCount(), 0);
        QCOMPARE(window.lockWatch()->queue()->rowCount(), 0);
        QCOMPARE(QSettings().value("locks/recentPrefixes").toStringList(),
                 QStringList({"/elsewhere/", "/locks/"}));
    }

    void sandboxRunsAndIsRemovedOnClose() {
        auto window = std::make_unique<MainWindow>();
        window->startSandbox();
        window->show();
        QTRY_VERIFY_WITH_TIMEOUT(answered(*window), 30000);
        QVERIFY2(window->windowTitle().contains("sandbox"), qPrintable(window->windowTitle()));
        QVERIFY(labelText(*window, "endpointLabel").contains("sandbox"));
        auto* sandbox = window->findChild<Sandbox*>();
        QVERIFY(sandbox);
        const QString dataDirectory = sandbox->dataDirectory();
        QVERIFY(!dataDirectory.isEmpty() && QDir(dataDirectory).exists());
        QTRY_VERIFY_WITH_TIMEOUT(
            window->findChild<LatencyPlot*>("latencyPlot")->pointCount("Maintenance.Status") >= 3,
            15000);
        showClusterTab(*window);
        QVERIFY(saveScreenshot(*window, "main_window_sandbox.png"));

        window.reset();
        QVERIFY2(!QDir(dataDirectory).exists(), qPrintable(dataDirectory));
    }

    void sandboxClosedWhileStartingIsStillRemoved() {
        auto window = std::make_unique<MainWindow>();
        window->startSandbox();
        const QString dataDirectory = window->findChild<Sandbox*>()->dataDirectory();
        QVERIFY(QDir(dataDirectory).exists());
        window.reset(); // etcd is still starting: its start-up check now owns it
        QThreadPool::globalInstance()->waitForDone();
        QVERIFY2(!QDir(dataDirectory).exists(), qPrintable(dataDirectory));
    }

    void unreachableClusterIsShown() {
        etcd::ClientOptions options;
        options.endpoints = {"127.0.0.1:1"};
        options.dialTimeout = std::chrono::milliseconds(500);
        MainWindow window;
        window.connectTo(options);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(problemShown(window), 10000);
        QVERIFY(labelText(window, "connectionLabel").contains("Unreachable"));
        QTRY_VERIFY_WITH_TIMEOUT(statusModel(window)->rowCount() == 1, 10000);
        QVERIFY(!statusModel(window)->statusAt(0).error.isEmpty());
        QVERIFY(saveScreenshot(window, "main_window_unreachable.png"));
    }

    void missingEtcdIsShown() {
        MainWindow window;
        window.startSandbox("/nonexistent/etcd");
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(problemShown(window), 10000);
        const QString banner = test::newestProblem(window);
        // What is missing, the command that installs it, and the way round it.
        QVERIFY2(banner.contains("/nonexistent/etcd") &&
                     banner.contains("apt install etcd-server") && banner.contains("--endpoints"),
                 qPrintable(banner));
        QVERIFY(labelText(window, "connectionLabel").contains("Sandbox failed"));
        QVERIFY(saveScreenshot(window, "main_window_no_etcd.png"));
    }

    // Lock names with bytes that are not UTF-8, taken by real `etcdctl lock` processes: the
    // prefix field's escaped form selects the raw-byte prefix and the models tell them apart.
    void showsRawByteLocksApartThroughTheEscapedPrefix() {
        const std::string base = "/raw\xff/n/";
        const std::string bytes = "\xfd\xfe\xff";
        std::vector<std::unique_ptr<process::ChildProcess>> holders;
        std::vector<std::string> keys;
        for (char byte : bytes) {
            holders.push_back(test::etcdctlLock(etcd_.cluster().endpointList(), base + byte));
            const auto key = holders.back()->readLine(std::chrono::seconds(15));
            QVERIFY2(key, "etcdctl did not take a lock of its own byte");
            keys.push_back(*key);
        }

        etcd::ClientOptions options;
        options.endpoints = etcd_.cluster().endpoints();
        MainWindow window;
        window.connectTo(options);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* prefixField = window.findChild<QComboBox*>("prefixBox")->lineEdit();
        const auto typePrefix = [&](const QString& text) {
            prefixField->selectAll();
            QTest::keyClicks(prefixField, text);
            QTest::keyClick(prefixField, Qt::Key_Return);
        };
        typePrefix("/raw\\xff/");
        // Watched once its keys are counted (few, all locks).
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->prefix(), std::string("/raw\xff/"), 10000);
        const LockListModel* locks = window.lockWatch()->locks();
        QTRY_COMPARE_WITH_TIMEOUT(locks->rowCount(), 3, 10000);
        QSet<QString> shown;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const int row = locks->rowOfLock(base + bytes[i]);
            QVERIFY(row >= 0);
            shown << locks->data(locks->index(row, LockListModel::Name)).toString();
        }
        QCOMPARE(shown,
                 (QSet<QString>{"/raw\\xff/n/\\xfd", "/raw\\xff/n/\\xfe", "/raw\\xff/n/\\xff"}));

        auto* lockTable = window.findChild<QTableView*>("lockTable");
        auto* proxy = qobject_cast<QAbstractProxyModel*>(lockTable->model());
        lockTable->setCurrentIndex(
            proxy->mapFromSource(locks->index(locks->rowOfLock(base + "\xfe"), 0)));
        QCOMPARE(window.lockWatch()->selectedLock(), base + "\xfe");
        QCOMPARE(window.lockWatch()->queue()->entryAt(0).key, keys[1]); // the exact bytes
        auto* card = window.findChild<HolderCard*>("holderCard");
        QCOMPARE(card->key(), QString("/raw\\xff/n/\\xfe/") +
                                  QString::fromStdString(keys[1].substr(base.size() + 2)));

        // A waiter on \xff: its event names the lock escaped, not as U+FFFD.
        holders.push_back(test::etcdctlLock(etcd_.cluster().endpointList(), base + "\xff"));
        const EventLogModel* events = window.lockWatch()->events();
        const auto enqueuedRow = [&] {
            for (int row = 0; row < events->rowCount(); ++row)
                if (events->eventAt(row).kind == etcd::LockEventKind::Enqueued &&
                    events->eventAt(row).lock == base + "\xff")
                    return row;
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(enqueuedRow() >= 0, 10000);
        QCOMPARE(events->data(events->index(enqueuedRow(), EventLogModel::Lock)).toString(),
                 QString("/raw\\xff/n/\\xff"));
        const LockQueueModel* queue = window.lockWatch()->queue();
        QTRY_VERIFY_WITH_TIMEOUT(
            queue->data(queue->index(0, LockQueueModel::Ttl), TtlGrantedRole).isValid(), 10000);
        QVERIFY(saveScreenshot(window, "main_window_raw_byte_locks.png"));

        typePrefix("/raw\\\\xff/"); // a literal backslash: another prefix, with no locks
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->prefix(), std::string("/raw\\xff/"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), 10000);
        QCOMPARE(locks->rowCount(), 0);
        typePrefix("/raw\\q/");
        QCOMPARE(window.lockWatch()->prefix(), std::string("/raw\\xff/"));
        QVERIFY2(window.statusBar()->currentMessage().startsWith(
                     "Prefix not changed: bad escape \"\\q\" at byte 5"),
                 qPrintable(window.statusBar()->currentMessage()));
        for (auto& holder : holders)
            holder->signal(SIGINT);
    }

private:
    // `etcdctl lock <name>`, killed after the test.
    process::ChildProcess* startEtcdctlLock(const std::string& name) {
        etcdctls_.push_back(test::etcdctlLock(etcd_.cluster().endpointList(), name));
        return etcdctls_.back().get();
    }

    test::LocalEtcd etcd_;
    std::vector<std::unique_ptr<process::ChildProcess>> etcdctls_;
};

LOCKSCOPE_QTEST_MAIN(MainWindowIntegrationTest)
#include "main_window_integration_test.moc"
