// Lock names that are not UTF-8 stay exact bytes through lockscopectl, against a real etcd and
// the real `etcdctl lock`: /n/\xff is etcdctl's /n/\xff, and \xfd, \xfe, \xff are three locks.
#include "lockscopectl_test.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

std::string fromB64(const QJsonValue& value) {
    return QByteArray::fromBase64(value.toString().toLatin1()).toStdString();
}

QJsonObject jsonLine(const std::string& line) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
}

class LockscopectlKeyBytesIntegrationTest : public LockscopectlTest {
protected:
    // prefix() + "n/" + the byte: the names of the issue, under this test's prefix.
    std::string lockName(char byte) const { return prefix() + "n/" + std::string(1, byte); }
    // The same name as the CLI's escaped form, e.g. ".../n/\xff" written with a backslash.
    std::string escapedName(char byte) const {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(byte));
        return prefix() + "n/" + escape;
    }

    std::vector<std::string> queueOf(const std::string& name) { return keysUnder(name + "/"); }
};

TEST_F(LockscopectlKeyBytesIntegrationTest, LockscopectlWaitsWhileEtcdctlHoldsXff) {
    const std::string name = lockName('\xff');
    auto theirs = etcdctlLock(name);
    const auto theirKey = theirs->readLine(10s);
    ASSERT_TRUE(theirKey) << "etcdctl did not take the lock";
    ASSERT_EQ(queueOf(name), std::vector<std::string>{*theirKey});

    for (const std::string& spelling : {name, escapedName('\xff')}) {
        const auto [code, lines] = runToEnd({"lock", spelling, "--try"});
        EXPECT_EQ(code, 3) << "lockscopectl took " << spelling << " while etcdctl held it";
    }
    auto ours = lockscopectl({"lock", name});
    ASSERT_TRUE(eventually([&] { return queueOf(name).size() == 2; })) << "we never queued";
    EXPECT_FALSE(ours->readLine(1s)) << "lockscopectl got in while etcdctl held the lock";
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
    const auto printed = ours->readLine(10s);
    ASSERT_TRUE(printed) << "lockscopectl did not acquire after etcdctl let go";
    const auto queue = queueOf(name);
    ASSERT_EQ(queue.size(), 1u);
    EXPECT_EQ(*printed, prefix() + "n/\\xff/" + queue[0].substr(name.size() + 1))
        << "the key is printed escaped";
    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 0);
    EXPECT_TRUE(eventually([&] { return queueOf(name).empty(); }));
}

TEST_F(LockscopectlKeyBytesIntegrationTest, EtcdctlWaitsWhileLockscopectlHoldsXff) {
    const std::string name = lockName('\xff');
    // The child's LOCKSCOPE_LOCK_KEY is the exact key, raw bytes and all.
    auto ours = lockscopectl(
        {"lock", name, "--", "sh", "-c", "printf '%s\\n' \"$LOCKSCOPE_LOCK_KEY\"; exec sleep 60"});
    const auto childSaw = ours->readLine(10s);
    ASSERT_TRUE(childSaw) << "lockscopectl did not take the lock";
    ASSERT_EQ(queueOf(name), std::vector<std::string>{*childSaw});

    auto theirs = etcdctlLock(name);
    ASSERT_TRUE(eventually([&] { return queueOf(name).size() == 2; }));
    EXPECT_FALSE(theirs->readLine(1s)) << "etcdctl got in while lockscopectl held the lock";
    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 128 + SIGINT); // the command's status: sleep died of SIGINT
    const auto theirKey = theirs->readLine(10s);
    ASSERT_TRUE(theirKey) << "etcdctl did not acquire after lockscopectl let go";
    EXPECT_EQ(queueOf(name), std::vector<std::string>{*theirKey});
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
}

