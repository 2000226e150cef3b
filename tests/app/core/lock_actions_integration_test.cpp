// LockActions against a real etcd, contending with real `etcdctl lock` processes.
#include "app/core/lock_actions.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "process/local_cluster.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "support/stopped_member.h"

#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <set>

using namespace lockscope;

class LockActionsIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(etcd_.start(), etcd_.error().c_str()); }
    void cleanupTestCase() { etcd_.stop(); }

    void acquiresWaitsBehindEtcdctlAndReleases() {
        auto holder = etcdctlLock("/actions/a");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        LockActions actions(etcd_.client());
        QSignalSpy acquired(&actions, &LockActions::acquired);
        actions.acquire("/actions/a", 10, false);
        QTRY_COMPARE(keysUnder("/actions/a/").size(), 2);
        QTest::qWait(300);
        QCOMPARE(acquired.size(), 0); // etcdctl still holds it
        holder->signal(SIGTERM);      // etcdctl unlocks
        QTRY_COMPARE(acquired.size(), 1);
        const QByteArray key = acquired[0][1].toByteArray();
        QVERIFY(key.startsWith("/actions/a/"));
        QVERIFY(acquired[0][2].toLongLong() > 0);
        QCOMPARE(keysUnder("/actions/a/"), QList<QByteArray>{key});

        QSignalSpy released(&actions, &LockActions::released);
        actions.release("/actions/a");
        QTRY_COMPARE(released.size(), 1);
        QTRY_VERIFY(keysUnder("/actions/a/").isEmpty());
        QVERIFY(!actions.busy("/actions/a"));
    }

    void tryOnAHeldLockSaysSoAndLeavesNoKey() {
        auto holder = etcdctlLock("/actions/b");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        LockActions actions(etcd_.client());
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        QSignalSpy failed(&actions, &LockActions::acquireFailed);
        actions.acquire("/actions/b", 10, true);
        QTRY_COMPARE(notAcquired.size(), 1);
        QVERIFY(notAcquired[0][1].toString().contains("held by someone else"));
        QCOMPARE(failed.size(), 0); // an answer, not a failure
        QCOMPARE(keysUnder("/actions/b/").size(), 1);
        holder->signal(SIGTERM);
        QVERIFY(holder->wait(std::chrono::seconds(10)));
    }

    // Names are displayKey text: "\xff" written so is the byte, the lock etcdctl would take.
    void anEscapedNameTakesTheLockOfItsExactBytes() {
        LockActions actions(etcd_.client());
        QSignalSpy acquired(&actions, &LockActions::acquired);
        actions.acquire("/actions/\\xff", 10, false);
        QTRY_COMPARE(acquired.size(), 1);
        QCOMPARE(acquired[0][0].toString(), QString("/actions/\\xff"));
        const QByteArray key = acquired[0][1].toByteArray();
        QVERIFY(key.startsWith("/actions/\xff/"));
        QCOMPARE(keysUnder("/actions/\xff/"), QList<QByteArray>{key});
        QVERIFY(actions.busy("/actions/\\xff"));
        QCOMPARE(actions.keyOf("/actions/\\xff"),
                 "/actions/\\xff/" + key.mid(11)); // after "/actions/" 0xff "/"
        actions.release("/actions/\\xff");
        QTRY_VERIFY(keysUnder("/actions/\xff/").isEmpty());
    }

    void aBadEscapeOrATtlEtcdRefusesIsNotAcquiredBeforeAnyCall() {
        LockActions actions(etcd_.client());
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/\\q", 10, false);
        actions.acquire("/actions/h", 9'000'000'001, false);
        QCOMPARE(notAcquired.size(), 2); // at once: nothing went to etcd
        QVERIFY(notAcquired[0][1].toString().startsWith("bad escape"));
        QVERIFY(notAcquired[1][1].toString().contains("above etcd's limit of 9000000000 s"));
        QVERIFY(!actions.busy("/actions/h"));
        QVERIFY(keysUnder("/actions/h/").isEmpty());
    }

    void cancellingAWaitLeavesNoKey() {
        auto holder = etcdctlLock("/actions/c");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        LockActions actions(etcd_.client());
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/c", 10, false);
        QTRY_COMPARE(keysUnder("/actions/c/").size(), 2);
        actions.cancel("/actions/c");
        QTRY_COMPARE(notAcquired.size(), 1);
        QTRY_COMPARE(keysUnder("/actions/c/").size(), 1);
        holder->signal(SIGTERM);
        QVERIFY(holder->wait(std::chrono::seconds(10)));
    }

    void pausedKeepaliveLosesTheLockToTheNextWaiter() {
        LockActions actions(etcd_.client());
        QSignalSpy acquired(&actions, &LockActions::acquired);
        QSignalSpy lost(&actions, &LockActions::lost);
        actions.acquire("/actions/d", 2, false);
        QTRY_COMPARE(acquired.size(), 1);
        auto next = etcdctlLock("/actions/d");
        QTRY_COMPARE(keysUnder("/actions/d/").size(), 2);
        actions.setPaused("/actions/d", true);
        QVERIFY(actions.paused("/actions/d"));
        QVERIFY(next->readLine(std::chrono::seconds(8))); // etcdctl prints its key once it holds
        QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 3000);
        // Said as what it is, not as a connection that failed.
        QVERIFY2(lost[0][1].toString().startsWith("lost while its keepalive was paused, as "
                                                  "asked: "),
                 qPrintable(lost[0][1].toString()));
        next->signal(SIGTERM);
        QVERIFY(next->wait(std::chrono::seconds(10)));
    }

    // A lock lost to `etcdctl lease revoke` is no longer ours, and acquiring it again puts a key
    // in etcd and takes it.
    void aRevokedLeaseIsLostAndTheSameNameIsThenReallyAcquired() {
        LockActions actions(etcd_.client());
        QSignalSpy acquired(&actions, &LockActions::acquired);
        QSignalSpy lost(&actions, &LockActions::lost);
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/m", 30, false);
        QTRY_COMPARE(acquired.size(), 1);
        const OwnLock held = *actions.ownLock("/actions/m");
        QCOMPARE(held.state, OwnLock::State::Held);
        QCOMPARE(held.key, acquired[0][1].toByteArray());
        QCOMPARE(held.fencingToken, acquired[0][2].toLongLong());
        const auto revoked = test::etcdctl(etcd_.cluster().endpointList(),
                                           {"lease", "revoke", etcd::leaseHex(held.lease)});
        QVERIFY2(revoked.exitCode == 0, revoked.output.c_str());

        QTRY_COMPARE(lost.size(), 1);
        QCOMPARE(actions.ownLock("/actions/m")->state, OwnLock::State::Lost);
        QVERIFY(!actions.ownLock("/actions/m")->detail.isEmpty());
        QVERIFY(!actions.busy("/actions/m"));
        QVERIFY(keysUnder("/actions/m/").isEmpty());

        actions.acquire("/actions/m", 30, false);
        QTRY_COMPARE(acquired.size(), 2);
        QCOMPARE(notAcquired.size(), 0);
        const OwnLock again = *actions.ownLock("/actions/m");
        QCOMPARE(again.state, OwnLock::State::Held);
        QVERIFY(again.lease != held.lease);
        QCOMPARE(keysUnder("/actions/m/"), QList<QByteArray>{again.key});
        QTest::qWait(300);
        QCOMPARE(lost.size(), 1); // the old hold's end is not taken for the new one's
        actions.release("/actions/m");
        QCOMPARE(actions.ownLock("/actions/m")->state, OwnLock::State::Releasing);
        QTRY_COMPARE(actions.ownLock("/actions/m")->state, OwnLock::State::Released);
        QTRY_VERIFY(keysUnder("/actions/m/").isEmpty());
    }

    void releasingAWaitCancelsItAndAcquiringTwiceSaysSo() {
        auto holder = etcdctlLock("/actions/n");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        LockActions actions(etcd_.client());
        QSignalSpy released(&actions, &LockActions::released);
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/n", 10, false);
        QCOMPARE(actions.ownLock("/actions/n")->state, OwnLock::State::Waiting);
        actions.acquire("/actions/n", 10, false);
        QCOMPARE(notAcquired.size(), 1);
        QVERIFY(notAcquired[0][1].toString().contains("already waiting for or holding"));
        QCOMPARE(actions.ownLock("/actions/n")->state, OwnLock::State::Waiting);
        QTRY_COMPARE(keysUnder("/actions/n/").size(), 2);
        actions.release("/actions/n");
        QTRY_COMPARE(notAcquired.size(), 2);
        QCOMPARE(actions.ownLock("/actions/n")->state, OwnLock::State::Cancelled);
        QCOMPARE(released.size(), 0);
        QTRY_COMPARE(keysUnder("/actions/n/").size(), 1);
        holder->signal(SIGTERM);
        QVERIFY(holder->wait(std::chrono::seconds(10)));
    }

    void forceReleaseRevokesTheHoldersLease() {
        auto holder = etcdctlLock("/actions/e");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        auto kv = onlyKey("/actions/e/");
        const ForceReleasePlan plan{QByteArray::fromStdString(kv.key()), kv.lease(),
                                    kv.create_revision()};
        LockActions actions(etcd_.client());
        QSignalSpy done(&actions, &LockActions::forceReleased);
        actions.forceRelease(plan);
        QTRY_COMPARE(done.size(), 1);
        QCOMPARE(done[0][1].toString(), QString("lease revoked"));
        QTRY_VERIFY(keysUnder("/actions/e/").isEmpty());
        holder->signal(SIGKILL);
        holder->wait(std::chrono::seconds(10));
    }

    void forceReleaseDeletesALeaselessKeyOnlyIfUnchanged() {
        etcd::pb::PutRequest put;
        put.set_key("/actions/f/stray");
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::put, put).ok());
        auto kv = onlyKey("/actions/f/");
        const ForceReleasePlan stale{QByteArray::fromStdString(kv.key()), 0,
                                     kv.create_revision() - 1};
        LockActions actions(etcd_.client());
        QSignalSpy done(&actions, &LockActions::forceReleased);
        actions.forceRelease(stale);
        QTRY_COMPARE(done.size(), 1);
        QVERIFY(done[0][1].toString().contains("changed since you looked"));
        QCOMPARE(keysUnder("/actions/f/").size(), 1);
        actions.forceRelease(
            ForceReleasePlan{QByteArray::fromStdString(kv.key()), 0, kv.create_revision()});
        QTRY_COMPARE(done.size(), 2);
        QCOMPARE(done[1][1].toString(), QString("key deleted"));
        QVERIFY(keysUnder("/actions/f/").isEmpty());
    }

    void destroyingTheActionsReleasesWhatTheyHold() {
        {
            LockActions actions(etcd_.client());
            QSignalSpy acquired(&actions, &LockActions::acquired);
            actions.acquire("/actions/g", 10, false);
            QTRY_COMPARE(acquired.size(), 1);
        }
        QTRY_VERIFY(keysUnder("/actions/g/").isEmpty());
    }

    void aWaitWhoseLeaseIsRevokedRetriesWithANewSessionAndAcquires() {
        auto holder = etcdctlLock("/actions/h");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        const QByteArray holderKey = QByteArray::fromStdString(onlyKey("/actions/h/").key());
        LockActions actions(etcd_.client());
        QSignalSpy retrying(&actions, &LockActions::retrying);
        QSignalSpy acquiring(&actions, &LockActions::acquiring);
        QSignalSpy acquired(&actions, &LockActions::acquired);
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/h", 10, false);
        QTRY_COMPARE(keysUnder("/actions/h/").size(), 2);
        const int64_t firstLease = leaseOfOtherThan("/actions/h/", holderKey);
        etcd::pb::LeaseRevokeRequest revoke;
        revoke.set_id(firstLease);
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::leaseRevoke, revoke).ok());

        QTRY_COMPARE(retrying.size(), 1);
        QCOMPARE(retrying[0][0].toString(), QString("/actions/h"));
        QCOMPARE(retrying[0][1].toInt(), 1);
        QVERIFY(retrying[0][2].toDouble() >= 0 && retrying[0][2].toDouble() <= 0.1);
        QVERIFY2(retrying[0][3].toString().contains("deleted"),
                 qPrintable(retrying[0][3].toString()));
        QTRY_VERIFY(keysUnder("/actions/h/").size() == 2 &&
                    leaseOfOtherThan("/actions/h/", holderKey) != firstLease);
        // Queued again: no longer "retrying in 0.1 s", and waiting is said anew.
        QTRY_VERIFY2(actions.ownLock("/actions/h")->detail.isEmpty(),
                     qPrintable(actions.ownLock("/actions/h")->detail));
        QCOMPARE(acquiring.size(), 2);
        QCOMPARE(notAcquired.size(), 0);
        QCOMPARE(acquired.size(), 0);
        holder->signal(SIGTERM);
        QTRY_COMPARE(acquired.size(), 1);
        QVERIFY(acquired[0][1].toByteArray() != holderKey);
        QCOMPARE(onlyKey("/actions/h/").key(), acquired[0][1].toByteArray().toStdString());
        QVERIFY(onlyKey("/actions/h/").lease() != firstLease);
        QTRY_VERIFY(holder->wait(std::chrono::milliseconds(0)));
    }

    void cancellingBetweenTwoAttemptsEndsTheWait() {
        auto holder = etcdctlLock("/actions/j");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        const QByteArray holderKey = QByteArray::fromStdString(onlyKey("/actions/j/").key());
        LockActions actions(etcd_.client());
        QSignalSpy retrying(&actions, &LockActions::retrying);
        QSignalSpy notAcquired(&actions, &LockActions::notAcquired);
        actions.acquire("/actions/j", 10, false);
        QTRY_COMPARE(keysUnder("/actions/j/").size(), 2);
        // Until a delay is long enough to cancel in: full jitter makes the first two shorter
        // than 0.2 s and each later one so with odds 1/2, 1/4, ... (one rehearsal saw 6 in a row).
        for (int failures = 1; failures <= 12; ++failures) {
            etcd::pb::LeaseRevokeRequest revoke;
            revoke.set_id(leaseOfOtherThan("/actions/j/", holderKey));
            QVERIFY(etcd::call(etcd_.client(), &etcd::Client::leaseRevoke, revoke).ok());
            QTRY_COMPARE(retrying.size(), failures);
            if (retrying.last()[2].toDouble() >= 0.2)
                break;
            QTRY_COMPARE(keysUnder("/actions/j/").size(), 2);
        }
        QVERIFY(retrying.last()[2].toDouble() >= 0.2);
        actions.cancel("/actions/j");
        QCOMPARE(notAcquired.size(), 1);
        QVERIFY(!actions.busy("/actions/j"));
        QTest::qWait(static_cast<int>(retrying.last()[2].toDouble() * 1000) + 300);
        QCOMPARE(keysUnder("/actions/j/"), QList<QByteArray>{holderKey}); // it did not come back
        holder->signal(SIGTERM);
        QVERIFY(holder->wait(std::chrono::seconds(10)));
    }

    void releaseAllSaysWhenEtcdHasAnsweredAndLeavesNothing() {
        auto holder = etcdctlLock("/actions/k-waiting");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        const auto before = leases();
        for (int round = 0; round < 10; ++round) {
            LockActions actions(etcd_.client());
            QSignalSpy acquired(&actions, &LockActions::acquired);
            actions.acquire("/actions/k-held", 10, false);
            actions.acquire("/actions/k-waiting", 10, false);
            QTRY_COMPARE(acquired.size(), 1);
            QTRY_COMPARE(keysUnder("/actions/k-waiting/").size(), 2);
            actions.acquire("/actions/k-granting", 10, false); // its lease is still being granted
            std::atomic<bool> released = false;
            actions.releaseAll([&] { released = true; });
            QTRY_VERIFY(released.load());
            // Right then: nothing left to expire later.
            QVERIFY(keysUnder("/actions/k-held/").isEmpty());
            QCOMPARE(keysUnder("/actions/k-waiting/").size(), 1);
            QVERIFY(keysUnder("/actions/k-granting/").isEmpty());
            QCOMPARE(leases(), before);
        }
        holder->signal(SIGTERM);
        QVERIFY(holder->wait(std::chrono::seconds(10)));
    }

    // etcd not answering when Release is pressed: the lock is Releasing, not Released, until
    // etcd answers and the lease is revoked, which is asked again until it is; the key goes
    // then, not when its TTL runs out. etcd is paused (SIGSTOP), not stopped: a stopped member's
    // port may be taken by another test's etcd meanwhile, which would answer the revoke with
    // "lease not found", as good as revoked.
    void aReleaseEtcdDoesNotConfirmIsAskedAgainUntilItDoes() {
        LockActions actions(etcd_.client());
        QSignalSpy acquired(&actions, &LockActions::acquired);
        QSignalSpy released(&actions, &LockActions::released);
        QSignalSpy unconfirmed(&actions, &LockActions::releaseUnconfirmed);
        actions.acquire("/actions/down", 60, false);
        QTRY_COMPARE(acquired.size(), 1);

        {
            // Returns once every thread of etcd has stopped: a thread still running would
            // answer the release. Resumed at the end of the block, passed or failed.
            const test::StoppedMember paused(etcd_.cluster(), 0);
            actions.release("/actions/down");
            QCOMPARE(actions.ownLock("/actions/down")->state, OwnLock::State::Releasing);
            const QDateTime asked = actions.ownLock("/actions/down")->since;
            // Each attempt may take the client's whole command timeout to fail (a member that stops
            // is not always refused at once), and a loaded machine (ASan, tests beside it) adds to
            // it: 7 s alone, over 30 s once with a build beside the suite.
            QTRY_COMPARE_WITH_TIMEOUT(unconfirmed.size(), 1, 60000);
            QTRY_VERIFY_WITH_TIMEOUT(
                actions.ownLock("/actions/down")->detail.contains("(attempt 2)"), 60000);
            QCOMPARE(actions.ownLock("/actions/down")->since,
                     asked); // releasing since it was asked
            QCOMPARE(actions.ownLock("/actions/down")->state, OwnLock::State::Releasing);
            QVERIFY2(actions.ownLock("/actions/down")->detail.startsWith("not confirmed"),
                     qPrintable(actions.ownLock("/actions/down")->detail));
            QCOMPARE(released.size(), 0);
        }
        QVERIFY(etcd_.cluster().waitReady().ok());
        QTRY_COMPARE_WITH_TIMEOUT(released.size(), 1, 20000); // backoffs of at most 5 s
        QCOMPARE(actions.ownLock("/actions/down")->state, OwnLock::State::Released);
        QVERIFY(keysUnder("/actions/down/").isEmpty());
        QCOMPARE(unconfirmed.size(), 1); // said once, not at every attempt
    }

