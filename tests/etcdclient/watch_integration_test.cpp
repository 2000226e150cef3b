#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/watch_log.h"

using namespace etcd;
using lockscope::test::EtcdTest;
using lockscope::test::WatchLog;

namespace {

class WatchIntegrationTest : public EtcdTest {
protected:
    pb::WatchCreateRequest prefixWatch(int64_t startRevision = 0) const {
        pb::WatchCreateRequest w;
        w.set_key(prefix());
        w.set_range_end(prefixRangeEnd(prefix()));
        w.set_prev_kv(true);
        w.set_start_revision(startRevision);
        return w;
    }
    int64_t put(const std::string& key, const std::string& value) {
        pb::PutRequest r;
        r.set_key(key);
        r.set_value(value);
        auto p = call(*client, &Client::put, r);
        EXPECT_TRUE(p) << p.error().message;
        return p ? p->header().revision() : 0;
    }
    int64_t del(const std::string& key) {
        pb::DeleteRangeRequest r;
        r.set_key(key);
        auto d = call(*client, &Client::deleteRange, r);
        EXPECT_TRUE(d);
        return d ? d->header().revision() : 0;
    }
};

TEST_F(WatchIntegrationTest, SeesPutsAndDeletesInRevisionOrderWithPrevKv) {
    WatchLog log;
    auto handle = client->watch(prefixWatch(), log.callbacks());
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.created; }));

    put(prefix() + "a", "1");
    put(prefix() + "a", "2");
    put(prefix() + "b", "3");
    del(prefix() + "a");
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.events.size() >= 4; }));

    std::lock_guard lock(log.mutex);
    ASSERT_EQ(log.events.size(), 4u);
    for (std::size_t i = 1; i < log.events.size(); ++i)
        EXPECT_LT(log.events[i - 1].kv().mod_revision(), log.events[i].kv().mod_revision());
    EXPECT_EQ(log.events[0].type(), mvccpb::Event::PUT);
    EXPECT_FALSE(log.events[0].has_prev_kv());
    EXPECT_EQ(log.events[1].prev_kv().value(), "1");
    EXPECT_EQ(log.events[3].type(), mvccpb::Event::DELETE);
    EXPECT_EQ(log.events[3].kv().key(), prefix() + "a");
    EXPECT_EQ(log.events[3].prev_kv().value(), "2");
    EXPECT_FALSE(log.end.has_value());
}

TEST_F(WatchIntegrationTest, ManyWatchersShareOneStreamAndEachSeesItsOwnKeys) {
    constexpr int watchers = 20;
    std::vector<std::unique_ptr<WatchLog>> logs;
    std::vector<WatchHandle> handles;
    for (int i = 0; i < watchers; ++i) {
        logs.push_back(std::make_unique<WatchLog>());
        pb::WatchCreateRequest w;
        w.set_key(prefix() + "w" + std::to_string(i));
        handles.push_back(client->watch(w, logs.back()->callbacks()));
    }
    for (auto& l : logs)
        ASSERT_TRUE(l->waitFor([](auto& x) { return x.created; }));
    for (int i = 0; i < watchers; ++i)
        put(prefix() + "w" + std::to_string(i), std::to_string(i));
    for (int i = 0; i < watchers; ++i) {
        ASSERT_TRUE(logs[i]->waitFor([](auto& x) { return !x.events.empty(); })) << i;
        std::lock_guard lock(logs[i]->mutex);
        ASSERT_EQ(logs[i]->events.size(), 1u);
        EXPECT_EQ(logs[i]->events[0].kv().value(), std::to_string(i));
    }
}

TEST_F(WatchIntegrationTest, StartRevisionReplaysHistory) {
    const int64_t first = put(prefix() + "h", "1");
    put(prefix() + "h", "2");
    WatchLog log;
    auto handle = client->watch(prefixWatch(first), log.callbacks());
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.events.size() >= 2; }));
    std::lock_guard lock(log.mutex);
    EXPECT_EQ(log.events[0].kv().value(), "1");
    EXPECT_EQ(log.events[1].kv().value(), "2");
}

TEST_F(WatchIntegrationTest, CancelledWatchDeliversNothingMore) {
    WatchLog log;
    auto handle = client->watch(prefixWatch(), log.callbacks());
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.created; }));
    handle.cancel();
    put(prefix() + "after", "x");
    // A second watch proves the put was delivered by the server meanwhile.
    WatchLog witness;
    auto second = client->watch(prefixWatch(), witness.callbacks());
    ASSERT_TRUE(witness.waitFor([](auto& l) { return l.created; }));
    put(prefix() + "after2", "y");
    ASSERT_TRUE(witness.waitFor([](auto& l) { return !l.events.empty(); }));
    std::lock_guard lock(log.mutex);
    EXPECT_TRUE(log.events.empty());
    EXPECT_FALSE(log.end.has_value());
}

TEST_F(WatchIntegrationTest, CompactionPastTheStartRevisionEndsTheWatchWithCompacted) {
    const int64_t old = put(prefix() + "c", "1");
    put(prefix() + "c", "2");
    const int64_t latest = put(prefix() + "c", "3");
    auto compacted =
        lockscope::test::etcdctl(cluster().endpointList(), {"compact", std::to_string(latest)});
    ASSERT_EQ(compacted.exitCode, 0) << compacted.output;

    WatchLog log;
    auto handle = client->watch(prefixWatch(old), log.callbacks());
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.end.has_value(); }));
    std::lock_guard lock(log.mutex);
    EXPECT_EQ(log.end->code, ErrorCode::Compacted) << log.end->message;
    EXPECT_EQ(log.end->compactRevision, latest);
    EXPECT_TRUE(log.events.empty());
}

TEST_F(WatchIntegrationTest, ProgressRequestReportsTheCurrentRevisionToQuietWatchers) {
    WatchLog log;
    auto handle = client->watch(prefixWatch(), log.callbacks());
    ASSERT_TRUE(log.waitFor([](auto& l) { return l.created; }));
    // A write outside the watched prefix moves the store's revision without an event for us.
    pb::PutRequest elsewhere;
    elsewhere.set_key("/elsewhere/" + prefix());
    auto written = call(*client, &Client::put, elsewhere);
    ASSERT_TRUE(written);
    client->requestWatchProgress();
    ASSERT_TRUE(log.waitFor([&](auto& l) {
        return !l.responseRevisions.empty() &&
               l.responseRevisions.back() >= written->header().revision();
    }));
    std::lock_guard lock(log.mutex);
    EXPECT_TRUE(log.events.empty());
}

} // namespace
