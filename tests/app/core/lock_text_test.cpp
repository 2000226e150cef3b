#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "app/core/lossless_arguments.h"
#include "etcdclient/lease_ttl.h"

#include <QCommandLineParser>
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

TEST(KeyTextTest, EveryByteSurvivesDisplayAndParse) {
    std::string all;
    for (int b = 0; b < 256; ++b) {
        const std::string one = "/n/" + std::string(1, static_cast<char>(b)) + "/x";
        std::string problem;
        EXPECT_EQ(parseKeyText(displayKey(one), problem), one) << "byte " << b << ": " << problem;
        all += static_cast<char>(b);
    }
    std::string problem;
    EXPECT_EQ(parseKeyText(displayKey(all), problem), all) << problem;
    EXPECT_EQ(displayKey("\\xfd"), "\\\\xfd"); // a backslash and "xfd" are not the byte
    EXPECT_NE(displayKey("\\xfd"), displayKey("\xfd"));
    EXPECT_NE(displayKey("\xfd"), displayKey("\xfe"));
}

TEST(KeyTextTest, ParseTakesRawBytesAndEitherHexCase) {
    std::string problem;
    EXPECT_EQ(parseKeyText("/n/\xff", problem), "/n/\xff");
    EXPECT_EQ(parseKeyText("/n/\\xFF\\x2c", problem), "/n/\xff,"); // \x2c: a comma in --locks
    EXPECT_EQ(parseKeyText("/schlöss/\\\\", problem), "/schlöss/\\");
    EXPECT_TRUE(problem.empty()) << problem;
}

TEST(KeyTextTest, MalformedEscapesAreRefusedSayingWhereAndHow) {
    const std::pair<const char*, const char*> cases[] = {
        {"/a\\q", "bad escape \"\\q\" at byte 3"},     {"/a\\x4", "bad escape \"\\x4\" at byte 3"},
        {"/a\\xg1", "bad escape \"\\xg1\" at byte 3"}, {"/a\\", "bad escape \"\\\" at byte 3"},
        {"\\x", "bad escape \"\\x\" at byte 1"},
    };
    for (const auto& [text, expected] : cases) {
        std::string problem;
        EXPECT_FALSE(parseKeyText(text, problem)) << text;
        EXPECT_EQ(problem.rfind(expected, 0), 0u) << problem;
        EXPECT_NE(problem.find("write \\xNN (two hex digits) for a byte or \\\\ for a backslash"),
                  std::string::npos)
            << problem;
    }
}

TEST(LosslessArgumentsTest, EveryByteOfArgvComesBackAndTheParserKeepsThem) {
    const std::string fd = "/n/\xfd", fe = "/n/\xfe", ff = "/n/\xff";
    const std::string utf8 = "/ö/\xf0\x90\x82\x80/\xed\xa0\x80"; // U+10080, then a surrogate
    const char* argv[] = {"lockscopectl", "--endpoints", "x",        "lock",
                          fd.c_str(),     fe.c_str(),    ff.c_str(), utf8.c_str()};
    const QStringList arguments = losslessArguments(8, argv);
    ASSERT_EQ(arguments.size(), 8);
    EXPECT_NE(arguments[4], arguments[5]);
    EXPECT_NE(arguments[5], arguments[6]);
    QCommandLineParser parser;
    parser.addOption({"endpoints", "", "e"});
    ASSERT_TRUE(parser.parse(arguments));
    const QStringList positional = parser.positionalArguments();
    ASSERT_EQ(positional.size(), 5);
    EXPECT_EQ(argumentBytes(positional[1]), fd);
    EXPECT_EQ(argumentBytes(positional[2]), fe);
    EXPECT_EQ(argumentBytes(positional[3]), ff);
    EXPECT_EQ(argumentBytes(positional[4]), utf8);
    EXPECT_EQ(positional[4].left(3), QString("/ö/"));
}

