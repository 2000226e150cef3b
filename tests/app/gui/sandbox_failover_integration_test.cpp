// --sandbox=3: a three-member sandbox whose members the Sandbox menu stops and restarts, while
// the window keeps working through the others.
#include "app/core/sandbox.h"
#include "app/gui/main_window.h"
#include "support/qtest_registry.h"

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace lockscope;

class SandboxFailoverIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void stoppingTheMemberInUseKeepsTheWindowConnected() {
        MainWindow window;
        window.startSandbox("etcd", 3);
        auto* sandbox = window.findChild<Sandbox*>();
        QVERIFY(sandbox);
        QCOMPARE(sandbox->members(), 3);
        auto* connection = window.findChild<QLabel*>("connectionLabel");
        auto* endpoint = window.findChild<QLabel*>("endpointLabel");
        QTRY_VERIFY_WITH_TIMEOUT(connection->text().contains("Connected"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QAction*>("sandboxMember2") != nullptr, 5000);

        // Stop whichever member the window is using.
        int used = -1;
        for (int member = 0; member < 3; ++member)
            if (endpoint->text().contains(QString::fromStdString(memberEndpoint(*sandbox, member))))
                used = member;
        QVERIFY2(used >= 0, qPrintable(endpoint->text()));
        auto* stop = window.findChild<QAction*>(QStringLiteral("sandboxMember%1").arg(used));
        QVERIFY(stop->text().startsWith("Stop"));
        stop->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!sandbox->memberRunning(used), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stop->text().startsWith("Restart"), 5000);
        // The next refresh fails over to another member.
        QTRY_VERIFY_WITH_TIMEOUT(
            connection->text().contains("Connected") &&
                !endpoint->text().contains(QString::fromStdString(memberEndpoint(*sandbox, used))),
            15000);
        stop->trigger(); // restart it
        QTRY_VERIFY_WITH_TIMEOUT(sandbox->memberRunning(used), 10000);
    }

    // The window asks about a member (and the user may click Stop again) while a pool thread
    // stops it: one stop runs, and the GUI thread never reads the member's process meanwhile
    // (under ThreadSanitizer a shared read is reported).
    void askingWhileAMemberStopsStartsNoSecondStop() {
        Sandbox sandbox("etcd", 1);
        QSignalSpy ready(&sandbox, &Sandbox::ready);
        QSignalSpy changed(&sandbox, &Sandbox::membersChanged);
        sandbox.start();
        QVERIFY(ready.wait(30000));
        QVERIFY(sandbox.memberRunning(0));
        sandbox.stopMember(0);
        QDeadlineTimer deadline(10000);
        while (changed.isEmpty() && !deadline.hasExpired()) {
            if (sandbox.memberRunning(0))
                sandbox.stopMember(0);
            QCoreApplication::processEvents();
        }
        QTest::qWait(300); // any second stop would have reported by now
        QCOMPARE(changed.count(), 1);
        QVERIFY(!sandbox.memberRunning(0));
        sandbox.restartMember(0);
        QTRY_VERIFY_WITH_TIMEOUT(sandbox.memberRunning(0), 10000);
    }

private:
    static std::string memberEndpoint(const Sandbox& sandbox, int member) {
        return sandbox.endpoints().value(member).toStdString();
    }
};

LOCKSCOPE_QTEST_MAIN(SandboxFailoverIntegrationTest)
#include "sandbox_failover_integration_test.moc"