TEST_F(LockscopectlKeyBytesIntegrationTest, TheCommandGetsTheExactKeyAndItsBase64) {
    const std::string name = prefix() + "e/\xff\xfe\x01";
    // od shows every byte, so nothing between the command and us can change one unseen.
    const auto [code, lines] =
        runToEnd({"lock", name, "--", "sh", "-c",
                  "printf '%s' \"$LOCKSCOPE_LOCK_KEY\" | od -An -v -tx1 | tr -d ' \\n'; echo; "
                  "printf '%s\\n' \"$LOCKSCOPE_LOCK_KEY_B64\""});
    EXPECT_EQ(code, 0);
    ASSERT_EQ(lines.size(), 2u);
    const std::string key = QByteArray::fromHex(QByteArray::fromStdString(lines[0])).toStdString();
    EXPECT_EQ(key.substr(0, name.size() + 1), name + "/") << lines[0];
    EXPECT_GT(key.size(), name.size() + 1) << "no lease ID after the name";
    EXPECT_EQ(QByteArray::fromBase64(QByteArray::fromStdString(lines[1])).toStdString(), key);
}

TEST_F(LockscopectlKeyBytesIntegrationTest, ANameWithANulIsRefusedForACommandButCanBeHeld) {
    const std::string name = prefix() + "z/a\\x00b"; // argv cannot carry a NUL: its escape
    const auto [code, lines] = runToEnd({"lock", name, "--", "true"});
    EXPECT_EQ(code, 2);
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines[0].find("NUL byte"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("LOCKSCOPE_LOCK_KEY"), std::string::npos) << lines[0];
    EXPECT_TRUE(keysUnder(prefix()).empty()) << "a refused name must not reach etcd";

    auto holder = lockscopectl({"lock", name});
    const auto key = holder->readLine(10s);
    ASSERT_TRUE(key) << "holding a NUL name without a command is allowed";
    EXPECT_EQ(key->substr(0, name.size() + 1), name + "/") << "printed escaped";
    ASSERT_EQ(keysUnder(prefix() + "z/").size(), 1u);
    EXPECT_EQ(keysUnder(prefix() + "z/")[0].substr(0, prefix().size() + 6),
              prefix() + "z/a" + std::string(1, '\0') + "b/");
    holder->signal(SIGINT);
    EXPECT_EQ(holder->wait(10s), 0);
}

TEST_F(LockscopectlKeyBytesIntegrationTest, XfdXfeXffAreThreeLocksInSnapshotAndWatch) {
    const std::string bytes = "\xfd\xfe\xff";
    auto watchText = lockscopectl({"watch", prefix()});
    auto watchJson = lockscopectl({"watch", prefix(), "--json"});
    for (auto* watch : {watchText.get(), watchJson.get()})
        ASSERT_EQ(watch->readLine(10s), std::optional<std::string>("lockscopectl: watching"));

    std::vector<std::unique_ptr<ChildProcess>> holders;
    std::vector<std::string> keys;
    for (char byte : bytes) {
        holders.push_back(lockscopectl({"lock", lockName(byte)}));
        ASSERT_TRUE(holders.back()->readLine(10s)) << "a holder of another byte blocked it";
        const auto queue = queueOf(lockName(byte));
        ASSERT_EQ(queue.size(), 1u);
        keys.push_back(queue[0]);
    }
    EXPECT_EQ(keysUnder(prefix() + "n/").size(), 3u) << "three holders, three keys";

    const auto [textExit, table] = runToEnd({"snapshot", prefix()});
    EXPECT_EQ(textExit, 0);
    ASSERT_FALSE(table.empty());
    EXPECT_NE(table[0].find("3 lock(s)"), std::string::npos) << table[0];
    for (char byte : bytes) {
        const std::string shown = escapedName(byte) + "/"; // the key in the KEY column
        const auto rows = std::count_if(table.begin(), table.end(), [&](const std::string& row) {
            return row.find(shown) != std::string::npos;
        });
        EXPECT_EQ(rows, 1) << shown << " is not on exactly one row";
    }

    // A raw-byte prefix, and its escaped form, select exactly the \xff lock.
    for (const std::string& rawPrefix : {lockName('\xff'), escapedName('\xff')}) {
        const auto [code, lines] = runToEnd({"snapshot", rawPrefix});
        EXPECT_EQ(code, 0);
        ASSERT_FALSE(lines.empty());
        EXPECT_NE(lines[0].find("1 lock(s) under " + escapedName('\xff')), std::string::npos)
            << lines[0];
    }

    const auto [jsonExit, json] = runToEnd({"snapshot", prefix(), "--json"});
    EXPECT_EQ(jsonExit, 0);
    ASSERT_EQ(json.size(), 1u);
    const QJsonArray locks = jsonLine(json[0])["locks"].toArray();
    ASSERT_EQ(locks.size(), 3) << json[0];
    for (int i = 0; i < 3; ++i) {
        const QJsonObject lock = locks[i].toObject();
        EXPECT_EQ(fromB64(lock["name_b64"]), lockName(bytes[i]));
        EXPECT_EQ(lock["name"].toString().toStdString(), escapedName(bytes[i]));
        EXPECT_EQ(fromB64(lock["holder"]["key_b64"]), keys[i]);
    }

    // Each watch saw each lock enqueued and acquired, told apart.
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        for (const char* kind : {"enqueued", "acquired"}) {
            const auto text = watchText->readLine(10s);
            ASSERT_TRUE(text) << kind << " of lock " << i << " missing";
            EXPECT_NE(text->find(std::string(kind) + "  " + escapedName(bytes[i]) + "  "),
                      std::string::npos)
                << *text;
            const auto line = watchJson->readLine(10s);
            ASSERT_TRUE(line);
            const QJsonObject event = jsonLine(*line);
            EXPECT_EQ(event["event"].toString().toStdString(), kind);
            EXPECT_EQ(fromB64(event["lock_b64"]), lockName(bytes[i])) << *line;
            EXPECT_EQ(fromB64(event["key_b64"]), keys[i]) << *line;
        }
    }
    for (auto& holder : holders) {
        holder->signal(SIGINT);
        EXPECT_EQ(holder->wait(10s), 0);
    }
    for (auto* watch : {watchText.get(), watchJson.get()}) {
        watch->signal(SIGINT);
        EXPECT_EQ(watch->wait(10s), 0);
    }
}

