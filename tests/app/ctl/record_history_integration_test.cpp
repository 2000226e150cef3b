// lockscopectl record and history against a real etcd, with real etcdctl and lockscopectl
// contenders: what the file (or a real PostgreSQL database) holds is checked against etcd's own
// history (Range at a revision, Watch from a revision), recorders share a database, and stores
// that cannot be recorded into are refused, left unchanged.
#include "app/core/lock_history_store.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "lockscopectl_test.h"
#include "support/local_postgres.h"
#include "support/stopped_member.h"
#include "support/waiting.h"
#include "support/watch_log.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibraryInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <map>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope;
using namespace lockscope::test;

namespace {

// Qt SQL loads its SQLite driver only under an application object.
void ensureApplication() {
    static int argc = 1;
    static char name[] = "record_history_integration_tests";
    static char* argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);
}

// A key as etcd and a checkpoint both know it.
using KeyId = std::tuple<std::string, int64_t, int64_t>; // key, lease, create revision

std::string lockOf(const std::string& key) {
    return key.substr(0, key.rfind('/'));
}

// What history --json printed, one object per line.
// A lock state's JSON without what a recording does not keep: TTLs, values, mod revisions.
QJsonObject withoutUnrecorded(QJsonObject object);
QJsonValue withoutUnrecorded(const QJsonValue& value) {
    if (value.isObject())
        return withoutUnrecorded(value.toObject());
    if (!value.isArray())
        return value;
    QJsonArray items;
    for (const auto& item : value.toArray())
        items.append(withoutUnrecorded(item));
    return items;
}
QJsonObject withoutUnrecorded(QJsonObject object) {
    for (const QString& field : object.keys()) {
        if (field.startsWith("value") || field == "ttl" || field == "granted_ttl" ||
            field == "mod_revision")
            object.remove(field);
        else
            object[field] = withoutUnrecorded(object[field]);
    }
    return object;
}

std::vector<QJsonObject> jsonLines(const std::vector<std::string>& lines) {
    std::vector<QJsonObject> objects;
    for (const auto& line : lines)
        if (const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(line));
            doc.isObject())
            objects.push_back(doc.object());
    return objects;
}

std::string bytesField(const QJsonObject& object, const char* name) {
    return QByteArray::fromBase64(object[QString(name) + "_b64"].toString().toLatin1())
        .toStdString();
}

bool isDeparture(const QString& kind) {
    return kind != "enqueued" && kind != "acquired" && !kind.startsWith("anomaly_");
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The nearest-rank percentile, as the report's help defines it, worked out here apart.
int64_t nearestRank(std::vector<int64_t> values, double percent) {
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * values.size()));
    return values[std::max<std::size_t>(rank, 1) - 1];
}

class LockscopectlRecordHistoryIntegrationTest : public LockscopectlTest {
protected:
    void SetUp() override {
        LockscopectlTest::SetUp();
        ASSERT_TRUE(dir.isValid());
        dir.setAutoRemove(true);
        ::chmod(dir.path().toLocal8Bit().constData(), 0755); // readable by `nobody` (read-only)
    }
    std::string path(const char* name) const { return dir.filePath(name).toStdString(); }

    std::unique_ptr<process::ChildProcess> startRecorder(const std::string& file) {
        auto recorder =
            lockscopectl({"record", prefix(), "--to", file, "--checkpoint-every", "1s"});
        EXPECT_TRUE(printsLine(*recorder, "lockscopectl: recording the locks under"))
            << "the recorder never said it was recording";
        return recorder;
    }
    // Reads `child`'s lines until one starts with `start`; false when none came in 30 s.
    static bool printsLine(process::ChildProcess& child, const std::string& start) {
        std::optional<std::string> line;
        while ((line = child.readLine(30s)) && line->find(start) != 0) {
        }
        return line.has_value();
    }
    std::vector<QJsonObject> history(const std::string& file, std::vector<std::string> more = {}) {
        std::vector<std::string> args = {"history", file, "--json"};
        args.insert(args.end(), more.begin(), more.end());
        const auto [code, lines] = runToEnd(args);
        EXPECT_EQ(code, 0);
        return jsonLines(lines);
    }
    // Waits until the recording holds an event of `kind` for `key`.
    bool recorded(const std::string& file, const char* kind, const std::string& key) {
        return eventually(
            [&] {
                for (const auto& e : history(file))
                    if (e["event"].toString() == kind && bytesField(e, "key") == key)
                        return true;
                return false;
            },
            20s);
    }
    // The keys under prefix() at `revision`, from etcd.
    std::set<KeyId> keysAt(int64_t revision) {
        pb::RangeRequest range;
        range.set_key(prefix());
        range.set_range_end(prefixRangeEnd(prefix()));
        range.set_revision(revision);
        const auto read = call(*client, &Client::range, range);
        EXPECT_TRUE(read) << "revision " << revision << ": " << read.error().message;
        std::set<KeyId> keys;
        if (read)
            for (const auto& kv : read->kvs())
                keys.emplace(kv.key(), kv.lease(), kv.create_revision());
        return keys;
    }
    // Waits until the recording holds a checkpoint of etcd's state now (periodic ones come
    // every second while anything happens, TTL lookups included).
    bool checkpointedNow(const std::string& file) {
        pb::RangeRequest range;
        range.set_key(prefix());
        range.set_limit(1);
        const auto read = call(*client, &Client::range, range);
        EXPECT_TRUE(read);
        const int64_t now = read ? read->header().revision() : 0;
        return eventually([&] { return lastCheckpoint(file) >= now; }, 20s);
    }
    // The revision of the recording's last checkpoint; nothing before its first.
    static std::optional<int64_t> lastCheckpoint(const std::string& file) {
        ensureApplication();
        QString problem;
        auto store = LockHistoryStore::openForReading(QString::fromStdString(file), problem);
        const auto checkpoints = store ? store->checkpoints() : std::nullopt;
        if (!checkpoints || checkpoints->empty())
            return std::nullopt;
        return checkpoints->back().revision;
    }
    // One etcdctl lock taken and released while `recorder` (record, or the exporter) records
    // into `file`, which it then stops; the lock's key, or nothing.
    std::optional<std::string> holdOnce(process::ChildProcess& recorder, const std::string& file) {
        auto holder = etcdctlLock(prefix() + "one");
        const auto key = holder->readLine(10s);
        EXPECT_TRUE(key);
        holder->signal(SIGINT);
        EXPECT_EQ(holder->wait(10s), 0);
        EXPECT_TRUE(key && recorded(file, "released", *key));
        recorder.signal(SIGINT);
        EXPECT_EQ(recorder.wait(15s), 0);
        return key;
    }
    void recordOneHold(const std::string& file) {
        ASSERT_TRUE(holdOnce(*startRecorder(file), file));
    }

