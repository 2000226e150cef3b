// The lab panel against a real etcd: workers run, figures move, stop leaves no key.
#include "app/core/workspace.h"
#include "app/gui/lab_panel.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/local_cluster.h"
#include "support/local_etcd.h"

#include <QtTest>

using namespace lockscope;

class LabPanelIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(etcd_.start(), etcd_.error().c_str()); }
    void cleanupTestCase() { etcd_.stop(); }

    void runsShowsFiguresAndStopsCleanly() {
        Workspace workspace(etcd_.client().options());
        LabPanel panel;
        panel.setWorkspace(&workspace);
        auto options = panel.options();
        options.workers = 6;
        options.hold = std::chrono::milliseconds(20);
        options.think = std::chrono::milliseconds(5);
        options.locks = {"/panel-lab/lock"};
        panel.setOptions(options);
        QCOMPARE(panel.options().workers, 6);
        panel.start();
        QVERIFY(panel.running());
        QTRY_VERIFY_WITH_TIMEOUT(acquisitionsShown(panel) >= 10, 10000);
        panel.resize(1100, 520);
        const QString dir = qEnvironmentVariable("LOCKSCOPE_ARTIFACTS_DIR", QT_TESTCASE_BUILDDIR);
        QDir().mkpath(dir);
        QVERIFY(panel.grab().save(dir + "/lab_panel.png"));
        panel.stop();
        QVERIFY(!panel.running());
        QTRY_COMPARE(keysUnder("/panel-lab/lock/"), 0);
        QVERIFY(panel.figures().contains("split brains found: 0"));
    }

    void stepGivesEveryWorkerOneTurn() {
        Workspace workspace(etcd_.client().options());
        LabPanel panel;
        panel.setWorkspace(&workspace);
        auto options = panel.options();
        options.workers = 4;
        options.hold = std::chrono::milliseconds(10);
        options.locks = {"/panel-step/lock"};
        panel.setOptions(options);
        panel.step();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.running(), 10000);
        QTRY_COMPARE(acquisitionsShown(panel), 4);
        panel.stop();
        QTRY_COMPARE(keysUnder("/panel-step/lock/"), 0);
    }

private:
    static int acquisitionsShown(const LabPanel& panel) {
        return panel.figures().section(' ', 0, 0).toInt();
    }
    int keysUnder(const std::string& prefix) {
        etcd::pb::RangeRequest r;
        r.set_key(prefix);
        r.set_range_end(etcd::prefixRangeEnd(prefix));
        r.set_count_only(true);
        auto got = etcd::call(etcd_.client(), &etcd::Client::range, r);
        return got ? static_cast<int>(got->count()) : -1;
    }

    test::LocalEtcd etcd_;
};

QTEST_MAIN(LabPanelIntegrationTest)
#include "lab_panel_integration_test.moc"
