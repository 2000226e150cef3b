// The lab page against a real etcd: workers run, figures move, stop leaves no key.
#include "app/core/workspace.h"
#include "app/gui/lab_page.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/local_cluster.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"

#include <QtTest>

using namespace lockscope;

class LabPageIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(etcd_.start(), etcd_.error().c_str()); }
    void cleanupTestCase() { etcd_.stop(); }

    void runsShowsFiguresAndStopsCleanly() {
        Workspace workspace(etcd_.client().options());
        LabPage page;
        page.setWorkspace(&workspace);
        auto options = page.options();
        options.workers = 6;
        options.hold = std::chrono::milliseconds(20);
        options.think = std::chrono::milliseconds(5);
        options.locks = {"/page-lab/lock"};
        page.setOptions(options);
        QCOMPARE(page.options().workers, 6);
        page.start();
        QVERIFY(page.running());
        QTRY_VERIFY_WITH_TIMEOUT(acquisitionsShown(page) >= 10, 10000);
        page.resize(1100, 520);
        const QString dir = qEnvironmentVariable("LOCKSCOPE_ARTIFACTS_DIR", QT_TESTCASE_BUILDDIR);
        QDir().mkpath(dir);
        QVERIFY(page.grab().save(dir + "/lab_page.png"));
        page.stop();
        QVERIFY(!page.running());
        QTRY_COMPARE(keysUnder("/page-lab/lock/"), 0);
        QVERIFY(page.figures().contains("split brains found: 0"));
    }

    void stepGivesEveryWorkerOneTurn() {
        Workspace workspace(etcd_.client().options());
        LabPage page;
        page.setWorkspace(&workspace);
        auto options = page.options();
        options.workers = 4;
        options.hold = std::chrono::milliseconds(10);
        options.locks = {"/page-step/lock"};
        page.setOptions(options);
        page.step();
        QTRY_VERIFY_WITH_TIMEOUT(!page.running(), 10000);
        QTRY_COMPARE(acquisitionsShown(page), 4);
        page.stop();
        QTRY_COMPARE(keysUnder("/page-step/lock/"), 0);
    }

private:
    static int acquisitionsShown(const LabPage& page) {
        return page.figures().section(' ', 0, 0).toInt();
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

LOCKSCOPE_QTEST_MAIN(LabPageIntegrationTest)
#include "lab_page_integration_test.moc"