    QTemporaryDir dir;
    LocalPostgres postgres; // started by the tests that record into PostgreSQL
};

// The same tests on a recording in an SQLite file and in a PostgreSQL database.
class LockscopectlRecordHistoryStoreTest : public LockscopectlRecordHistoryIntegrationTest,
                                           public ::testing::WithParamInterface<bool> {
protected:
    // Where to record: the file `name`.db, or a new database `name` on a server of the test's.
    std::string store(const std::string& name) {
        if (!GetParam())
            return path((name + ".db").c_str());
        EXPECT_TRUE(postgres.start()) << postgres.error();
        EXPECT_TRUE(postgres.createDatabase(name)) << postgres.error();
        return postgres.url(name);
    }
};

INSTANTIATE_TEST_SUITE_P(SqliteAndPostgresql, LockscopectlRecordHistoryStoreTest,
                         ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "postgresql" : "sqlite"; });

TEST_P(LockscopectlRecordHistoryStoreTest,
       ARecordingReplaysToEtcdsStateAtEveryCheckpointAndHoldsWhatAWatchSaw) {
    const std::string file = store("incident");
    const std::string name = prefix() + "deploy";
    auto recorder = startRecorder(file);

    auto holder = etcdctlLock(name);
    const auto first = holder->readLine(10s);
    ASSERT_TRUE(first);
    auto contender = lockscopectl({"lock", name, "--ttl", "2"}); // ours
    ASSERT_TRUE(eventually([&] { return keysUnder(name + "/").size() == 2; }, 15s));
    auto waiter = etcdctlLock(name);
    ASSERT_TRUE(eventually([&] { return keysUnder(name + "/").size() == 3; }, 15s));
    ASSERT_TRUE(checkpointedNow(file));

    // A force release: the holder's key deleted by someone else.
    pb::DeleteRangeRequest del;
    del.set_key(*first);
    ASSERT_TRUE(call(*client, &Client::deleteRange, del));
    const auto second = contender->readLine(15s);
    ASSERT_TRUE(second) << "our contender never got the lock";
    ASSERT_TRUE(recorded(file, "acquired", *second));
    ASSERT_TRUE(checkpointedNow(file));

    // The recorder stops and starts again: a gap, whatever happened meanwhile.
    recorder->signal(SIGINT);
    ASSERT_EQ(recorder->wait(15s), 0);
    {
        auto unseen = etcdctlLock(prefix() + "unseen");
        ASSERT_TRUE(unseen->readLine(10s));
        unseen->signal(SIGINT);
        ASSERT_EQ(unseen->wait(10s), 0);
    }
    recorder = startRecorder(file);

    // An expiry: our holder killed, its lease left to run out; the etcdctl waiter takes over.
    contender->signal(SIGKILL);
    contender->wait(10s);
    const auto third = waiter->readLine(20s);
    ASSERT_TRUE(third) << "the waiter never got the lock after the expiry";
    ASSERT_TRUE(recorded(file, "acquired", *third));
    ASSERT_TRUE(checkpointedNow(file));
    waiter->signal(SIGINT);
    ASSERT_EQ(waiter->wait(10s), 0);
    holder->signal(SIGINT);
    holder->wait(10s);
    ASSERT_TRUE(recorded(file, "released", *third));
    recorder->signal(SIGINT);
    ASSERT_EQ(recorder->wait(15s), 0);

    const auto entries = history(file);
    ensureApplication();
    QString problem;
    auto store = LockHistoryStore::openForReading(QString::fromStdString(file), problem);
    ASSERT_TRUE(store) << problem.toStdString();
    const auto checkpoints = store->checkpoints();
    ASSERT_TRUE(checkpoints) << store->error().toStdString();

    // How each key left, as recorded. A deletion by someone else is a release to a recorder
    // (only the process that asked for a force release can tell it from one).
    std::map<std::string, std::string> departures;
    std::vector<int64_t> gapRevisions;
    for (const auto& e : entries) {
        if (e["event"].toString() == "gap")
            gapRevisions.push_back(e["revision"].toInteger());
        else if (isDeparture(e["event"].toString()))
            departures[bytesField(e, "key")] = e["event"].toString().toStdString();
    }
    EXPECT_EQ(departures[*first], "released");
    EXPECT_EQ(departures[*second], "expired");
    EXPECT_EQ(departures[*third], "released");
    ASSERT_EQ(gapRevisions.size(), 1u) << "the recorder's restart is one gap";

    // Every checkpoint is etcd's state at its revision; replaying the events from one
    // checkpoint gives the next, unless a gap lies between (then the next starts afresh).
    ASSERT_GE(checkpoints->size(), 2u);
    std::set<KeyId> replayed;
    int replays = 0;
    for (std::size_t i = 0; i < checkpoints->size(); ++i) {
        const HistoryCheckpoint& checkpoint = (*checkpoints)[i];
        std::set<KeyId> held;
        for (const HistoryKey& key : checkpoint.keys)
            held.emplace(key.key, key.lease, key.createRevision);
        EXPECT_EQ(held, keysAt(checkpoint.revision)) << "checkpoint at " << checkpoint.revision;
        const bool afterGap =
            i > 0 && std::any_of(gapRevisions.begin(), gapRevisions.end(), [&](int64_t r) {
                return r > (*checkpoints)[i - 1].revision && r <= checkpoint.revision;
            });
        if (i > 0 && !afterGap) {
            for (const auto& e : entries) {
                const int64_t revision = e["revision"].toInteger();
                if (e["event"].toString() == "gap" || revision <= (*checkpoints)[i - 1].revision ||
                    revision > checkpoint.revision)
                    continue;
                const KeyId key{bytesField(e, "key"), e["lease"].toInteger(),
                                e["create_revision"].toInteger()};
                if (e["event"].toString() == "enqueued")
                    replayed.insert(key);
                else if (isDeparture(e["event"].toString()))
                    replayed.erase(key);
            }
            EXPECT_EQ(replayed, held) << "replayed to the checkpoint at " << checkpoint.revision;
            replays += replayed != std::set<KeyId>() || !held.empty();
        }
        replayed = held;
    }
    EXPECT_GE(replays, 3) << "too few checkpoints with keys to replay to";

    // The events outside the gap are those etcd's watch reports from the first checkpoint on:
    // a new key is enqueued, the first-created key of a lock acquires, a deleted key departs.
    const int64_t from = checkpoints->front().revision;
    int64_t lastBeforeGap = 0, to = 0;
    for (const auto& e : entries) {
        if (e["event"].toString() == "gap")
            break;
        lastBeforeGap = e["revision"].toInteger();
    }
    for (const auto& e : entries)
        to = std::max<int64_t>(to, e["revision"].toInteger());
    WatchLog log;
    pb::WatchCreateRequest watchRequest;
    watchRequest.set_key(prefix());
    watchRequest.set_range_end(prefixRangeEnd(prefix()));
    watchRequest.set_start_revision(from + 1);
    WatchHandle watch = client->watch(watchRequest, log.callbacks());
    ASSERT_TRUE(log.waitFor(
        [&](WatchLog& l) { return !l.events.empty() && l.events.back().kv().mod_revision() >= to; },
        15s));
    watch.cancel();
    using Seen = std::tuple<int64_t, std::string, std::string>; // revision, kind, key
    std::vector<Seen> fromWatch, fromFile;
    std::map<std::string, std::map<int64_t, std::string>> queues; // lock: create rev -> key
    for (const auto& [key, lease, create] : keysAt(from))
        queues[lockOf(key)][create] = key;
    std::vector<mvccpb::Event> events;
    {
        std::lock_guard lock(log.mutex);
        events = log.events;
    }
    for (const auto& event : events) {
        const std::string& key = event.kv().key();
        const int64_t revision = event.kv().mod_revision();
        auto& queue = queues[lockOf(key)];
        const std::string holderBefore = queue.empty() ? "" : queue.begin()->second;
        const bool seen = revision <= lastBeforeGap || revision > gapRevisions.front();
        if (event.type() == mvccpb::Event::PUT && event.kv().version() == 1) {
            queue[event.kv().create_revision()] = key;
            if (seen)
                fromWatch.emplace_back(revision, "enqueued", key);
        } else if (event.type() == mvccpb::Event::DELETE) {
            std::erase_if(queue, [&](const auto& entry) { return entry.second == key; });
            if (seen)
                fromWatch.emplace_back(revision, "departed", key);
        }
        if (seen && !queue.empty() && queue.begin()->second != holderBefore)
            fromWatch.emplace_back(revision, "acquired", queue.begin()->second);
    }
    for (const auto& e : entries)
        if (e["event"].toString() != "gap" && !e["recovered"].toBool())
            fromFile.emplace_back(e["revision"].toInteger(),
                                  isDeparture(e["event"].toString())
                                      ? "departed"
                                      : e["event"].toString().toStdString(),
                                  bytesField(e, "key"));
    EXPECT_EQ(fromFile, fromWatch);
    EXPECT_GE(fromFile.size(), 8u);

    // The report's figures, worked out here from the events listed.
    const auto [code, reportLines] =
        runToEnd({"history", file, "--report", "--json", "--lock", name});
    ASSERT_EQ(code, 0);
    const auto reports = jsonLines(reportLines);
    ASSERT_EQ(reports.size(), 1u);
    const QJsonArray locks = reports.front()["locks"].toArray();
    ASSERT_EQ(locks.size(), 1);
    const QJsonObject report = locks.first().toObject();
    std::vector<int64_t> holds, waits;
    int acquisitions = 0, expiries = 0;
    for (const auto& e : entries) {
        if (bytesField(e, "lock") != name)
            continue;
        const bool exact = !e["at_least"].toBool() && !e["recovered"].toBool();
        acquisitions += e["event"].toString() == "acquired";
        expiries += e["event"].toString() == "expired";
        if (exact && e["event"].toString() == "acquired" && !e["waited_ms"].isNull())
            waits.push_back(e["waited_ms"].toInteger());
        if (exact && !e["held_ms"].isNull())
            holds.push_back(e["held_ms"].toInteger());
    }
    EXPECT_EQ(report["acquisitions"].toInt(), acquisitions);
    EXPECT_EQ(report["expiries"].toInt(), 1);
    EXPECT_EQ(expiries, 1);
    ASSERT_GE(holds.size(), 2u);
    ASSERT_GE(waits.size(), 2u);
    for (const auto& [field, values] : {std::pair{"holds", holds}, std::pair{"waits", waits}}) {
        const QJsonObject spread = report[field].toObject();
        EXPECT_EQ(spread["count"].toInteger(), static_cast<qint64>(values.size())) << field;
        EXPECT_EQ(spread["p50_ms"].toInteger(), nearestRank(values, 50)) << field;
        EXPECT_EQ(spread["p99_ms"].toInteger(), nearestRank(values, 99)) << field;
        EXPECT_EQ(spread["max_ms"].toInteger(), *std::max_element(values.begin(), values.end()))
            << field;
    }
    // Our contender waited behind the etcdctl holder whose key was deleted.
    bool found = false;
    for (const auto& wait : report["longest_waits"].toArray()) {
        if (bytesField(wait.toObject(), "key") != *second)
            continue;
        found = true;
        const QJsonArray on = wait.toObject()["waited_on"].toArray();
        ASSERT_EQ(on.size(), 1);
        EXPECT_EQ(bytesField(on.first().toObject(), "key"), *first);
    }
    EXPECT_TRUE(found) << "our contender's wait is not among the longest";

    // history --at replays the recording to any revision: outside the gap, it prints what
    // snapshot --revision reads from etcd then, but for TTLs, values and mod revisions (a put
    // that changes nothing is no event), which a recording does not keep.
    const auto locksAt = [&](const std::vector<std::string>& args) {
        const auto [exit, lines] = runToEnd(args);
        EXPECT_EQ(exit, 0) << args[0] << " " << args[2];
        const auto documents = jsonLines(lines);
        return documents.empty() ? QJsonObject() : withoutUnrecorded(documents.back());
    };
    int compared = 0;
    for (int64_t revision = from; revision <= to; ++revision) {
        const std::string at = std::to_string(revision);
        const QJsonObject replayed = locksAt({"history", file, "--at", at, "--json"});
        ASSERT_FALSE(replayed.isEmpty()) << "revision " << revision;
        if (revision > lastBeforeGap && revision < gapRevisions.front())
            continue; // nothing was seen then
        EXPECT_EQ(replayed, locksAt({"snapshot", prefix(), "--revision", at, "--json"}))
            << "revision " << revision;
        ++compared;
    }
    EXPECT_GE(compared, 8);
}

