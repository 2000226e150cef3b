// ClusterStatusProbe against a real 2-member etcd cluster, one member stopped with SIGSTOP.
#include "app/core/cluster_status_probe.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"

#include <QSignalSpy>
#include <QtTest>
#include <csignal>

using namespace lockscope;

class ClusterStatusProbeIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    // A stopped member answers nothing until its call's deadline; the other member's row keeps
    // coming at each refresh meanwhile, and the stopped one's ends in its own error.
    void aHungMemberHoldsBackOnlyItsOwnRow() {
        auto cluster = test::startCluster(2);
        QVERIFY2(cluster, cluster ? "" : cluster.error().message.c_str());
        etcd::ClientOptions options = (*cluster)->clientOptions();
        // Long enough that four refreshes on a loaded machine still fall within it.
        options.commandTimeout = std::chrono::seconds(10);
        ClusterStatusProbe probe(options);
        QSignalSpy updated(&probe, &ClusterStatusProbe::updated);
        probe.refresh();
        QTRY_COMPARE(updated.size(), 1);
        const auto rows = [&] { return updated.last()[0].value<QList<EndpointStatus>>(); };
        QVERIFY(rows()[0].answered() && rows()[1].answered());

        QCOMPARE(::kill((*cluster)->pid(1), SIGSTOP), 0);
        for (int round = 1; round <= 4; ++round) {
            // The stopped member's call is not sent again while it is out. Member 0 answers each
            // time; the alarm list, which needs a quorum, may end in an update of its own.
            const auto before = updated.size();
            probe.refresh();
            QTRY_VERIFY_WITH_TIMEOUT(updated.size() > before, 5000);
            QVERIFY(rows()[0].answered());
            QTest::qWait(300);
        }
        QVERIFY(probe.busy()); // still waiting for member 1, under its 10 s deadline
        QTRY_VERIFY_WITH_TIMEOUT(!rows()[1].answered(), 15000);
        QVERIFY2(rows()[1].error.contains("may be stopped, hung or overloaded"),
                 qPrintable(rows()[1].error));
        QCOMPARE(::kill((*cluster)->pid(1), SIGCONT), 0);
        probe.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(rows()[1].answered(), 10000);
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(ClusterStatusProbeIntegrationTest)
#include "cluster_status_probe_integration_test.moc"
