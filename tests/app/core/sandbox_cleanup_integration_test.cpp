// A sandbox etcd never outlives LockScope, even when LockScope is killed, and what a killed
// LockScope left on disk is swept by the next sandbox.
#include "etcdclient/local_cluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>
#include <csignal>

namespace {

// The pids of running etcd processes whose parent is `parent`.
QList<qint64> etcdChildrenOf(qint64 parent) {
    QList<qint64> children;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromLatin1(stat.readAll());
        // "pid (comm) state ppid ...": comm may hold spaces, so split after the last ')'.
        const QString comm = text.section('(', 1).section(')', 0, 0);
        const QStringList rest = text.section(')', -1).split(' ', Qt::SkipEmptyParts);
        if (comm == "etcd" && rest.size() > 1 && rest[1].toLongLong() == parent && rest[0] != "Z")
            children << pid;
    }
    return children;
}

bool alive(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    return stat.readAll().split(' ').value(2) != "Z";
}

} // namespace

class SandboxCleanupIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void killingLockScopeTakesItsSandboxEtcdAlongAndTheNextSandboxSweepsItsData() {
        QProcess lockscope;
        qint64 etcd = 0;
        QString dataDir;
        startOnItsSandbox(lockscope, etcd, dataDir);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(QDir(dataDir).exists(), qPrintable(dataDir));

        ::kill(static_cast<pid_t>(lockscope.processId()), SIGKILL);
        QVERIFY(lockscope.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!alive(etcd), 5000); // PR_SET_PDEATHSIG
        QVERIFY(QDir(dataDir).exists());              // nobody ran LockScope's cleanup...

        etcd::LocalCluster next(1);
        QVERIFY(next.spawn().ok()); // ...so the next sandbox sweeps it
        QVERIFY2(!QDir(dataDir).exists(), qPrintable(dataDir));
    }

    void quittingLockScopeStopsItsSandboxAndRemovesItsData() {
        QProcess lockscope;
        qint64 etcd = 0;
        QString dataDir;
        startOnItsSandbox(lockscope, etcd, dataDir);
        if (QTest::currentTestFailed())
            return;
        lockscope.terminate(); // SIGTERM, as a desktop session's logout sends
        QVERIFY(lockscope.waitForFinished(15000));
        QVERIFY(!alive(etcd));
        QVERIFY2(!QDir(dataDir).exists(), qPrintable(dataDir));
    }

private:
    // Starts LockScope on its own sandbox; `etcd` and `dataDir` are the sandbox's.
    static void startOnItsSandbox(QProcess& lockscope, qint64& etcd, QString& dataDir) {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        lockscope.setProcessEnvironment(env);
        lockscope.start(LOCKSCOPE, {"--sandbox", "--no-lab"});
        QVERIFY(lockscope.waitForStarted(10000));
        QList<qint64> children;
        QTRY_VERIFY_WITH_TIMEOUT(!(children = etcdChildrenOf(lockscope.processId())).isEmpty(),
                                 20000);
        etcd = children.first();
        dataDir = dataDirOf(etcd);
    }

    // The sandbox's root directory, from the etcd process's --data-dir (root/member0.etcd).
    static QString dataDirOf(qint64 etcdPid) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(etcdPid));
        if (!cmdline.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray& arg : cmdline.readAll().split('\0'))
            if (arg.startsWith("--data-dir="))
                return QFileInfo(QString::fromUtf8(arg.mid(11))).path();
        return {};
    }
};

QTEST_GUILESS_MAIN(SandboxCleanupIntegrationTest)
#include "sandbox_cleanup_integration_test.moc"