TEST_F(LockscopectlRecordHistoryIntegrationTest,
       AnOutageIsRecordedAsAGapThenTheStateReReadAndNothingInBetweenIsMadeUp) {
    const std::string file = path("outage.db");
    auto recorder = startRecorder(file);
    auto holder = etcdctlLock(prefix() + "deploy");
    const auto key = holder->readLine(10s);
    ASSERT_TRUE(key);
    ASSERT_TRUE(recorded(file, "acquired", *key));
    {
        StoppedMember stopped(cluster(), 0); // etcd hangs: the watch falls silent
        ASSERT_TRUE(printsLine(*recorder, "lockscopectl: not watching"));
    }
    ASSERT_TRUE(printsLine(*recorder, "lockscopectl: recording the locks under"));
    holder->signal(SIGINT);
    ASSERT_EQ(holder->wait(15s), 0);
    ASSERT_TRUE(recorded(file, "released", *key));
    recorder->signal(SIGINT);
    ASSERT_EQ(recorder->wait(15s), 0);

    std::vector<std::string> order; // the events of our key and the gap, as recorded
    QJsonObject gap;
    for (const auto& e : history(file)) {
        if (e["event"].toString() == "gap")
            gap = e;
        if (e["event"].toString() == "gap" || bytesField(e, "key") == *key)
            order.push_back(e["event"].toString().toStdString());
    }
    EXPECT_EQ(order, (std::vector<std::string>{"enqueued", "acquired", "gap", "released"}));
    EXPECT_TRUE(gap["reason"].toString().contains("no answer from etcd"))
        << gap["reason"].toString().toStdString();
    EXPECT_LT(gap["since"].toString(), gap["until"].toString());
    ensureApplication();
    QString problem;
    auto store = LockHistoryStore::openForReading(QString::fromStdString(file), problem);
    ASSERT_TRUE(store) << problem.toStdString();
    const auto checkpoints = store->checkpoints();
    ASSERT_TRUE(checkpoints);
    const auto resync =
        std::find_if(checkpoints->begin(), checkpoints->end(),
                     [](const HistoryCheckpoint& c) { return c.reason == "resync"; });
    ASSERT_NE(resync, checkpoints->end()) << "no checkpoint of the state re-read";
    EXPECT_EQ(resync->revision, gap["revision"].toInteger());
    ASSERT_EQ(resync->keys.size(), 1u);
    EXPECT_EQ(resync->keys.front().key, *key);
    EXPECT_TRUE(resync->keys.front().holds);
}

