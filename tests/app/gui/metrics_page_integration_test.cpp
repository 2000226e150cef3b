// The Metrics page against real etcd servers, offscreen: it reads each member's /metrics (also
// over TLS with client certificates), shows a leader change when the leader stops and a lease
// expiry, and says why a member cannot be read. Screenshots go where main_window_probes.h says.
#include "app/core/workspace.h"
#include "app/gui/metrics_page.h"
#include "app/gui/metrics_scraper.h"
#include "etcdclient/blocking.h"
#include "main_window_probes.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "support/test_certificates.h"
#include "widgets/latency_plot.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTcpServer>
#include <QTest>

using namespace lockscope;
using lockscope::test::saveScreenshot;

namespace {

constexpr int ScrapeMs = 200;

QString cell(const MetricsPage& page, int row, int column) {
    const QTableWidgetItem* item = page.table()->item(row, column);
    return item ? item->text() : QString();
}

bool everyMemberRead(const MetricsPage& page) {
    for (int row = 0; row < page.table()->rowCount(); ++row)
        if (!cell(page, row, MetricsPage::ReadColumn).contains(':') ||
            cell(page, row, MetricsPage::ReadColumn).startsWith("not read"))
            return false;
    return page.table()->rowCount() > 0;
}

int rowWithRole(const MetricsPage& page, const QString& role) {
    for (int row = 0; row < page.table()->rowCount(); ++row)
        if (cell(page, row, MetricsPage::RoleColumn) == role)
            return row;
    return -1;
}

} // namespace

class MetricsPageIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void stoppingTheLeaderShowsALeaderChange() {
        test::LocalEtcd etcd;
        QVERIFY2(etcd.start(3), etcd.error().c_str());
        Workspace workspace(etcd.cluster().clientOptions());
        MetricsPage page;
        page.resize(1400, 700);
        page.setScrapeInterval(ScrapeMs);
        page.setWorkspace(&workspace);
        QCOMPARE(page.table()->rowCount(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(everyMemberRead(page) && rowWithRole(page, "leader") >= 0, 15000);
        const int leader = rowWithRole(page, "leader");
        QCOMPARE(cell(page, leader, MetricsPage::MemberColumn),
                 QString::fromStdString(etcd.cluster().endpoint(leader)));
        const int follower = (leader + 1) % 3;
        const double changesBefore =
            cell(page, follower, MetricsPage::LeaderChangesColumn).toDouble();

        etcd.cluster().stopMember(leader);
        QTRY_VERIFY_WITH_TIMEOUT(cell(page, leader, MetricsPage::ReadColumn).startsWith("not read"),
                                 15000);
        QTRY_VERIFY_WITH_TIMEOUT(
            rowWithRole(page, "leader") >= 0 && rowWithRole(page, "leader") != leader, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(page, follower, MetricsPage::LeaderChangesColumn).toDouble() >
                                     changesBefore,
                                 10000);
        QVERIFY(page.leadershipPlot()->pointCount("members not answering") > 0);
        // Gauges as levels, counters as rates (etcd's documented types), pending events not at
        // all: etcd 3.4's level of it only climbs.
        QCOMPARE(page.leadershipPlot()->seriesNames(),
                 QStringList({"members not answering", "members without a leader"}));
        QCOMPARE(
            page.watcherPlot()->seriesNames(),
            QStringList({"proposals failed per second", "proposals pending", "slow watchers"}));
        QVERIFY(saveScreenshot(page, "metrics_page_leader_stopped.png"));
    }

    void aLeaseThatIsNotKeptAliveShowsAsAnExpiry() {
        test::LocalEtcd etcd;
        QVERIFY2(etcd.start(1), etcd.error().c_str());
        Workspace workspace(etcd.cluster().clientOptions());
        MetricsPage page;
        page.setScrapeInterval(ScrapeMs);
        page.setWorkspace(&workspace);
        QTRY_VERIFY_WITH_TIMEOUT(everyMemberRead(page), 15000);
        QCOMPARE(cell(page, 0, MetricsPage::LeasesExpiredColumn), QString("0"));

        etcd::pb::LeaseGrantRequest grant;
        grant.set_ttl(1);
        const auto granted = etcd::call(etcd.client(), &etcd::Client::leaseGrant, grant);
        QVERIFY2(granted, granted ? "" : granted.error().message.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(cell(page, 0, MetricsPage::LeasesExpiredColumn), QString("1"),
                                  15000);
        QVERIFY(page.leasePlot()->pointCount("expired") > 0);
        QCOMPARE(page.leasePlot()->valueAxisLabel(), QString("per second"));
    }

    void overTlsWithClientCertificates() {
        test::TestCertificates certificates;
        QVERIFY2(certificates.error().empty(), certificates.error().c_str());
        test::LocalEtcd etcd;
        QVERIFY2(etcd.start(1, certificates.clusterTls()), etcd.error().c_str());
        Workspace workspace(etcd.cluster().clientOptions());
        MetricsPage page;
        page.setScrapeInterval(ScrapeMs);
        page.setWorkspace(&workspace);
        QTRY_VERIFY_WITH_TIMEOUT(everyMemberRead(page), 15000);
        QCOMPARE(cell(page, 0, MetricsPage::RoleColumn), QString("leader"));
    }

    // Qt reuses a connection to a host and port whatever TLS configuration a request carries:
    // two clusters of one window sharing a network manager, one of them without the client
    // certificate etcd asks for, would have been answered on the other's connection.
    void aScraperWithoutTheClientCertificateIsNotAnsweredOnAnothersConnection() {
        test::TestCertificates certificates;
        QVERIFY2(certificates.error().empty(), certificates.error().c_str());
        test::LocalEtcd etcd;
        QVERIFY2(etcd.start(1, certificates.clusterTls()), etcd.error().c_str());
        const etcd::ClientOptions withCertificate = etcd.cluster().clientOptions();
        MetricsScraper first(withCertificate);
        QSignalSpy firstRead(&first, &MetricsScraper::scraped);
        first.start(ScrapeMs);
        QTRY_VERIFY_WITH_TIMEOUT(firstRead.count() > 0, 15000);

        etcd::ClientOptions caOnly = withCertificate;
        caOnly.certFile.clear();
        caOnly.keyFile.clear();
        MetricsScraper second(caOnly);
        QSignalSpy secondRead(&second, &MetricsScraper::scraped);
        QSignalSpy secondFailed(&second, &MetricsScraper::failed);
        second.start(ScrapeMs);
        // Refused, or (answered on the first's connection) read: whichever comes first. A
        // refusal can take the scrape's timeout to show.
        QTRY_VERIFY_WITH_TIMEOUT(secondFailed.count() + secondRead.count() > 0, 30000);
        QCOMPARE(secondRead.count(), 0);
        const auto readBefore = firstRead.count();
        QTRY_VERIFY_WITH_TIMEOUT(firstRead.count() > readBefore, 15000); // the first reads on
    }

    void saysWhyAMemberCannotBeRead() {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close(); // nothing listens there now
        etcd::ClientOptions options;
        options.endpoints = {"127.0.0.1:" + std::to_string(port)};
        Workspace workspace(options);
        MetricsPage page;
        page.setScrapeInterval(ScrapeMs);
        page.setWorkspace(&workspace);
        QTRY_VERIFY_WITH_TIMEOUT(cell(page, 0, MetricsPage::ReadColumn).startsWith("not read"),
                                 10000);
        const QString why = cell(page, 0, MetricsPage::ReadColumn);
        QVERIFY2(why.contains("refused", Qt::CaseInsensitive), qPrintable(why));
        QVERIFY2(why.contains(QString("127.0.0.1:%1/metrics").arg(port)), qPrintable(why));
        // Said in full under the table too, where a narrow column cannot cut it.
        const auto* problems = page.findChild<QLabel*>("metricsProblems");
        QVERIFY(problems && problems->isVisibleTo(&page));
        QVERIFY2(problems->text().contains(why.mid(QString("not read: ").size())),
                 qPrintable(problems->text()));
        QVERIFY(saveScreenshot(page, "metrics_page_unreadable.png"));
    }
};

LOCKSCOPE_QTEST_MAIN(MetricsPageIntegrationTest)
#include "metrics_page_integration_test.moc"
