// A sandbox etcd never outlives LockScope, even when LockScope is killed, and what a killed
// LockScope left on disk is swept by the next sandbox.
#include "process/local_cluster.h"
#include "support/child_processes.h"
#include "support/qtest_registry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>
#include <csignal>

using lockscope::test::childProcesses;
using lockscope::test::processAlive;

class SandboxCleanupIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void killingLockScopeTakesItsSandboxEtcdAlongAndTheNextSandboxSweepsItsData() {
        QProcess lockscope;
        pid_t etcd = 0;
        QString dataDir;
        startOnItsSandbox(lockscope, etcd, dataDir);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(QDir(dataDir).exists(), qPrintable(dataDir));

        ::kill(static_cast<pid_t>(lockscope.processId()), SIGKILL);
        QVERIFY(lockscope.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(etcd), 5000); // PR_SET_PDEATHSIG
        QVERIFY(QDir(dataDir).exists());                     // nobody ran LockScope's cleanup...

        etcd::LocalCluster next(1);
        QVERIFY(next.spawn().ok()); // ...so the next sandbox sweeps it
        QVERIFY2(!QDir(dataDir).exists(), qPrintable(dataDir));
    }

    void quittingLockScopeStopsItsSandboxAndRemovesItsData() {
        QProcess lockscope;
        pid_t etcd = 0;
        QString dataDir;
        startOnItsSandbox(lockscope, etcd, dataDir);
        if (QTest::currentTestFailed())
            return;
        lockscope.terminate(); // SIGTERM, as a desktop session's logout sends
        QVERIFY(lockscope.waitForFinished(15000));
        QVERIFY(!processAlive(etcd));
        QVERIFY2(!QDir(dataDir).exists(), qPrintable(dataDir));
    }

private:
    // Starts LockScope on its own sandbox; `etcd` and `dataDir` are the sandbox's.
    static void startOnItsSandbox(QProcess& lockscope, pid_t& etcd, QString& dataDir) {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        lockscope.setProcessEnvironment(env);
        lockscope.start(LOCKSCOPE, {"--sandbox", "--no-lab"});
        QVERIFY(lockscope.waitForStarted(10000));
        std::set<pid_t> children;
        const auto lockscopePid = static_cast<pid_t>(lockscope.processId());
        QTRY_VERIFY_WITH_TIMEOUT(!(children = childProcesses(lockscopePid, "etcd")).empty(), 20000);
        etcd = *children.begin();
        dataDir = dataDirOf(etcd);
    }

    // The sandbox's root directory, from the etcd process's --data-dir (root/member0.etcd).
    static QString dataDirOf(pid_t etcdPid) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(etcdPid));
        if (!cmdline.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray& arg : cmdline.readAll().split('\0'))
            if (arg.startsWith("--data-dir="))
                return QFileInfo(QString::fromUtf8(arg.mid(11))).path();
        return {};
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(SandboxCleanupIntegrationTest)
#include "sandbox_cleanup_integration_test.moc"