// --keep, for a recorder that runs all night: what is older goes, back to a checkpoint, while
// the lock still held is kept (its checkpoint replays it); a value that is no duration is
// refused before anything is opened.
TEST_F(LockscopectlRecordHistoryIntegrationTest, KeepDeletesWhatIsOlderBackToACheckpoint) {
    const std::string file = path("kept.db");
    auto recorder = lockscopectl(
        {"record", prefix(), "--to", file, "--checkpoint-every", "1s", "--keep", "3s"});
    ASSERT_TRUE(printsLine(*recorder, "lockscopectl: recording the locks under"));
    auto held = etcdctlLock(prefix() + "held"); // all along: checkpoints keep coming
    const auto heldKey = held->readLine(10s);
    ASSERT_TRUE(heldKey);
    auto once = etcdctlLock(prefix() + "once");
    const auto onceKey = once->readLine(10s);
    ASSERT_TRUE(onceKey);
    once->signal(SIGINT);
    ASSERT_EQ(once->wait(10s), 0);
    ASSERT_TRUE(recorded(file, "released", *onceKey));
    const auto releasedAt = std::chrono::system_clock::now();

    const auto mentions = [&](const std::string& key) {
        const auto events = history(file);
        return std::any_of(events.begin(), events.end(),
                           [&](const QJsonObject& e) { return bytesField(e, "key") == key; });
    };
    EXPECT_TRUE(eventually([&] { return !mentions(*onceKey); }, 30s))
        << "the released lock's events are older than --keep and still recorded";
    ensureApplication();
    QString problem;
    auto store = LockHistoryStore::openForReading(QString::fromStdString(file), problem);
    ASSERT_TRUE(store) << problem.toStdString();
    const auto checkpoints = store->checkpoints();
    ASSERT_TRUE(checkpoints && !checkpoints->empty());
    // What is kept begins with a checkpoint taken after the deleted events, holding the lock.
    EXPECT_GE(checkpoints->front().at, releasedAt - 1s);
    const auto& keys = checkpoints->front().keys;
    EXPECT_TRUE(std::any_of(keys.begin(), keys.end(), [&](const HistoryKey& key) {
        return key.key == *heldKey && key.holds;
    }));
    store.reset();
    held->signal(SIGINT);
    ASSERT_EQ(held->wait(10s), 0);
    recorder->signal(SIGINT);
    ASSERT_EQ(recorder->wait(15s), 0);

    const auto [refused, lines] =
        runToEnd({"record", prefix(), "--to", path("never.db"), "--keep", "a while"});
    EXPECT_TRUE(refused && *refused != 0);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return line.find("--keep wants a duration") != std::string::npos;
    }));
    EXPECT_FALSE(QFile::exists(QString::fromStdString(path("never.db"))));
}