TEST_F(LockscopectlKeyBytesIntegrationTest, BadEscapesAreUsageErrorsThatSayHowToWriteThem) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"lock", prefix() + "a\\q"}, {"snapshot", prefix() + "\\x4"}}) {
        const auto [code, lines] = runToEnd(args);
        EXPECT_EQ(code, 2);
        ASSERT_FALSE(lines.empty());
        EXPECT_NE(lines[0].find("bad escape"), std::string::npos) << lines[0];
        EXPECT_NE(lines[0].find("\\\\ for a backslash"), std::string::npos) << lines[0];
    }
    const auto [code, lines] = runToEnd({"lock", prefix() + "a\\\\b", "--", "true"});
    EXPECT_EQ(code, 0) << "a doubled backslash is one backslash";
    EXPECT_TRUE(keysUnder(prefix()).empty());
}

TEST_F(LockscopectlKeyBytesIntegrationTest, TtlBeyondEtcdsLimitOrOverADayIsRefusedBeforeAnyCall) {
    const std::string name = prefix() + "long";
    const auto [tooLong, tooLongSaid] = runToEnd({"lock", name, "--ttl", "9000000001", "--force"});
    EXPECT_EQ(tooLong, 2);
    ASSERT_FALSE(tooLongSaid.empty());
    EXPECT_NE(tooLongSaid[0].find("above etcd's limit of 9000000000 s"), std::string::npos)
        << tooLongSaid[0];

    const auto [overADay, overADaySaid] = runToEnd({"lock", name, "--ttl", "86401", "--", "true"});
    EXPECT_EQ(overADay, 2);
    ASSERT_FALSE(overADaySaid.empty());
    EXPECT_NE(overADaySaid[0].find("add --force"), std::string::npos) << overADaySaid[0];
    EXPECT_TRUE(keysUnder(prefix()).empty()) << "a refused TTL must not reach etcd";

    const auto [forced, forcedSaid] =
        runToEnd({"lock", name, "--ttl", "9000000000", "--force", "--", "true"});
    EXPECT_EQ(forced, 0) << (forcedSaid.empty() ? "" : forcedSaid[0]);

    const auto [lab, labSaid] = runToEnd({"lab", "--ttl", "9000000001", "--duration", "1s"});
    EXPECT_EQ(lab, 2);
    ASSERT_FALSE(labSaid.empty());
    EXPECT_NE(labSaid[0].find("9000000000"), std::string::npos) << labSaid[0];
    EXPECT_TRUE(eventually([&] { return keysUnder(prefix()).empty(); }));
}

} // namespace
