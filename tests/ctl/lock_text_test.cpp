#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "app/core/lock_keys_model.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>

using namespace lockscope;

TEST(KeyTextTest, Utf8StaysAndEverythingElseIsEscapedReversibly) {
    EXPECT_EQ(displayKey("/locks/a"), "/locks/a");
    EXPECT_EQ(displayKey("/schlöss-🔒/1"), "/schlöss-🔒/1");
    EXPECT_EQ(displayKey(std::string("/b\x00\xff\n", 5)), "/b\\x00\\xff\\x0a");
    EXPECT_EQ(displayKey("a\\x00"), "a\\\\x00"); // a literal backslash cannot pass as an escape
    EXPECT_EQ(displayKey("\xc3"), "\\xc3");      // a cut-off UTF-8 sequence
    EXPECT_EQ(displayKey("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate is not UTF-8
}

TEST(JsonWriterTest, WritesNestedValuesAndExactInt64) {
    JsonWriter json;
    json.beginObject()
        .key("lease")
        .value(int64_t{7587899102064447241})
        .key("list")
        .beginArray()
        .value("a\"b\\")
        .value(true)
        .null()
        .beginObject()
        .endObject()
        .endArray()
        .key("ms")
        .value(1.5)
        .endObject();
    EXPECT_EQ(json.text(),
              R"({"lease":7587899102064447241,"list":["a\"b\\",true,null,{}],"ms":1.500})");
}

TEST(JsonWriterTest, ControlCharactersAreEscaped) {
    JsonWriter json;
    json.value(std::string("\x01\t", 2));
    EXPECT_EQ(json.text(), R"("\u0001\t")");
}

TEST(LockJsonTest, SnapshotNamesPositionsAndPredecessors) {
    etcd::LockMonitorState state;
    state.revision = 9;
    etcd::LockQueue queue;
    queue.name = "/l";
    queue.keys = {{"/l/a", 0xa, 5, 5, "", {}, {}}, {"/l/b", 0xb, 6, 6, "", {}, {}}};
    state.locks["/l"] = queue;
    state.leases[0xa] = {7, 10, {}, false};
    const std::string json = lockStateJson(state);
    EXPECT_NE(json.find(R"("revision":9)"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("holder":{"key":"/l/a","lease":10,"lease_hex":"a")"), std::string::npos)
        << json;
    EXPECT_NE(json.find(R"("ttl":7,"granted_ttl":10)"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("position":1,"waits_for":"/l/a")"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("ttl":null)"), std::string::npos) << json;
}

TEST(LockKeysModelTest, RowsFollowQueueOrderAndTheModelIsWellFormed) {
    lockscope::LockKeysModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    etcd::LockMonitorState state;
    etcd::LockQueue queue;
    queue.name = "/l";
    queue.keys = {{"/l/a", 0xa, 5, 5, "", {}, {}}, {"/l/b", 0xb, 6, 6, "", {}, {}}};
    state.locks["/l"] = queue;
    const auto now = std::chrono::steady_clock::now();
    state.leases[0xa] = {10, 10, now - std::chrono::milliseconds(3500), false};
    model.setState(state, now);
    ASSERT_EQ(model.rowCount(), 2);
    auto cell = [&](int row, int column) { return model.index(row, column).data().toString(); };
    EXPECT_EQ(cell(0, lockscope::LockKeysModel::Position), "holder");
    EXPECT_EQ(cell(1, lockscope::LockKeysModel::Position), "1");
    EXPECT_EQ(cell(1, lockscope::LockKeysModel::WaitsFor), "/l/a");
    EXPECT_EQ(cell(0, lockscope::LockKeysModel::Ttl), "7 / 10 s"); // counted down locally
    EXPECT_EQ(cell(1, lockscope::LockKeysModel::Ttl), "");         // not looked up yet
    model.setState({}, now);
    EXPECT_EQ(model.rowCount(), 0);
}
