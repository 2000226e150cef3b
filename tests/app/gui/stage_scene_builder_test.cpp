// The stage's scene of a lock monitor's state, from plain values.
#include "app/gui/stage_scene_builder.h"
#include "support/qtest_registry.h"

#include <QtTest>

using namespace lockscope;

namespace {

etcd::LockKey keyOf(const std::string& key, int64_t lease, int64_t createRevision) {
    etcd::LockKey k;
    k.key = key;
    k.lease = lease;
    k.createRevision = createRevision;
    return k;
}

} // namespace

class StageSceneBuilderTest : public QObject {
    Q_OBJECT
private slots:
    void aLanePerLockAndATokenPerKeyInQueueOrder() {
        etcd::LockMonitorState state;
        state.locks["/l/b"] = etcd::LockQueue{
            "/l/b",
            {keyOf("/l/b/694d7a3b2c1e4e5f", 0x694d7a3b2c1e4e5f, 7), keyOf("/l/b/abc", 0xabc, 9)}};
        state.locks["/l/a"] = etcd::LockQueue{"/l/a", {keyOf("/l/a/1", 0x1, 3)}};
        const StageScene scene = stageSceneOf(state, {}, 100);
        QCOMPARE(scene.lanes.size(), std::size_t(2));
        QCOMPARE(scene.lanes[0].lock, QString("/l/a"));
        QCOMPARE(scene.lanes[1].lock, QString("/l/b"));
        const auto& b = scene.lanes[1].tokens;
        QCOMPARE(b.size(), std::size_t(2));
        QCOMPARE(b[0].key, QString("/l/b/694d7a3b2c1e4e5f"));
        QCOMPARE(b[0].fencingToken, qint64(7));
        QCOMPARE(b[0].leaseShort, QString("…4e5f"));
        QCOMPARE(b[1].leaseShort, QString("abc")); // short already
        QCOMPARE(b[1].fencingToken, qint64(9));
        QVERIFY(!b[0].ours);
        QCOMPARE(scene.lanesLeftOut, 0);
    }

    void theTtlEndsWhenTheLastLookupSaysAndUnknownWithoutOne() {
        etcd::LockMonitorState state;
        state.locks["/l"] = etcd::LockQueue{
            "/l", {keyOf("/l/a", 10, 3), keyOf("/l/b", 11, 4), keyOf("/l/c", 12, 5)}};
        const auto fetched = std::chrono::steady_clock::now();
        state.leases[10] = {6, 10, fetched, false};
        state.leases[11] = {-1, 10, fetched, false}; // gone
        const StageScene scene = stageSceneOf(state, {}, 100);
        const auto& tokens = scene.lanes[0].tokens;
        QCOMPARE(*tokens[0].ttlEndsAt, fetched + std::chrono::seconds(6));
        QCOMPARE(tokens[0].grantedSeconds, 10.0);
        QCOMPARE(*tokens[1].ttlEndsAt, fetched); // nothing left
        QVERIFY(!tokens[2].ttlEndsAt);
    }

    void ourKeysAreMarkedAndSayWhetherPaused() {
        etcd::LockMonitorState state;
        state.locks["/l"] = etcd::LockQueue{"/l", {keyOf("/l/a", 10, 3), keyOf("/l/b", 11, 4)}};
        const StageScene scene = stageSceneOf(state, {{QByteArray("/l/b"), true}}, 100);
        QVERIFY(!scene.lanes[0].tokens[0].ours);
        QVERIFY(scene.lanes[0].tokens[1].ours);
        QVERIFY(scene.lanes[0].tokens[1].paused);
    }

    void thePickedSessionsKeysAreMarked() {
        etcd::LockMonitorState state;
        state.locks["/l"] = etcd::LockQueue{"/l", {keyOf("/l/a", 10, 3), keyOf("/l/b", 11, 4)}};
        state.locks["/m"] = etcd::LockQueue{"/m", {keyOf("/m/b", 11, 5), keyOf("/m/c", 0, 6)}};
        const StageScene byLease = stageSceneOf(state, {}, 100, etcd::SessionId{11, {}});
        QVERIFY(!byLease.lanes[0].tokens[0].picked);
        QVERIFY(byLease.lanes[0].tokens[1].picked);
        QVERIFY(byLease.lanes[1].tokens[0].picked);
        QVERIFY(!byLease.lanes[1].tokens[1].picked);
        // A key without a lease is a session of its own.
        const StageScene byKey = stageSceneOf(state, {}, 100, etcd::SessionId{0, "/m/c"});
        QVERIFY(!byKey.lanes[1].tokens[0].picked);
        QVERIFY(byKey.lanes[1].tokens[1].picked);
        QVERIFY(!stageSceneOf(state, {}, 100).lanes[0].tokens[1].picked);
    }

    void lanesPastTheMostAreCounted() {
        etcd::LockMonitorState state;
        for (int i = 0; i < 5; ++i) {
            const std::string name = "/l/" + std::to_string(i);
            state.locks[name] = etcd::LockQueue{name, {keyOf(name + "/k", 1, i + 1)}};
        }
        const StageScene scene = stageSceneOf(state, {}, 3);
        QCOMPARE(scene.lanes.size(), std::size_t(3));
        QCOMPARE(scene.lanesLeftOut, 2);
    }

    void aKeyWithoutALeaseSaysSo() {
        QCOMPARE(shortLease(0), QString());
        QCOMPARE(shortLease(0x12345), QString("…2345"));
    }
};

LOCKSCOPE_QTEST_MAIN(StageSceneBuilderTest)
#include "stage_scene_builder_test.moc"