TEST_P(LockscopectlRecordHistoryStoreTest, TheExporterRecordsWhatItWatches) {
    const std::string file = store("exporter");
    auto exporter =
        lockscopectl({"exporter", prefix(), "--listen", "127.0.0.1:0", "--record", file});
    const auto serving = exporter->readLine(15s);
    ASSERT_TRUE(serving && serving->find("serving http://") != std::string::npos);
    // It serves before its first listing is in: the recording starts with that listing.
    ASSERT_TRUE(eventually([&] { return lastCheckpoint(file).has_value(); }, 20s));
    const auto key = holdOnce(*exporter, file);
    ASSERT_TRUE(key);
    std::vector<std::string> kinds;
    for (const auto& e : history(file))
        if (bytesField(e, "key") == *key)
            kinds.push_back(e["event"].toString().toStdString());
    EXPECT_EQ(kinds, (std::vector<std::string>{"enqueued", "acquired", "released"}));
}

TEST_F(LockscopectlRecordHistoryIntegrationTest, DamagedAndNewerFilesAreRefusedAndLeftAsTheyWere) {
    const std::string good = path("good.db");
    recordOneHold(good);
    const auto recordedBefore = history(good);
    ASSERT_GE(recordedBefore.size(), 3u);
    const QByteArray original = contents(QString::fromStdString(good));

    // A corrupt header, a file cut in half, a schema from a newer LockScope.
    QByteArray corrupt = original;
    corrupt.replace(0, 100, QByteArray(100, '#'));
    QByteArray truncated = original.left(original.size() / 2);
    const std::string newer = path("newer.db");
    ASSERT_TRUE(QFile::copy(QString::fromStdString(good), QString::fromStdString(newer)));
    ensureApplication();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "newer");
        db.setDatabaseName(QString::fromStdString(newer));
        ASSERT_TRUE(db.open());
        QSqlQuery query(db);
        ASSERT_TRUE(query.exec(
            QString("PRAGMA user_version = %1").arg(LockHistoryStore::schemaVersion + 1)));
        db.close();
    }
    QSqlDatabase::removeDatabase("newer");
    struct Case {
        std::string file;
        const char* says;
    };
    std::vector<Case> cases = {{newer, "newer LockScope"}};
    for (const auto& [name, bytes] :
         {std::pair{"corrupt.db", corrupt}, std::pair{"truncated.db", truncated}}) {
        QFile file(dir.filePath(name));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        cases.push_back({path(name), "damaged"});
    }
    for (const Case& c : cases) {
        const QByteArray before = contents(QString::fromStdString(c.file));
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"history", c.file},
              std::vector<std::string>{"record", prefix(), "--to", c.file}}) {
            const auto [code, lines] = runToEnd(args);
            EXPECT_EQ(code, 1) << args[0] << " " << c.file;
            ASSERT_FALSE(lines.empty()) << args[0] << " " << c.file;
            EXPECT_NE(lines.back().find(c.says), std::string::npos)
                << args[0] << " " << c.file << ": " << lines.back();
        }
        EXPECT_EQ(contents(QString::fromStdString(c.file)), before) << c.file << " was changed";
    }
}