TEST(LeaseTtlTest, EtcdsLimitIsNamedAndADayIsTheLongMark) {
    EXPECT_EQ(etcd::leaseTtlProblem(9'000'000'000), "");
    EXPECT_EQ(etcd::leaseTtlProblem(9'000'000'001),
              "a lease TTL of 9000000001 s is above etcd's limit of 9000000000 s (285.2 years); "
              "etcd would refuse it");
    EXPECT_NE(etcd::leaseTtlProblem(0), "");
    EXPECT_EQ(etcd::longLeaseTtlWarning(86'400), "");
    EXPECT_EQ(etcd::longLeaseTtlWarning(172'800),
              "a lease TTL of 172800 s (2.0 days) keeps the lock taken that long if its holder "
              "dies without releasing it");
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
    EXPECT_NE(
        json.find(R"("holder":{"key":"/l/a","key_b64":"L2wvYQ==","lease":10,"lease_hex":"a")"),
        std::string::npos)
        << json;
    EXPECT_NE(json.find(R"("ttl":7,"granted_ttl":10)"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("position":1,"waits_for":"/l/a","waits_for_b64":"L2wvYQ==")"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find(R"("ttl":null)"), std::string::npos) << json;
}

TEST(LockJsonTest, EachLockSaysWhetherItIsAMutexOrAnElection) {
    etcd::LockMonitorState state;
    etcd::LockQueue mutex;
    mutex.name = "/m";
    mutex.keys = {{"/m/a", 0xa, 5, 5, "", {}, {}}};
    etcd::LockQueue election;
    election.name = "/e";
    election.keys = {{"/e/b", 0xb, 6, 6, "alice", {}, {}}, {"/e/c", 0xc, 7, 7, "bob", {}, {}}};
    state.locks = {{mutex.name, mutex}, {election.name, election}};
    const std::string json = lockStateJson(state);
    EXPECT_NE(json.find(R"("name":"/m","name_b64":"L20=","kind":"mutex")"), std::string::npos)
        << json;
    EXPECT_NE(json.find(R"("name":"/e","name_b64":"L2U=","kind":"election")"), std::string::npos)
        << json;
    EXPECT_NE(json.find(R"("value":"bob")"), std::string::npos) << json;
}

TEST(LockJsonTest, AnRwMutexListsItsSharingHoldersAndEachKeysMode) {
    etcd::LockMonitorState state;
    etcd::LockQueue rw;
    rw.name = "/rw";
    rw.keys = {{"/rw/read/1795530066567608001", 0xa, 5, 5, "", {}, {}},
               {"/rw/read/1795530066567608002", 0xb, 6, 6, "", {}, {}},
               {"/rw/write/1795530066567608003", 0xc, 7, 7, "", {}, {}},
               {"/rw/read/1795530066567608004", 0xd, 8, 8, "", {}, {}}};
    for (auto& key : rw.keys)
        key.mode = key.key.find("/read/") != std::string::npos ? etcd::KeyMode::Read
                                                               : etcd::KeyMode::Write;
    state.locks[rw.name] = rw;
    const std::string json = lockStateJson(state);
    EXPECT_NE(json.find(R"("kind":"rwmutex")"), std::string::npos) << json;
    const auto holders = json.find(R"("holders":[{"key":"/rw/read/1795530066567608001")");
    ASSERT_NE(holders, std::string::npos) << json;
    const auto waiters = json.find(R"("waiters":[{"key":"/rw/write/1795530066567608003")");
    ASSERT_NE(waiters, std::string::npos) << json;
    EXPECT_LT(holders, json.find("/rw/read/1795530066567608002")) << json;
    EXPECT_LT(json.find("/rw/read/1795530066567608002"), waiters) << json;
    EXPECT_NE(
        json.find(R"("mode":"write","position":2,"waits_for":"/rw/read/1795530066567608002")"),
        std::string::npos)
        << json;
    EXPECT_NE(
        json.find(R"("mode":"read","position":3,"waits_for":"/rw/write/1795530066567608003")"),
        std::string::npos)
        << json;
}

TEST(LockJsonTest, AHoldThatBeganBeforeWeSawItIsMarkedAtLeast) {
    etcd::LockEvent event{etcd::LockEventKind::Released,   "/n",  "/n/a", 0xa, 5, {}, {},
                          std::chrono::milliseconds(1500), false, 0,      true};
    EXPECT_NE(lockEventJson(event).find(R"("held_ms":1500,"recovered":false,"at_least":true)"),
              std::string::npos)
        << lockEventJson(event);
    EXPECT_NE(lockEventLine(event).find("held ≥ 1500 ms"), std::string::npos)
        << lockEventLine(event);
    event.atLeast = false;
    EXPECT_NE(lockEventLine(event).find("held 1500 ms"), std::string::npos);
}

// Recovered after a gap: between its bounds, or at most the upper one.
TEST(LockJsonTest, ARecoveredHoldGivesItsBounds) {
    etcd::LockEvent event{etcd::LockEventKind::Released,   "/n", "/n/a", 0xa, 5, {}, {},
                          std::chrono::milliseconds(1500), true, 0,      true};
    event.heldAtMost = std::chrono::milliseconds(4200);
    EXPECT_NE(lockEventJson(event).find(
                  R"("at_least":true,"waited_at_most_ms":null,"held_at_most_ms":4200})"),
              std::string::npos)
        << lockEventJson(event);
    EXPECT_NE(lockEventLine(event).find("held 1500–4200 ms"), std::string::npos)
        << lockEventLine(event);
    event.held.reset();
    EXPECT_NE(lockEventLine(event).find("held ≤ 4200 ms"), std::string::npos)
        << lockEventLine(event);
}

TEST(KeyTextTest, AValueIsTextOnlyWhenPrintableUtf8ElseHex) {
    EXPECT_EQ(displayValue("host-a"), "host-a");
    EXPECT_EQ(displayValue("主机 a"), "主机 a");
    EXPECT_EQ(displayValue(""), "");
    EXPECT_EQ(displayValue(std::string("\x1d\xf0\xd8\xa6", 4)), "0x1df0d8a6");
    EXPECT_EQ(displayValue("line\nbreak"), "0x6c696e650a627265616b"); // a control character
    EXPECT_EQ(displayValue("\xc2\x85"), "0xc285");                    // U+0085, a C1 control
}

TEST(KeyTextTest, ALongValueIsCutWithItsLengthShown) {
    EXPECT_EQ(shortValueText("host-a"), QString("host-a"));
    const std::string megabyte(1 << 20, 'x');
    EXPECT_EQ(shortValueText(megabyte),
              QString(ShortValueChars, 'x') + QString::fromUtf8("… (1048576 byte(s))"));
    const std::string exact(ShortValueChars, 'y');
    EXPECT_EQ(shortValueText(exact), QString::fromStdString(exact));
    // Cut between characters, never inside one: still text, not hex.
    std::string chinese;
    for (int i = 0; i < 200; ++i)
        chinese += "主";
    EXPECT_EQ(shortValueText(chinese),
              QString(ShortValueChars, QChar(0x4e3b)) + QString::fromUtf8("… (600 byte(s))"));
    const std::string binary(1000, '\x01');
    EXPECT_EQ(shortValueText(binary), "0x" + QString("01").repeated((ShortValueChars - 2) / 2) +
                                          QString::fromUtf8("… (1000 byte(s))"));
}

TEST(LockJsonTest, KeyLikeFieldsCarryTheirExactBytesInBase64) {
    etcd::LockMonitorState state;
    etcd::LockQueue queue;
    queue.name = "/n/\xff";
    queue.keys = {{"/n/\xff/a", 0xa, 5, 5, "v\xfe", {}, {}}};
    state.locks[queue.name] = queue;
    const std::string json = lockStateJson(state);
    EXPECT_NE(json.find(R"("name":"/n/\\xff","name_b64":"L24v/w==")"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("key":"/n/\\xff/a","key_b64":"L24v/y9h")"), std::string::npos) << json;
    // A value that is not printable UTF-8 (python-etcd3's uuid) is hex, never mis-decoded.
    EXPECT_NE(json.find(R"("value":"0x76fe","value_b64":"dv4=")"), std::string::npos) << json;

    etcd::LockEvent event{
        etcd::LockEventKind::Acquired, "/n/\xfd", "/n/\xfd/a", 0xa, 5, {}, {}, {}, false};
    const std::string line = lockEventJson(event);
    EXPECT_NE(line.find(R"("lock":"/n/\\xfd","lock_b64":"L24v/Q==")"), std::string::npos) << line;
}
