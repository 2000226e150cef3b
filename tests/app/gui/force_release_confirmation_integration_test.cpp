// The Force release confirmation against a real etcd and real `etcdctl lock` processes: while it
// is open the queue moves on, and it says where the key it named stands now (a waiter that came
// to hold), or refuses once that key is gone; the lease revoked is the one it named.
#include "app/core/lock_actions.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "etcdclient/blocking.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"

#include <QAction>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <csignal>

using namespace lockscope;
using lockscope::test::buttonNamed;
using lockscope::test::saveScreenshot;
using lockscope::test::whenModal;

namespace {

constexpr int UiTimeoutMs = 15000;

} // namespace

class ForceReleaseConfirmationIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    void theConfirmationFollowsTheKeyItNamedAndRevokesItsLease() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/frc/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const std::string endpoints = etcd_.cluster().endpointList();
        auto first = test::etcdctlLock(endpoints, "/frc/job");
        QVERIFY(first->readLine(std::chrono::seconds(10)));
        auto second = test::etcdctlLock(endpoints, "/frc/job");
        const LockQueueModel* queue = window.lockWatch()->queue();
        QTRY_VERIFY_WITH_TIMEOUT(test::selectLock(window, "/frc/job"), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 2, UiTimeoutMs);
        auto third = test::etcdctlLock(endpoints, "/frc/job");
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 3, UiTimeoutMs);
        const LockQueueModel::Entry named = queue->entryAt(1);
        const QString next = queue->entryAt(2).keyText;
        const qint64 thirdLease = queue->entryAt(2).lease;
        auto* queueTable = window.findChild<QTableView*>("queueTable");
        queueTable->setCurrentIndex(queueTable->model()->index(1, 0));

        // Named as a waiter; the holder then releases, and the text says ours holds now.
        bool followed = false; // the text changed while the confirmation was open
        QString asOpened;
        QString afterTheHandoff;
        bool handled = false;
        auto poll = whenModal(
            [&](QWidget* modal) {
                auto* box = qobject_cast<QMessageBox*>(modal);
                if (!box) {
                    modal->close();
                    return;
                }
                asOpened = box->text();
                first->signal(SIGINT); // etcdctl releases: the named key holds
                followed = QTest::qWaitFor(
                    [&] { return box->text().contains("holds the lock now"); }, UiTimeoutMs);
                afterTheHandoff = box->text();
                saveScreenshot(*box, "force_release_followed.png");
                QTest::mouseClick(buttonNamed(*box, "Revoke lease"), Qt::LeftButton);
            },
            handled);
        window.findChild<QAction*>("forceReleaseAction")->trigger();
        QVERIFY(handled);
        QVERIFY(followed);
        QVERIFY2(asOpened.startsWith(named.keyText + " waits now, number 1 in the queue;"),
                 qPrintable(asOpened));
        QVERIFY2(afterTheHandoff.startsWith(named.keyText + " holds the lock now."),
                 qPrintable(afterTheHandoff));
        QVERIFY2(afterTheHandoff.contains("The next waiter, " + next + ", becomes the holder."),
                 qPrintable(afterTheHandoff));
        QVERIFY(afterTheHandoff.contains("Revoke lease " + named.leaseHex + "."));
        // The lease named is the one revoked; the next waiter's lives on and holds.
        QTRY_COMPARE_WITH_TIMEOUT(leaseTtl(named.lease), int64_t(-1), UiTimeoutMs);
        QVERIFY(leaseTtl(thirdLease) > 0);
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 1, UiTimeoutMs);
        QCOMPARE(queue->entryAt(0).keyText, next);

        // Named as the holder, then gone: the confirmation refuses.
        queueTable->setCurrentIndex(queueTable->model()->index(0, 0));
        QSignalSpy sent(window.workspace()->lockActions(), &LockActions::forceReleasing);
        QString whenGone;
        bool refused = false;
        poll = whenModal(
            [&](QWidget* modal) {
                auto* box = qobject_cast<QMessageBox*>(modal);
                if (!box) {
                    modal->close();
                    return;
                }
                third->signal(SIGINT);
                followed = QTest::qWaitFor(
                    [&] { return box->text().contains("no longer in the queue"); }, UiTimeoutMs);
                whenGone = box->text();
                QPushButton* revoke = buttonNamed(*box, "Revoke lease");
                refused = !revoke->isEnabled();
                saveScreenshot(*box, "force_release_refused.png");
                QTest::mouseClick(revoke, Qt::LeftButton); // disabled: nothing happens
                box->reject();
            },
            handled);
        window.findChild<QAction*>("forceReleaseAction")->trigger();
        QVERIFY(handled);
        QVERIFY(followed);
        QVERIFY2(whenGone.startsWith(next + " is no longer in the queue"), qPrintable(whenGone));
        QVERIFY(refused);
        QCOMPARE(sent.size(), 0); // forceRelease() emits it at once: the dialog has returned
        for (auto* etcdctl : {first.get(), second.get(), third.get()}) {
            etcdctl->signal(SIGKILL);
            etcdctl->wait(std::chrono::seconds(10));
        }
    }

private:
    // The lease's remaining TTL in seconds as etcd answers it; -1 once it is gone.
    int64_t leaseTtl(int64_t lease) {
        etcd::pb::LeaseTimeToLiveRequest request;
        request.set_id(lease);
        const auto answered = etcd::call(etcd_.client(), &etcd::Client::leaseTimeToLive, request);
        return answered ? answered.value().ttl() : -2;
    }

    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(ForceReleaseConfirmationIntegrationTest)
#include "force_release_confirmation_integration_test.moc"
