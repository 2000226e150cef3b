// Several clusters open in one window, against three real etcds (one plain, one with
// authentication, one with TLS and client certificates): each cluster's lock events appear
// only under it; closing one releases our locks there and leaves the others' held; the fleet
// overview has a row each and opens the one clicked; a hung cluster's problem names it, and the
// title counts it; the clusters open at a close come back at the next start, one that is down
// as not answering, not as a dialog. Screenshots go where main_window_probes.h says.
#include "app/core/connection_options.h"
#include "app/core/connection_profiles.h"
#include "app/core/fleet_model.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/core/problem_log_model.h"
#include "app/core/workspace.h"
#include "app/gui/cluster_view.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/main_window.h"
#include "app/gui/recent_prefixes.h"
#include "main_window_probes.h"
#include "support/etcd_auth.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "support/test_certificates.h"
#include "widgets/problem_list.h"

#include <QApplication>
#include <QDBusConnection>
#include <QListWidget>
#include <QMenu>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <memory>
#include <signal.h>

using namespace lockscope;
using lockscope::test::saveScreenshot;

namespace {

// The taskbar badge's counts as the session bus carries them to a launcher.
class BadgeListener : public QObject {
    Q_OBJECT
public:
    BadgeListener() {
        connected = QDBusConnection::sessionBus().connect(
            {}, {}, "com.canonical.Unity.LauncherEntry", "Update", this,
            SLOT(update(QString, QVariantMap)));
    }
    bool connected = false;
    QString entry;
    qint64 count = -1;

public slots:
    void update(const QString& desktopEntry, const QVariantMap& properties) {
        entry = desktopEntry;
        count = properties.value("count").toLongLong();
    }
};

bool shows(ClusterView* view, const std::string& lock) {
    return view->lockWatch() && view->lockWatch()->locks()->rowOfLock(lock) >= 0;
}

} // namespace

class SeveralClustersIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings away from the user's own
        QVERIFY2(certificates_.error().empty(), certificates_.error().c_str());
        QVERIFY2(plain_.start(), plain_.error().c_str());
        QVERIFY2(auth_.start(), auth_.error().c_str());
        QVERIFY2(tls_.start(1, certificates_.clusterTls()), tls_.error().c_str());
        const std::string refused = test::enableAuthentication(auth_.cluster().endpointList());
        QVERIFY2(refused.empty(), refused.c_str());
    }

    void cleanupTestCase() {
        tls_.stop();
        auth_.stop();
        plain_.stop();
    }

    void init() {
        QSettings settings;
        settings.clear();
        // Each cluster's prefix as if used there before: none asks.
        RecentPrefixes recent(settings);
        recent.rememberUsedOn(connectionOf(plainProfile()).client.endpoints, "/locks/");
        recent.rememberUsedOn(authOptions().endpoints, "/alice/locks/");
        recent.rememberUsedOn(connectionOf(tlsProfile()).client.endpoints, "/locks/");
        recent.rememberUsedOn(connectionOf(downProfile()).client.endpoints, "/locks/");
        saveProfiles(settings, {plainProfile(), tlsProfile(), downProfile()});
    }

    void eachClusterShowsOnlyItsOwnLocksAndClosingOneLeavesTheOthers() {
        MainWindow window;
        openAllThree(window);
        if (QTest::currentTestFailed())
            return;
        const QList<ClusterView*> open = window.views();
        ClusterView *plain = open[0], *auth = open[1], *tls = open[2];
        QVERIFY(window.findChild<QListWidget*>("clusterList")->isVisible());

        const std::string plainLock = "/locks/plain-job", authLock = "/alice/locks/auth-job",
                          tlsLock = "/locks/tls-job";
        plain->workspace()->lockActions()->acquire(QString::fromStdString(plainLock), 30, false);
        auth->workspace()->lockActions()->acquire(QString::fromStdString(authLock), 30, false);
        tls->workspace()->lockActions()->acquire(QString::fromStdString(tlsLock), 30, false);
        QTRY_VERIFY_WITH_TIMEOUT(shows(plain, plainLock), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(auth, authLock), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(tls, tlsLock), 15000);
        // Two of them watch the same prefix: still each only its own cluster's keys.
        QVERIFY(!shows(plain, tlsLock) && !shows(plain, authLock));
        QVERIFY(!shows(tls, plainLock) && !shows(tls, authLock));
        QVERIFY(!shows(auth, plainLock) && !shows(auth, tlsLock));

        // The fleet overview: a row each, with its lock held; a click opens that cluster.
        window.showFleet();
        auto* fleet = window.findChild<QTableView*>("fleetTable");
        QVERIFY(fleet && fleet->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(fleet->model()->rowCount(), 3, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(heldCounts(*fleet) == QList<int>({1, 1, 1}), 5000);
        QVERIFY(saveScreenshot(window, "several_clusters_fleet.png"));
        const int tlsRow = rowNamed(*fleet, "tls");
        QVERIFY(tlsRow >= 0);
        QTest::mouseClick(fleet->viewport(), Qt::LeftButton, {},
                          fleet->visualRect(fleet->model()->index(tlsRow, 0)).center());
        QCOMPARE(window.currentView(), tls);
        QCOMPARE(window.lockWatch(), tls->lockWatch());
        // The Lock menu acts on the cluster shown: none while the fleet is.
        auto* lockMenu = window.findChild<QMenu*>("lockMenu");
        QCOMPARE(lockMenu->actions(), tls->locksPage()->lockActionsBar()->lockActions());
        window.showFleet();
        QVERIFY(lockMenu->actions().isEmpty());
        window.showView(tls);

        // Closing the auth cluster lets go of our lock there; the others keep theirs.
        window.closeCluster(auth);
        QCOMPARE(window.views(), QList<ClusterView*>({plain, tls}));
        auto authClient = etcd::Client::create(authOptions());
        QVERIFY(authClient);
        QTRY_VERIFY_WITH_TIMEOUT(keysUnder(**authClient, authLock + "/") == 0, 15000);
        QTest::qWait(500);
        QCOMPARE(keysUnder(plain_.client(), plainLock + "/"), 1);
        QCOMPARE(keysUnder(tls_.client(), tlsLock + "/"), 1);
        QVERIFY(shows(plain, plainLock) && shows(tls, tlsLock));
    }

    // A hung cluster (its one member SIGSTOPped) is one problem naming it; the others go on.
    void aHungClusterIsNamedInTheProblemsAndTheTitle() {
        MainWindow window;
        openAllThree(window);
        if (QTest::currentTestFailed())
            return;
        const QList<ClusterView*> open = window.views();
        ClusterView *plain = open[0], *auth = open[1], *tls = open[2];
        BadgeListener badge;
        QVERIFY(badge.connected); // run in a private session bus (with_keyring.sh)
        plain->workspace()->lockActions()->acquire("/locks/before", 30, false);
        QTRY_VERIFY_WITH_TIMEOUT(shows(plain, "/locks/before"), 15000);
        {
            // Hung (connections open, nothing answered) until the end of this block.
            ::kill(tls_.cluster().pid(0), SIGSTOP);
            const auto resume = qScopeGuard([this] { ::kill(tls_.cluster().pid(0), SIGCONT); });
            QTRY_VERIFY_WITH_TIMEOUT(problemShownOn(window, "tls"), 30000);
            QVERIFY2(window.windowTitle().contains("(1 cluster(s) with problems)"),
                     qPrintable(window.windowTitle()));
            QTRY_COMPARE_WITH_TIMEOUT(badge.count, qint64(1), 5000);
            QCOMPARE(badge.entry, QString("application://lockscope.desktop"));
            // The healthy ones keep showing events while it hangs.
            plain->workspace()->lockActions()->acquire("/locks/during", 30, false);
            auth->workspace()->lockActions()->acquire("/alice/locks/during", 30, false);
            QTRY_VERIFY_WITH_TIMEOUT(shows(plain, "/locks/during"), 10000);
            QTRY_VERIFY_WITH_TIMEOUT(shows(auth, "/alice/locks/during"), 10000);
            window.showView(tls);
            QTRY_VERIFY_WITH_TIMEOUT(sidebarText(window, tls).contains("1 problem(s)"), 5000);
            QVERIFY(saveScreenshot(window, "several_clusters_one_hung.png"));
            for (ClusterView* healthy : {plain, auth})
                QVERIFY2(!sidebarText(window, healthy).contains("problem"),
                         qPrintable(sidebarText(window, healthy)));
            // Closed while hung: its problems stay listed but no longer stand or count.
            window.closeCluster(tls);
            QVERIFY(!problemShownOn(window, "tls"));
            QTRY_COMPARE_WITH_TIMEOUT(badge.count, qint64(0), 5000);
            QVERIFY2(!window.windowTitle().contains("with problems"),
                     qPrintable(window.windowTitle()));
        }
    }

    void theOpenClustersComeBackAtTheNextStart() {
        {
            MainWindow window;
            window.show();
            window.addCluster(connectionOf(plainProfile()), "plain");
            window.addCluster(connectionOf(tlsProfile()), "tls");
            window.addCluster(connectionOf(downProfile()), "down");
            QTRY_VERIFY_WITH_TIMEOUT(window.views().size() == 3 && window.workspace(), 5000);
            // Reordered as a drag in the sidebar does: tls first.
            auto* sidebar = window.findChild<QListWidget*>("clusterList");
            QVERIFY(sidebar->model()->moveRow({}, 2, {}, 1));
            QCOMPARE(window.views().first()->name(), QString("tls"));
            window.close(); // saves; closed for real once our (no) locks are let go of
            QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 15000);
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        again.restoreOpenClusters();
        QStringList names;
        for (ClusterView* view : again.views())
            names << view->name();
        QCOMPARE(names, QStringList({"tls", "plain", "down"}));
        ClusterView* down = again.views().at(2);
        // Down: shown as not answering, on its own entry, and no dialog in the way.
        QTRY_VERIFY_WITH_TIMEOUT(down->summary().state.contains("Unreachable") ||
                                     down->summary().state.contains("No answer"),
                                 20000);
        const QWidget* dialog = QApplication::activeModalWidget();
        QVERIFY2(!dialog, dialog ? dialog->metaObject()->className() : "");
        for (int open : {0, 1}) {
            QTRY_VERIFY_WITH_TIMEOUT(again.views().at(open)->lockWatch()->live(), 20000);
            // Each comes back on its prefix.
            QCOMPARE(again.views().at(open)->lockWatch()->prefix(), std::string("/locks/"));
        }
    }

private:
    // Plain, auth and tls open in `window`, in that order, each watching its prefix.
    void openAllThree(MainWindow& window) {
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<ClusterView*> open{window.addCluster(connectionOf(plainProfile()), "plain"),
                                       window.addCluster(authConnection(), "auth"),
                                       window.addCluster(connectionOf(tlsProfile()), "tls")};
        QCOMPARE(window.views(), open);
        for (ClusterView* view : open)
            QTRY_VERIFY_WITH_TIMEOUT(view->lockWatch() && view->lockWatch()->live(), 20000);
    }
    ConnectionProfile plainProfile() const {
        return {"plain", QString::fromStdString(plain_.cluster().endpoint(0)), {}, {}, {}, {},
                false};
    }
    ConnectionProfile tlsProfile() const {
        return {"tls",
                QString::fromStdString(tls_.cluster().endpoint(0)),
                QString::fromStdString(certificates_.caFile),
                QString::fromStdString(certificates_.clientCertFile),
                QString::fromStdString(certificates_.clientKeyFile),
                {},
                false};
    }
    // Nothing listens there.
    static ConnectionProfile downProfile() {
        return {"down", "127.0.0.1:1", {}, {}, {}, {}, false};
    }
    static ConnectionOptions connectionOf(const ConnectionProfile& profile) {
        QString error;
        const auto options = toConnectionOptions(profile, error);
        return options.value_or(ConnectionOptions{});
    }
    etcd::ClientOptions authOptions() const {
        etcd::ClientOptions options;
        options.endpoints = {auth_.cluster().endpoint(0)};
        options.username = test::authUser;
        options.password = test::authPassword;
        return options;
    }
    ConnectionOptions authConnection() const {
        ConnectionOptions connection;
        connection.client = authOptions();
        connection.endpointsGiven = true;
        return connection;
    }
    static int keysUnder(etcd::Client& client, const std::string& prefix) {
        const auto keys = test::keysUnder(client, prefix);
        return keys ? static_cast<int>(keys->size()) : -1;
    }
    static QList<int> heldCounts(const QTableView& fleet) {
        QList<int> held;
        for (int row = 0; row < fleet.model()->rowCount(); ++row)
            held << fleet.model()->index(row, FleetModel::Held).data(FleetModel::SortRole).toInt();
        return held;
    }
    static int rowNamed(const QTableView& fleet, const QString& name) {
        for (int row = 0; row < fleet.model()->rowCount(); ++row)
            if (fleet.model()->index(row, FleetModel::Cluster).data().toString() == name)
                return row;
        return -1;
    }
    // A problem standing on `cluster`, its line starting with the cluster's name.
    static bool problemShownOn(MainWindow& window, const QString& cluster) {
        auto* list = window.findChild<ProblemList*>();
        const auto* problems = qobject_cast<const ProblemLogModel*>(list->model());
        for (int row = 0; row < problems->rowCount(); ++row)
            if (problems->problemAt(row).cluster == cluster &&
                !problems->problemAt(row).recovered.isValid() &&
                problems->index(row, ProblemLogModel::Message)
                    .data()
                    .toString()
                    .startsWith(cluster + ": "))
                return true;
        return false;
    }
    static QString sidebarText(MainWindow& window, ClusterView* view) {
        auto* list = window.findChild<QListWidget*>("clusterList");
        for (int row = 0; row < list->count(); ++row)
            if (list->item(row)->data(Qt::UserRole).value<ClusterView*>() == view)
                return list->item(row)->text();
        return {};
    }

    test::TestCertificates certificates_;
    test::LocalEtcd plain_;
    test::LocalEtcd auth_;
    test::LocalEtcd tls_;
};

LOCKSCOPE_QTEST_MAIN(SeveralClustersIntegrationTest)
#include "several_clusters_integration_test.moc"