TEST_F(LockscopectlRecordHistoryIntegrationTest, AReadOnlyFileIsRefusedAndStillReads) {
    const std::string good = path("good.db");
    recordOneHold(good);
    const auto recordedBefore = history(good);
    ASSERT_GE(recordedBefore.size(), 3u);
    const QByteArray original = contents(QString::fromStdString(good));
    // Permissions do not stop root: as root, lockscopectl runs as `nobody`, which must be able
    // to run the build's binary (a build under a private home cannot be tested so).
    const auto asUser = [](std::vector<std::string> args) {
        if (::geteuid() == 0)
            args.insert(args.begin(), {"setpriv", "--reuid=65534", "--regid=65534",
                                       "--clear-groups", LOCKSCOPECTL});
        else
            args.insert(args.begin(), LOCKSCOPECTL);
        return args;
    };
    {
        process::ChildProcess version(asUser({"--version"}));
        while (version.readLine(15s)) {
        }
        if (version.wait(15s) != 0)
            GTEST_SKIP() << "nobody (uid 65534) cannot run " << LOCKSCOPECTL;
    }
    const std::string readOnly = path("read-only.db");
    ASSERT_TRUE(QFile::copy(QString::fromStdString(good), QString::fromStdString(readOnly)));
    ASSERT_EQ(::chmod(readOnly.c_str(), 0444), 0);
    ASSERT_EQ(::chmod(dir.path().toLocal8Bit().constData(), 0555), 0);
    {
        process::ChildProcess record(asUser(
            {"--endpoints", cluster().endpointList(), "record", prefix(), "--to", readOnly}));
        std::vector<std::string> lines;
        while (auto line = record.readLine(15s))
            lines.push_back(*line);
        EXPECT_EQ(record.wait(15s), 1);
        ASSERT_FALSE(lines.empty());
        EXPECT_NE(lines.back().find("read-only"), std::string::npos) << lines.back();
        process::ChildProcess read(asUser({"history", readOnly, "--json"}));
        std::vector<std::string> listed;
        while (auto line = read.readLine(15s))
            listed.push_back(*line);
        EXPECT_EQ(read.wait(15s), 0);
        EXPECT_EQ(jsonLines(listed).size(), recordedBefore.size())
            << "the read-only file lost events";
    }
    ::chmod(dir.path().toLocal8Bit().constData(), 0755);
    EXPECT_EQ(contents(QString::fromStdString(readOnly)), original);
}

// A key that blocks forever (no lease, no recipe) is recorded as an anomaly appearing at the
// revision that put it, and going at the one that deleted it, after the events of each.
TEST_F(LockscopectlRecordHistoryIntegrationTest, AnAnomalyIsRecordedAppearingAndGoing) {
    const std::string file = path("anomaly.db");
    const std::string stuck = prefix() + "stuck\xff";
    auto recorder = startRecorder(file);
    pb::PutRequest put;
    put.set_key(stuck);
    const auto putDone = call(*client, &Client::put, put);
    ASSERT_TRUE(putDone);
    ASSERT_TRUE(recorded(file, "acquired", stuck));
    pb::DeleteRangeRequest del;
    del.set_key(stuck);
    const auto deleted = call(*client, &Client::deleteRange, del);
    ASSERT_TRUE(deleted);
    ASSERT_TRUE(eventually(
        [&] {
            for (const auto& e : history(file))
                if (e["event"].toString() == "anomaly_went")
                    return true;
            return false;
        },
        20s));
    recorder->signal(SIGINT);
    ASSERT_EQ(recorder->wait(15s), 0);

    std::vector<QJsonObject> anomalies;
    std::size_t putAt = 0, deletedAt = 0, appearedAt = 0, wentAt = 0;
    const auto entries = history(file);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (bytesField(entries[i], "key") != stuck)
            continue;
        const QString event = entries[i]["event"].toString();
        if (event.startsWith("anomaly_"))
            anomalies.push_back(entries[i]);
        // A key that is its lock is acquired when put, and released when deleted.
        (event == "acquired"           ? putAt
         : event == "released"         ? deletedAt
         : event == "anomaly_appeared" ? appearedAt
                                       : wentAt) = i;
    }
    ASSERT_EQ(anomalies.size(), 2u) << "one anomaly, appearing then going";
    EXPECT_EQ(anomalies[0]["event"].toString(), "anomaly_appeared");
    EXPECT_EQ(anomalies[1]["event"].toString(), "anomaly_went");
    for (const auto& anomaly : anomalies) {
        EXPECT_EQ(anomaly["kind"].toString(), "not_a_lock_key");
        EXPECT_EQ(bytesField(anomaly, "lock"), stuck);
        EXPECT_FALSE(anomaly["detail"].toString().isEmpty());
    }
    EXPECT_EQ(anomalies[0]["revision"].toInteger(), putDone->header().revision());
    EXPECT_EQ(anomalies[1]["revision"].toInteger(), deleted->header().revision());
    EXPECT_LT(putAt, appearedAt) << "the anomaly before the event that made it";
    EXPECT_LT(deletedAt, wentAt) << "the anomaly gone before the event that ended it";

    // The lines for people say the same.
    const auto [code, lines] = runToEnd({"history", file, "--lock", stuck});
    EXPECT_EQ(code, 0);
    ASSERT_EQ(std::count_if(lines.begin(), lines.end(),
                            [](const std::string& line) {
                                return line.find("anomaly appeared  not_a_lock_key") !=
                                       std::string::npos;
                            }),
              1);
}

