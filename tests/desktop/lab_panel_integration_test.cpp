// The lab panel against a real etcd: workers run, figures move, stop leaves no key.
#include "app/core/workspace.h"
#include "app/gui/lab_panel.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "etcdclient/local_cluster.h"

#include <QtTest>

using namespace lockscope;

class LabPanelIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        cluster_ = std::make_unique<etcd::LocalCluster>(1);
        const auto started = cluster_->start();
        QVERIFY2(started.ok(), started.message.c_str());
        options_.endpoints = cluster_->endpoints();
        client_ = std::move(etcd::Client::create(options_).value());
    }
    void cleanupTestCase() {
        client_.reset();
        cluster_.reset();
    }

    void runsShowsFiguresAndStopsCleanly() {
        Workspace workspace(options_);
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
        Workspace workspace(options_);
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
        auto got = etcd::call(*client_, &etcd::Client::range, r);
        return got ? static_cast<int>(got->count()) : -1;
    }

    std::unique_ptr<etcd::LocalCluster> cluster_;
    etcd::ClientOptions options_;
    std::unique_ptr<etcd::Client> client_; // for looking at the keys
};

QTEST_MAIN(LabPanelIntegrationTest)
#include "lab_panel_integration_test.moc"
