// The Timeline page against a real etcd: a hold already in progress when the watch began gets
// a lane marked as such, live holds tell who held what, the graphs share one time axis, and a
// screenshot of the page with the lab's contention.
#include "app/core/workspace.h"
#include "app/gui/timeline_page.h"
#include "app/lab/lab_options.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "main_window_probes.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/holder_timeline.h"

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QHelpEvent>
#include <QSettings>
#include <QTabWidget>
#include <QToolTip>
#include <qcustomplot.h>

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int UiTimeoutMs = 15000;

double nowSeconds() {
    return QDateTime::currentMSecsSinceEpoch() / 1000.0;
}

QCPRange timeRangeOf(QWidget* plot) {
    return plot->findChild<QCustomPlot*>()->xAxis->range();
}

// A moment just inside the right edge of what the graph shows (the present, as of its last
// redraw): on the bar of every hold still open.
double latestShown(QWidget* plot) {
    return timeRangeOf(plot).upper - 0.05;
}

// Where a graph's plotted area begins, in the window.
int plottedLeftEdge(QWidget* plot) {
    auto* custom = plot->findChild<QCustomPlot*>();
    return custom->mapTo(plot->window(), QPoint(custom->axisRect()->left(), 0)).x();
}

} // namespace

class TimelinePageIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    void aHoldFromTheInitialLoadHasALaneMarkedInProgress() {
        // A lock held before LockScope looks: a key named after its lease, on that lease.
        etcd::pb::LeaseGrantRequest grant;
        grant.set_ttl(120);
        const auto lease = etcd::call(etcd_.client(), &etcd::Client::leaseGrant, grant);
        QVERIFY2(lease, lease.error().message.c_str());
        const std::string key = "/timeline-test/early/" + etcd::leaseHex(lease->id());
        etcd::pb::PutRequest put;
        put.set_key(key);
        put.set_lease(lease->id());
        const auto written = etcd::call(etcd_.client(), &etcd::Client::put, put);
        QVERIFY2(written, written.error().message.c_str());
        QTest::qWait(1200); // so "at least" counts from when LockScope saw it, not from the put

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/timeline-test/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* page = window.findChild<TimelinePage*>("lockCharts");
        window.findChild<QTabWidget*>("mainTabs")->setCurrentWidget(page);
        HolderTimeline* timeline = page->timeline();
        QTRY_VERIFY_WITH_TIMEOUT(timeline->lanes().contains("/timeline-test/early"), UiTimeoutMs);
        QTest::qWait(3 * HolderTimeline::ReplotIntervalMs);
        const QString early =
            timeline->toolTipAt(timeline->pointOf("/timeline-test/early", latestShown(timeline)));
        QVERIFY2(early.contains("held since before LockScope started watching"), qPrintable(early));
        QVERIFY2(early.contains("Duration: at least"), qPrintable(early));
        QVERIFY2(early.contains(QString::fromStdString("Key: " + key)), qPrintable(early));
        QVERIFY2(early.contains(QString::fromStdString("Lease: " + etcd::leaseHex(lease->id()))),
                 qPrintable(early));
        QVERIFY2(early.contains(QString("Fencing token: %1").arg(written->header().revision())),
                 qPrintable(early));
        // Shown as the pointer rests on it; its picture beside the page's.
        auto* plot = timeline->findChild<QCustomPlot*>();
        const QPoint at = timeline->pointOf("/timeline-test/early", latestShown(timeline));
        QHelpEvent help(QEvent::ToolTip, plot->mapFrom(timeline, at), timeline->mapToGlobal(at));
        QApplication::sendEvent(plot, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains("held since before LockScope started watching"));
        for (QWidget* top : QApplication::topLevelWidgets())
            if (top->inherits("QTipLabel") && top->isVisible())
                QVERIFY(saveScreenshot(*top, "timeline_tooltip_in_progress.png"));
        QVERIFY(saveScreenshot(window, "timeline_page_in_progress.png"));

        // A hold seen from its start says when it started, and is not marked.
        etcd::pb::PutRequest later;
        later.set_key("/timeline-test/later/" + etcd::leaseHex(lease->id()));
        later.set_lease(lease->id());
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::put, later));
        QTRY_VERIFY_WITH_TIMEOUT(timeline->lanes().contains("/timeline-test/later"), UiTimeoutMs);
        QTest::qWait(3 * HolderTimeline::ReplotIntervalMs);
        const QString seen =
            timeline->toolTipAt(timeline->pointOf("/timeline-test/later", latestShown(timeline)));
        QVERIFY2(seen.contains("End: still held"), qPrintable(seen));
        QVERIFY2(!seen.contains("before LockScope"), qPrintable(seen));
        QCOMPARE(timeline->lanes().count("/timeline-test/early"), 1); // not added twice

        etcd::pb::LeaseRevokeRequest revoke;
        revoke.set_id(lease->id());
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::leaseRevoke, revoke));
    }

    // The lab's contention on the page: one time axis for the three graphs, live and paused.
    void theGraphsShareOneTimeAxis() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/timeline-lab/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* page = window.findChild<TimelinePage*>("lockCharts");
        window.findChild<QTabWidget*>("mainTabs")->setCurrentWidget(page);
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        lab::LabOptions lab;
        lab.workers = 4;
        lab.locks = {"/timeline-lab/deploy", "/timeline-lab/db-migrate"};
        lab.hold = std::chrono::milliseconds(1500);
        lab.think = std::chrono::milliseconds(300);
        lab.ttlSeconds = 5;
        window.workspace()->startLab(lab, false);
        QTRY_VERIFY_WITH_TIMEOUT(page->timeline()->intervalCount() >= 6, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(page->waits()->pointCount("wait (observed)") >= 3, UiTimeoutMs);

        // Live: each redraw of one moves the others with it.
        QTRY_VERIFY_WITH_TIMEOUT(timeRangeOf(page->timeline()) == timeRangeOf(page->waits()) &&
                                     timeRangeOf(page->waits()) == timeRangeOf(page->depth()),
                                 UiTimeoutMs);
        QVERIFY(timeRangeOf(page->timeline()).upper > nowSeconds() - 2);
        // And drawn one above the other: an instant is at the same x in each.
        QTRY_VERIFY_WITH_TIMEOUT(
            plottedLeftEdge(page->timeline()) == plottedLeftEdge(page->waits()) &&
                plottedLeftEdge(page->waits()) == plottedLeftEdge(page->depth()),
            UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "timeline_page_lab.png"));

        // Paused: dragging the wait graph back a minute moves the other two.
        window.findChild<QCheckBox*>("pauseGraphs")->setChecked(true);
        QCustomPlot* waits = page->waits()->findChild<QCustomPlot*>();
        const QCPRange before = waits->xAxis->range();
        waits->xAxis->setRange(before.lower - 60, before.upper - 50);
        QCOMPARE(timeRangeOf(page->timeline()), waits->xAxis->range());
        QCOMPARE(timeRangeOf(page->depth()), waits->xAxis->range());
        QTest::qWait(1500); // paused, nothing pulls them back to now
        QCOMPARE(timeRangeOf(page->timeline()), QCPRange(before.lower - 60, before.upper - 50));
        window.findChild<QCheckBox*>("pauseGraphs")->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(timeRangeOf(page->depth()).upper > nowSeconds() - 2, UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(timeRangeOf(page->timeline()), timeRangeOf(page->depth()),
                                  UiTimeoutMs);
        window.workspace()->stopLab();
    }

private:
    LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(TimelinePageIntegrationTest)
#include "timeline_page_integration_test.moc"