TEST_F(LockscopectlRecordHistoryIntegrationTest, AFullDiskEndsTheRecordingAndKeepsWhatWasRecorded) {
    const std::string file = path("full.db");
    recordOneHold(file);
    const auto recordedBefore = history(file);
    ASSERT_GE(recordedBefore.size(), 3u);
    const auto size = QFile(QString::fromStdString(file)).size();

    // The file may grow by 48 KiB: lock keys of 900 bytes fill it in a few dozen events.
    process::ChildProcess recorder({"prlimit", "--fsize=" + std::to_string(size + 48 * 1024),
                                    LOCKSCOPECTL, "--endpoints", cluster().endpointList(), "record",
                                    prefix(), "--to", file, "--checkpoint-every", "1s"});
    const std::string longName = prefix() + std::string(900, 'k');
    std::vector<std::string> said;
    std::optional<int> exit;
    for (int i = 0; i < 500 && !exit; ++i) {
        pb::PutRequest put;
        put.set_key(longName + std::to_string(i));
        ASSERT_TRUE(call(*client, &Client::put, put));
        exit = recorder.wait(20ms);
    }
    while (auto line = recorder.readLine(5s))
        said.push_back(*line);
    if (!exit)
        exit = recorder.wait(15s);
    EXPECT_EQ(exit, 1) << "the recorder went on past its file size limit";
    ASSERT_FALSE(said.empty());
    EXPECT_NE(said.back().find("cannot write"), std::string::npos) << said.back();
    EXPECT_NE(said.back().find("file size limit"), std::string::npos) << said.back();

    const auto after = history(file);
    ASSERT_GE(after.size(), recordedBefore.size());
    for (std::size_t i = 0; i < recordedBefore.size(); ++i)
        EXPECT_EQ(after[i], recordedBefore[i]) << "entry " << i << " changed";
}

