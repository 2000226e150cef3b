// The main window connecting through a connection profile that names TLS files, against a real
// TLS etcd (client certificates required), offscreen; and the classified message it shows when
// the profile's CA is the wrong one. Screenshots go where main_window_probes.h says.
#include "app/core/connection_profiles.h"
#include "app/core/endpoint_status_model.h"
#include "app/gui/main_window.h"
#include "main_window_probes.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "support/test_certificates.h"

#include <QLabel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace lockscope;
using lockscope::test::labelText;
using lockscope::test::saveScreenshot;
using lockscope::test::statusModel;
using lockscope::test::TestCertificates;

class TlsConnectionIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings away from the user's own
        QVERIFY2(certificates_.error().empty(), certificates_.error().c_str());
        QVERIFY2(etcd_.start(1, certificates_.clusterTls()), etcd_.error().c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    void aProfileWithTheTlsFilesConnects() {
        MainWindow window;
        window.setPrefix("/"); // as --prefix would: the first connection asks otherwise
        connectThrough(window, profile(certificates_.caFile));
        const EndpointStatusModel* model = statusModel(window);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == 1 && model->statusAt(0).answered(), 15000);
        QVERIFY(model->statusAt(0).isLeader());
        QTRY_VERIFY_WITH_TIMEOUT(labelText(window, "connectionLabel").contains("Connected"), 10000);
        QVERIFY(labelText(window, "endpointLabel").startsWith("tls-profile"));
        // The lock list reads and watches over the same TLS channel.
        QTRY_VERIFY_WITH_TIMEOUT(labelText(window, "lockWatchStatus").contains("live"), 15000);
        QVERIFY(saveScreenshot(window, "tls_profile_connected.png"));
    }

    void aProfileWithAnotherCaShowsTheClassifiedMessage() {
        MainWindow window;
        connectThrough(window, profile(certificates_.otherCaFile));
        QTRY_VERIFY_WITH_TIMEOUT(!lockscope::test::newestProblem(window).isEmpty(), 15000);
        const QString banner = lockscope::test::newestProblem(window);
        QVERIFY2(banner.contains("untrusted server certificate"), qPrintable(banner));
        QVERIFY2(banner.contains(QString::fromStdString(certificates_.otherCaFile)),
                 qPrintable(banner));
        QVERIFY2(!banner.contains("Cannot reach"), qPrintable(banner));
        QVERIFY(labelText(window, "connectionLabel").contains("Not connected"));
        QVERIFY(saveScreenshot(window, "tls_profile_wrong_ca.png"));
    }

private:
    ConnectionProfile profile(const std::string& caFile) const {
        return {"tls-profile",
                QString::fromStdString(etcd_.cluster().endpointList()),
                QString::fromStdString(caFile),
                QString::fromStdString(certificates_.clientCertFile),
                QString::fromStdString(certificates_.clientKeyFile),
                "",
                false};
    }

    // What the connection dialog does with the profile it returns.
    static void connectThrough(MainWindow& window, const ConnectionProfile& chosen) {
        QString error;
        const auto options = toConnectionOptions(chosen, error);
        QVERIFY2(options.has_value(), qPrintable(error));
        window.connectTo(options->client, chosen.name);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
    }

    TestCertificates certificates_;
    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(TlsConnectionIntegrationTest)
#include "tls_connection_integration_test.moc"