private:
    std::set<int64_t> leases() {
        auto listed =
            etcd::call(etcd_.client(), &etcd::Client::leaseLeases, etcd::pb::LeaseLeasesRequest{});
        std::set<int64_t> ids;
        if (listed)
            for (const auto& lease : listed->leases())
                ids.insert(lease.id());
        return ids;
    }
    int64_t leaseOfOtherThan(const std::string& prefix, const QByteArray& key) {
        const auto response = range(prefix);
        for (const auto& kv : response.kvs())
            if (QByteArray::fromStdString(kv.key()) != key)
                return kv.lease();
        return 0;
    }
    std::unique_ptr<process::ChildProcess> etcdctlLock(const std::string& name) {
        return test::etcdctlLock(etcd_.cluster().endpointList(), name);
    }
    etcd::pb::RangeResponse range(const std::string& prefix) {
        etcd::pb::RangeRequest r;
        r.set_key(prefix);
        r.set_range_end(etcd::prefixRangeEnd(prefix));
        auto got = etcd::call(etcd_.client(), &etcd::Client::range, r);
        return got ? got.value() : etcd::pb::RangeResponse{};
    }
    QList<QByteArray> keysUnder(const std::string& prefix) {
        QList<QByteArray> keys;
        const auto response = range(prefix);
        for (const auto& kv : response.kvs())
            keys << QByteArray::fromStdString(kv.key());
        return keys;
    }
    mvccpb::KeyValue onlyKey(const std::string& prefix) {
        auto r = range(prefix);
        return r.kvs_size() == 1 ? r.kvs(0) : mvccpb::KeyValue{};
    }

    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockActionsIntegrationTest)
#include "lock_actions_integration_test.moc"