// Recorders of two prefixes write into one PostgreSQL database at once, one with its password in
// the URL, one in PGPASSWORD; history reads each apart; a second recorder of a prefix being
// recorded, a wrong password and a closed port are refused with the reason; no message ever
// shows the password.
TEST_F(LockscopectlRecordHistoryIntegrationTest,
       RecordersShareAPostgresqlDatabaseAndItsPasswordIsNeverPrinted) {
    ASSERT_TRUE(postgres.start()) << postgres.error();
    ASSERT_TRUE(postgres.createDatabase("shared")) << postgres.error();
    const std::string url = postgres.url("shared");
    const std::string shown = postgres.url("shared", false);
    const auto noPassword = [](const std::vector<std::string>& lines) {
        for (const auto& line : lines)
            EXPECT_EQ(line.find("secret"), std::string::npos) << line;
    };
    const auto says = [](const std::vector<std::string>& lines, const std::string& words) {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
            return line.find(words) != std::string::npos;
        });
    };
    // Started one after the other, so the first is source 1.
    auto first = lockscopectl({"record", prefix() + "a/", "--to", url});
    std::optional<std::string> line;
    while ((line = first->readLine(30s)) && line->find("lockscopectl: recording") != 0) {
    }
    ASSERT_TRUE(line) << "the first recorder never said it was recording";
    EXPECT_EQ(*line, "lockscopectl: recording the locks under " + prefix() + "a/ into " + shown);
    process::ChildProcess second({LOCKSCOPECTL, "--endpoints", cluster().endpointList(), "record",
                                  prefix() + "b/", "--to", shown},
                                 {std::string("PGPASSWORD=") + LocalPostgres::password});
    while ((line = second.readLine(30s)) && line->find("lockscopectl: recording") != 0) {
    }
    ASSERT_TRUE(line) << "the second recorder never said it was recording";

    const auto [taken, takenLines] = runToEnd({"record", prefix() + "a/", "--to", url});
    EXPECT_EQ(taken, 1);
    EXPECT_TRUE(says(takenLines, "another recorder is recording the locks under " + prefix() +
                                     "a/ of " + cluster().endpointList() + " into it now"))
        << takenLines.front();
    noPassword(takenLines);

    std::map<std::string, std::string> keys; // per prefix, the lock key taken under it
    for (const std::string sub : {"a/", "b/"}) {
        auto holder = etcdctlLock(prefix() + sub + "deploy");
        const auto key = holder->readLine(10s);
        ASSERT_TRUE(key);
        keys[sub] = *key;
        holder->signal(SIGINT);
        ASSERT_EQ(holder->wait(10s), 0);
    }
    const auto released = [&](const char* source, const std::string& key) {
        return eventually(
            [&] {
                for (const auto& e : history(url, {"--source", source}))
                    if (e["event"].toString() == "released" && bytesField(e, "key") == key)
                        return true;
                return false;
            },
            20s);
    };
    ASSERT_TRUE(released("1", keys["a/"]));
    ASSERT_TRUE(released("2", keys["b/"]));
    first->signal(SIGINT);
    second.signal(SIGINT);
    EXPECT_EQ(first->wait(15s), 0);
    EXPECT_EQ(second.wait(15s), 0);

    for (const auto& [source, sub] : {std::pair{"1", "a/"}, std::pair{"2", "b/"}}) {
        std::vector<std::string> kinds;
        for (const auto& e : history(url, {"--source", source})) {
            EXPECT_EQ(bytesField(e, "key").rfind(prefix() + sub, 0), 0u) << bytesField(e, "key");
            if (bytesField(e, "key") == keys[sub])
                kinds.push_back(e["event"].toString().toStdString());
        }
        EXPECT_EQ(kinds, (std::vector<std::string>{"enqueued", "acquired", "released"}));
    }
    const auto [report, reportLines] = runToEnd({"history", url, "--source", "2", "--report"});
    EXPECT_EQ(report, 0);
    EXPECT_TRUE(says(reportLines, prefix() + "b/deploy"));

    const auto [both, bothLines] = runToEnd({"history", url});
    EXPECT_EQ(both, 1);
    EXPECT_TRUE(says(bothLines, shown +
                                    ": cannot read: it holds the histories of 2 sources; read "
                                    "one with --source ID: 1 = the locks under " +
                                    prefix() + "a/ of " + cluster().endpointList()))
        << bothLines.front();
    std::string wrong = url;
    wrong.replace(wrong.find("secret"), 6, "wrong-secret");
    const auto [refused, refusedLines] = runToEnd({"history", wrong, "--source", "1"});
    EXPECT_EQ(refused, 1);
    EXPECT_TRUE(says(refusedLines, "password authentication failed for user \"lockscope\""))
        << refusedLines.front();
    noPassword(refusedLines);
    std::string closed = url;
    const std::string port = ":" + std::to_string(postgres.port()) + "/";
    closed.replace(closed.find(port), port.size(), ":" + std::to_string(postgres.port() + 1) + "/");
    const auto [unreachable, unreachableLines] = runToEnd({"record", prefix(), "--to", closed});
    EXPECT_EQ(unreachable, 1);
    EXPECT_TRUE(says(unreachableLines, "cannot open: connection to server at \"127.0.0.1\""))
        << unreachableLines.front();
    noPassword(unreachableLines);
    // A URL without its database is the user's to fix (exit code 2), shown without its password.
    const auto [noDatabase, noDatabaseLines] =
        runToEnd({"history", "postgresql://lockscope:secret@127.0.0.1"});
    EXPECT_EQ(noDatabase, 2);
    EXPECT_TRUE(says(noDatabaseLines, "postgresql://lockscope@127.0.0.1 is no PostgreSQL URL "
                                      "LockScope can use: write it as "
                                      "postgresql://user[:password]@host[:port]/dbname"))
        << noDatabaseLines.front();
    noPassword(noDatabaseLines);
}

// Without Qt's PostgreSQL driver (a lockscopectl whose qt.conf shows it Qt's SQLite driver alone),
// a URL is refused naming the package to install; a file still records.
TEST_F(LockscopectlRecordHistoryIntegrationTest, WithoutQtsPostgresqlDriverAUrlNamesThePackage) {
    ensureApplication();
    const QString plugins = dir.filePath("plugins");
    ASSERT_TRUE(QDir().mkpath(plugins + "/sqldrivers"));
    ASSERT_TRUE(
        QFile::link(QLibraryInfo::path(QLibraryInfo::PluginsPath) + "/sqldrivers/libqsqlite.so",
                    plugins + "/sqldrivers/libqsqlite.so"));
    const QString program = dir.filePath("lockscopectl");
    ASSERT_TRUE(QFile::copy(LOCKSCOPECTL, program));
    QFile conf(dir.filePath("qt.conf"));
    ASSERT_TRUE(conf.open(QIODevice::WriteOnly));
    conf.write("[Paths]\nPlugins = " + plugins.toUtf8() + "\n");
    conf.close();
    const auto run = [&](const std::vector<std::string>& args) {
        std::vector<std::string> argv = {program.toStdString(), "--endpoints",
                                         cluster().endpointList()};
        argv.insert(argv.end(), args.begin(), args.end());
        process::ChildProcess child(argv);
        std::string output;
        while (const auto line = child.readLine(15s))
            output += *line + "\n";
        return std::pair{child.wait(15s), output};
    };
    const auto [code, output] =
        run({"record", prefix(), "--to", "postgresql://lockscope:secret@127.0.0.1:1/history"});
    EXPECT_EQ(code, 1);
    EXPECT_NE(output.find("postgresql://lockscope@127.0.0.1:1/history: cannot open: Qt's "
                          "PostgreSQL driver (QPSQL) is missing: install libqt6sql6-psql"),
              std::string::npos)
        << output;
    EXPECT_EQ(output.find("secret"), std::string::npos) << output;
    const auto [fileCode, fileOutput] = run({"history", path("none.db")});
    EXPECT_EQ(fileCode, 1);
    EXPECT_NE(fileOutput.find("no such file"), std::string::npos) << fileOutput;
}

} // namespace
