// The problems area and the window's size, offscreen, against a real etcd: a problem stays
// after later successful status polls until it is dismissed, and neither a 2,000-character
// error nor a geometry saved on a larger screen puts the window past the screen. Saves
// screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/endpoint_status_model.h"
#include "app/core/problem_log_model.h"
#include "app/gui/locks_page.h"
#include "app/gui/main_window.h"
#include "app/gui/prefix_bar.h"
#include "main_window_probes.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/problem_list.h"

#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace lockscope;
using lockscope::test::labelText;
using lockscope::test::problemListed;
using lockscope::test::saveScreenshot;

namespace {

constexpr int UiTimeoutMs = 15000;

const ProblemLogModel* problems(MainWindow& window) {
    return qobject_cast<const ProblemLogModel*>(window.findChild<ProblemList*>()->model());
}

// All of the window, frame included, on its screen's available area.
bool withinScreen(const QWidget& window) {
    return window.screen()->availableGeometry().contains(window.frameGeometry());
}

} // namespace

class ProblemsAreaIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void init() { QSettings().clear(); }

    void cleanupTestCase() { etcd_.stop(); }

    // A problem stays until dismissed: the next successful status poll does not hide it.
    void aProblemStaysAfterSuccessfulPollsUntilDismissed() {
        etcd::ClientOptions nowhere;
        nowhere.endpoints = {"127.0.0.1:1"};
        nowhere.dialTimeout = std::chrono::milliseconds(500);
        MainWindow window;
        window.connectTo(nowhere);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(problems(window)->rowCount() > 0, UiTimeoutMs);
        const ProblemLogModel::Problem first = problems(window)->problemAt(0);
        QCOMPARE(first.kind, ProblemKind::Connection);
        QVERIFY2(first.text.startsWith("Cannot reach the cluster"), qPrintable(first.text));
        // Repeated every poll: one row, counted.
        QTRY_VERIFY_WITH_TIMEOUT(problems(window)->problemAt(0).count >= 2, UiTimeoutMs);
        QCOMPARE(problems(window)->rowCount(), 1);

        window.connectTo(etcd_.cluster().clientOptions());
        QTRY_VERIFY_WITH_TIMEOUT(labelText(window, "connectionLabel").contains("Connected"),
                                 UiTimeoutMs);
        QTest::qWait(3 * MainWindow::RefreshIntervalMs); // more successful polls
        QVERIFY(labelText(window, "connectionLabel").contains("Connected"));
        QCOMPARE(problems(window)->rowCount(), 1);
        auto* list = window.findChild<ProblemList*>();
        QVERIFY(list->isVisible());
        QCOMPARE(problems(window)->problemAt(0).text, first.text);
        QVERIFY(saveScreenshot(window, "problems_area.png"));

        auto* dismiss = list->findChild<QToolButton*>("dismissProblem");
        QVERIFY(dismiss);
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QTRY_COMPARE(problems(window)->rowCount(), 0);
        QTRY_VERIFY(!list->isVisible());
    }

    // An etcd alarm is said: under NOSPACE etcd refuses every write, so no lock changes hands.
    // The alarm is a problem (once, however many polls see it) and the Cluster page's Error.
    void anEtcdAlarmIsAProblemAndOnTheClusterPage() {
        test::LocalEtcd small;
        QVERIFY2(small.start(1, {}, {"--quota-backend-bytes=1048576"}), small.error().c_str());
        QVERIFY(!test::fillUntilRefused(small.client(), "/fill/").ok());
        MainWindow window;
        window.connectTo(small.cluster().clientOptions());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(problemListed(window, "etcd alarm on "), UiTimeoutMs);
        const auto alarm = [&] {
            for (int row = 0; row < problems(window)->rowCount(); ++row)
                if (problems(window)->problemAt(row).text.startsWith("etcd alarm on "))
                    return problems(window)->problemAt(row);
            return ProblemLogModel::Problem{};
        };
        QVERIFY2(alarm().text.contains("NOSPACE on member") &&
                     alarm().text.contains("etcdctl alarm disarm"),
                 qPrintable(alarm().text));
        const auto* table = window.findChild<QTableView*>("endpointStatusTable");
        QVERIFY(table);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()
                                     ->index(0, EndpointStatusModel::ErrorColumn)
                                     .data()
                                     .toString()
                                     .startsWith("NOSPACE on member"),
                                 UiTimeoutMs);
        QTest::qWait(2 * MainWindow::RefreshIntervalMs); // more polls, the alarm still raised
        QCOMPARE(alarm().count, 1);
        QCOMPARE(alarm().kind, ProblemKind::Connection);
    }

    // A long error (a reconnect message of 2000 characters) does not widen the window past the
    // screen.
    void aTwoThousandCharacterErrorKeepsTheWindowWithinTheScreen() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(withinScreen(window));
        QString error = "rpc error: code = Unavailable desc = ";
        while (error.size() < 2000)
            error += "connection_error_while_dialing_127.0.0.1:2379_";
        emit window.findChild<LocksPage*>()->problem(error);
        emit window.findChild<LocksPage*>()->message(error, 0);
        window.findChild<PrefixBar*>()->showLiveness(false, error, true);
        // Two more problems: the area shows a few lines and scrolls the rest.
        emit window.findChild<LocksPage*>()->problem(error + " (again)");
        emit window.findChild<LocksPage*>()->problem("Lost the lock /jobs/nightly: lease revoked");
        QTest::qWait(200); // layouts settle
        QVERIFY2(withinScreen(window),
                 qPrintable(QStringLiteral("window %1 px wide on a %2 px screen")
                                .arg(window.frameGeometry().width())
                                .arg(window.screen()->availableGeometry().width())));
        QVERIFY(window.minimumSizeHint().width() <= window.screen()->availableGeometry().width());
        QCOMPARE(problems(window)->rowCount(), 3);
        // All of it is there for whoever points at it.
        QCOMPARE(problems(window)->index(2, ProblemLogModel::Message).data(Qt::ToolTipRole),
                 QVariant(error));
        QCOMPARE(window.statusBar()->toolTip(), error);
        QVERIFY(window.statusBar()->currentMessage().size() < error.size());
        QVERIFY(saveScreenshot(window, "problems_area_long_error.png"));
    }

    void aGeometrySavedOnALargerScreenIsClampedToThisOne() {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow wide;
            wide.setGeometry(available.x() + 40, available.y() + 40, available.width() + 400,
                             available.height() + 300);
            QSettings().setValue("window/geometry", wide.saveGeometry());
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY2(withinScreen(window), qPrintable(QStringLiteral("restored at %1x%2 on %3x%4")
                                                          .arg(window.frameGeometry().width())
                                                          .arg(window.frameGeometry().height())
                                                          .arg(available.width())
                                                          .arg(available.height())));
    }

private:
    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(ProblemsAreaIntegrationTest)
#include "problems_area_integration_test.moc"
