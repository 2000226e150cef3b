// LockHistoryStore on real SQLite files in a temporary folder and on a real PostgreSQL server
// (started for the test): what is written reads back exact (bytes, times, order), batches and
// reopening keep everything, sources sharing a store are read apart, recorders write into one
// database at once, and stores it must not record into are refused with the reason.
#include "app/core/lock_history_store.h"
#include "support/local_postgres.h"
#include "support/qtest_registry.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <algorithm>
#include <latch>
#include <thread>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

const std::string prefix = "/locks/";
const std::string cluster = "127.0.0.1:2379";
const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

etcd::LockEvent lockEvent(etcd::LockEventKind kind, const std::string& key, int64_t revision) {
    etcd::LockEvent e{};
    e.kind = kind;
    e.lock = "/locks/\xff"
             "job";
    e.key = e.lock + "/" + key;
    e.lease = 0x694d0000 + revision;
    e.revision = revision;
    e.createRevision = revision - 1;
    e.observedAt = t0 + std::chrono::milliseconds(revision * 250);
    e.recipe = etcd::QueueKind::RwMutex;
    return e;
}

// A file that SQLite alone writes: `statements` then a table, as another program's file would be.
void writeSqlite(const QString& path, const QStringList& statements) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "other");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery query(db);
        for (const QString& statement : statements)
            QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
        QVERIFY(query.exec("CREATE TABLE other(a)"));
        db.close();
    }
    QSqlDatabase::removeDatabase("other");
}

} // namespace

class LockHistoryStoreTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        QVERIFY2(postgres.start(), postgres.error().c_str());
    }
    void cleanupTestCase() { postgres.stop(); }

    // A live view's checkpoint (its queues, shared with the monitor) is written key by key as
    // the same rows historyKeysOf makes of it: the order, the holders, the times, a lease gone.
    void aLiveCheckpointReadsBackAsItsHistoryKeys_data() { backends(); }
    void aLiveCheckpointReadsBackAsItsHistoryKeys() {
        const QString path = newStore("live-checkpoint");
        QVERIFY(!path.isEmpty());
        const auto key = [](const std::string& name, int64_t lease, int64_t revision, bool holds) {
            etcd::LockKey k;
            k.key = name;
            k.lease = lease;
            k.createRevision = k.modRevision = revision;
            k.enqueuedAt = t0 + std::chrono::seconds(revision);
            if (holds)
                k.acquiredAt = k.enqueuedAt + 1s;
            return k;
        };
        etcd::LockQueues locks;
        locks.emplace("/locks/job", etcd::LockQueue{"/locks/job",
                                                    {key("/locks/job/694d1", 0x694d1, 3, true),
                                                     key("/locks/job/694d2", 0x694d2, 4, false)}});
        locks.emplace("/locks/one",
                      etcd::LockQueue{"/locks/one", {key("/locks/one", 0x694d3, 5, true)}, true});
        const etcd::AnomaliesByLock anomalies{
            {"/locks/job", {{"/locks/job/694d2", etcd::AnomalyKind::ExpiredLease, "gone"}}}};
        const LiveCheckpoint live{6, t0 + 10s, "start", sharedQueuesOf(locks), anomalies};
        QString problem;
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(live));
            QVERIFY(store->commit());
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto checkpoints = reader->checkpoints();
        QVERIFY2(checkpoints, qPrintable(reader->error()));
        QCOMPARE(checkpoints->size(), std::size_t(1));
        QCOMPARE(checkpoints->front().revision, int64_t(6));
        QVERIFY(checkpoints->front().at == live.at);
        QCOMPARE(checkpoints->front().reason, std::string("start"));
        const std::vector<HistoryKey> expected = historyKeysOf(locks, anomalies);
        const std::vector<HistoryKey>& read = checkpoints->front().keys;
        QCOMPARE(read.size(), std::size_t(3));
        QCOMPARE(read.size(), expected.size());
        for (std::size_t i = 0; i < read.size(); ++i) {
            QCOMPARE(read[i].lock, expected[i].lock);
            QCOMPARE(read[i].key, expected[i].key);
            QCOMPARE(read[i].lease, expected[i].lease);
            QCOMPARE(read[i].createRevision, expected[i].createRevision);
            QCOMPARE(read[i].recipe, expected[i].recipe);
            QCOMPARE(read[i].holds, expected[i].holds);
            QVERIFY(read[i].enqueuedAt == expected[i].enqueuedAt);
            QVERIFY(read[i].acquiredAt == expected[i].acquiredAt);
            QCOMPARE(read[i].leaseGone, expected[i].leaseGone);
        }
        QVERIFY(read[0].holds && !read[1].holds);
        QVERIFY(!read[0].leaseGone && read[1].leaseGone);
        QCOMPARE(read[2].recipe, etcd::QueueKind::SingleKey);
    }

    void eventsGapsAndCheckpointsReadBackExactInOrder_data() { backends(); }
    void eventsGapsAndCheckpointsReadBackExactInOrder() {
        const QString path = newStore("history");
        QVERIFY(!path.isEmpty());
        QString problem;
        etcd::LockEvent acquired = lockEvent(etcd::LockEventKind::Acquired, "a", 7);
        acquired.waited = 1500ms;
        acquired.atLeast = true;
        etcd::LockEvent released = lockEvent(etcd::LockEventKind::Released, "a", 9);
        released.held = 42ms;
        released.heldAtMost = 2042ms;
        released.recovered = true;
        const HistoryGap gap{t0 + 1s, t0 + 3s, 8, "no answer from etcd for 2.0 s"};
        const HistoryCheckpoint checkpoint{9,
                                           t0 + 4s,
                                           "resync",
                                           {{"/locks/\xff"
                                             "job",
                                             "/locks/\xff"
                                             "job/b\x00"
                                             "c",
                                             5, 4, 6, etcd::QueueKind::Election, true, t0 + 1250ms,
                                             t0 + 2500ms, true, false, true},
                                            // After it in the queue, before it byte-wise.
                                            {"/locks/\xff"
                                             "job",
                                             "/locks/\xff"
                                             "job/a",
                                             8, 7, 7, etcd::QueueKind::Election, false}}};
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(acquired));
            QVERIFY(store->write(gap));
            QVERIFY(store->write(released));
            QVERIFY(store->write(checkpoint));
            QVERIFY(store->commit());
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        QCOMPARE(reader->prefix(), prefix);
        std::vector<int64_t> seqs;
        const auto entries = reader->entries({}, &seqs);
        QVERIFY2(entries, qPrintable(reader->error()));
        QCOMPARE(entries->size(), std::size_t(3));
        QCOMPARE(seqs.size(), std::size_t(3));
        QVERIFY(std::is_sorted(seqs.begin(), seqs.end()) && seqs.front() < seqs.back());
        const auto& first = std::get<etcd::LockEvent>((*entries)[0]);
        QCOMPARE(first.kind, etcd::LockEventKind::Acquired);
        QCOMPARE(first.lock, acquired.lock);
        QCOMPARE(first.key, acquired.key);
        QCOMPARE(first.lease, acquired.lease);
        QCOMPARE(first.revision, int64_t(7));
        QCOMPARE(first.createRevision, int64_t(6));
        QVERIFY(first.observedAt == acquired.observedAt);
        QCOMPARE(first.waited, std::optional(1500ms));
        QCOMPARE(first.held, std::optional<std::chrono::milliseconds>());
        QVERIFY(first.atLeast);
        QCOMPARE(first.recipe, etcd::QueueKind::RwMutex);
        const auto& readGap = std::get<HistoryGap>((*entries)[1]);
        QVERIFY(readGap.since == gap.since && readGap.until == gap.until);
        QCOMPARE(readGap.revision, int64_t(8));
        QCOMPARE(readGap.reason, gap.reason);
        const auto& last = std::get<etcd::LockEvent>((*entries)[2]);
        QCOMPARE(last.held, std::optional(42ms));
        QCOMPARE(last.heldAtMost, std::optional(2042ms));
        QCOMPARE(last.waitedAtMost, std::optional<std::chrono::milliseconds>());
        QVERIFY(last.recovered);
        const auto checkpoints = reader->checkpoints();
        QVERIFY2(checkpoints, qPrintable(reader->error()));
        QCOMPARE(checkpoints->size(), std::size_t(1));
        QCOMPARE(checkpoints->front().revision, int64_t(9));
        QCOMPARE(checkpoints->front().reason, std::string("resync"));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(2));
        const HistoryKey& key = checkpoints->front().keys.front();
        QCOMPARE(key.key, checkpoint.keys.front().key); // the NUL byte kept
        QCOMPARE(key.key.size(), checkpoint.keys.front().key.size());
        QCOMPARE(key.recipe, etcd::QueueKind::Election);
        QVERIFY(key.holds);
        QCOMPARE(key.modRevision, int64_t(6));
        QCOMPARE(checkpoints->front().keys.back().key, checkpoint.keys.back().key);
        QVERIFY(!checkpoints->front().keys.back().holds);
        // What the live view knew of the keys, for a replay that starts here; none of the key
        // that was given none.
        QCOMPARE(checkpoints->front().seq, seqs.back() + 1);
        QVERIFY(key.enqueuedAt == checkpoint.keys.front().enqueuedAt);
        QVERIFY(key.acquiredAt == checkpoint.keys.front().acquiredAt);
        QVERIFY(key.enqueuedBeforeSeen && !key.acquiredBeforeSeen && key.leaseGone);
        const HistoryKey& plain = checkpoints->front().keys.back();
        QVERIFY(!plain.enqueuedAt && !plain.acquiredAt && !plain.leaseGone);
    }

    void aFilterKeepsOneLockAndASpanButEveryGapInIt_data() { backends(); }
    void aFilterKeepsOneLockAndASpanButEveryGapInIt() {
        const QString path = newStore("filtered");
        QVERIFY(!path.isEmpty());
        QString problem;
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            for (int64_t revision = 2; revision <= 10; ++revision) {
                etcd::LockEvent e = lockEvent(etcd::LockEventKind::Enqueued, "k", revision);
                if (revision % 2 == 0)
                    e.lock = "/locks/other";
                QVERIFY(store->write(e));
            }
            QVERIFY(store->write(HistoryGap{t0 + 1s, t0 + 2s, 6, "compacted"}));
            QVERIFY(store->write(HistoryGap{t0 + 10s, t0 + 11s, 20, "later"}));
        } // committed by the destructor
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        LockHistoryStore::Filter filter;
        filter.lock = "/locks/other";
        filter.sinceRevision = 4;
        filter.untilRevision = 8;
        const auto byRevision = reader->entries(filter);
        QVERIFY(byRevision);
        std::vector<int64_t> revisions;
        for (const auto& entry : *byRevision)
            revisions.push_back(std::visit([](const auto& e) { return e.revision; }, entry));
        QCOMPARE(revisions, (std::vector<int64_t>{4, 6, 8, 6})); // the gap comes last: written so
        filter = {};
        filter.since = t0 + 1500ms;
        filter.until = t0 + 2s;
        const auto byTime = reader->entries(filter);
        QVERIFY(byTime);
        revisions.clear();
        for (const auto& entry : *byTime)
            revisions.push_back(std::visit([](const auto& e) { return e.revision; }, entry));
        QCOMPARE(revisions, (std::vector<int64_t>{6, 7, 8, 6})); // 1.5 s to 2 s, and the gap
    }

    // Anomalies appearing and going read back exact (key bytes, kind, detail, time) in the
    // order written among events and gaps, and follow a filter by lock and revision as events do.
    void anomaliesReadBackAmongEventsAndFollowAFilter_data() { backends(); }
    void anomaliesReadBackAmongEventsAndFollowAFilter() {
        const QString path = newStore("anomalies");
        QVERIFY(!path.isEmpty());
        QString problem;
        const etcd::LockEvent enqueued = lockEvent(etcd::LockEventKind::Enqueued, "a", 7);
        const HistoryAnomaly appeared{{true,
                                       enqueued.lock,
                                       {enqueued.key + std::string("\0x", 2),
                                        etcd::AnomalyKind::NoLease, "the key has no lease"}},
                                      7,
                                      t0 + 1750ms};
        const HistoryAnomaly elsewhere{
            {false, "/locks/other", {"/locks/other/b", etcd::AnomalyKind::ExpiredLease, "gone"}},
            8,
            t0 + 2s};
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(enqueued));
            QVERIFY(store->write(appeared));
            QVERIFY(store->write(HistoryGap{t0 + 1s, t0 + 3s, 8, "compacted"}));
            QVERIFY(store->write(elsewhere));
            QVERIFY(store->write(lockEvent(etcd::LockEventKind::Cancelled, "a", 9)));
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto entries = reader->entries({});
        QVERIFY2(entries, qPrintable(reader->error()));
        QCOMPARE(entries->size(), std::size_t(5));
        QVERIFY(std::holds_alternative<etcd::LockEvent>((*entries)[0]));
        const auto& first = std::get<HistoryAnomaly>((*entries)[1]);
        QVERIFY(first.change == appeared.change);
        QCOMPARE(first.change.anomaly.key.size(), appeared.change.anomaly.key.size()); // the NUL
        QCOMPARE(first.revision, int64_t(7));
        QVERIFY(first.at == appeared.at);
        QVERIFY(std::holds_alternative<HistoryGap>((*entries)[2]));
        QVERIFY(std::get<HistoryAnomaly>((*entries)[3]).change == elsewhere.change);
        QVERIFY(std::holds_alternative<etcd::LockEvent>((*entries)[4]));

        LockHistoryStore::Filter filter;
        filter.lock = enqueued.lock;
        filter.sinceRevision = 7;
        filter.untilRevision = 8;
        const auto ofLock = reader->entries(filter);
        QVERIFY2(ofLock, qPrintable(reader->error()));
        QCOMPARE(ofLock->size(), std::size_t(3)); // the event, its anomaly, and the gap
        QVERIFY(std::get<HistoryAnomaly>((*ofLock)[1]).change == appeared.change);
        filter = {};
        filter.sinceRevision = 8;
        const auto later = reader->entries(filter);
        QVERIFY2(later, qPrintable(reader->error()));
        QCOMPARE(later->size(), std::size_t(3)); // the gap, the other lock's anomaly, the event
        QVERIFY(std::get<HistoryAnomaly>((*later)[1]).change == elsewhere.change);
    }

    void aBatchLargerThanTheLimitCommitsOnItsOwnAndReopeningAppends_data() { backends(); }
    void aBatchLargerThanTheLimitCommitsOnItsOwnAndReopeningAppends() {
        const QString path = newStore("batches");
        QVERIFY(!path.isEmpty());
        QString problem;
        const int count = LockHistoryStore::batchRows + 10;
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            const auto empty = store->storedBytes();
            QVERIFY2(empty, qPrintable(store->error()));
            for (int i = 0; i < count; ++i)
                QVERIFY(store->write(lockEvent(etcd::LockEventKind::Enqueued, "k", 2 + i)));
            // At least the key bytes of every event are stored.
            const auto full = store->storedBytes();
            QVERIFY2(full, qPrintable(store->error()));
            QVERIFY2(*full - *empty > int64_t(count) * 20, qPrintable(QString::number(*full)));
            // Before any commit() of ours, the first batch is readable by another connection.
            auto reader = LockHistoryStore::openForReading(path, problem);
            QVERIFY2(reader, qPrintable(problem));
            const auto seen = reader->entries({});
            QVERIFY(seen);
            QCOMPARE(static_cast<int>(seen->size()), LockHistoryStore::batchRows);
        }
        auto again = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
        QVERIFY2(again, qPrintable(problem));
        QVERIFY(again->lastWrittenAt() ==
                lockEvent(etcd::LockEventKind::Enqueued, "k", 2 + count - 1).observedAt);
        QVERIFY(again->write(lockEvent(etcd::LockEventKind::Acquired, "k", 2 + count)));
        QVERIFY(again->commit());
        const auto all = again->entries({});
        QVERIFY(all);
        QCOMPARE(static_cast<int>(all->size()), count + 1);
        QCOMPARE(std::get<etcd::LockEvent>(all->back()).kind, etcd::LockEventKind::Acquired);
    }

    // Retention by age: a week kept of ten days, from the checkpoint before the week began, so
    // what is left still replays.
    void pruningByAgeKeepsTheDaysFromTheCheckpointBefore() {
        const QString path = dir.filePath("pruned-by-age.db");
        QString problem;
        auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
        QVERIFY2(store, qPrintable(problem));
        int64_t revision = 1;
        for (const auto day : {0h, 48h, 216h}) { // days 0, 2 and 9: a checkpoint, then events
            QVERIFY(store->write(HistoryCheckpoint{revision, t0 + day, "periodic", {}}));
            for (int i = 0; i < 3; ++i) {
                etcd::LockEvent event = lockEvent(etcd::LockEventKind::Enqueued, "k", ++revision);
                event.observedAt = t0 + day + std::chrono::hours(i + 1);
                QVERIFY(store->write(event));
            }
        }
        QVERIFY(store->write(HistoryGap{t0 + 217h, t0 + 218h, revision, "outage"}));
        const auto now = t0 + 240h;
        QVERIFY2(store->prune(now - 7 * 24h, int64_t(1) << 40), qPrintable(store->error()));

        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto checkpoints = reader->checkpoints();
        QVERIFY(checkpoints);
        QCOMPARE(checkpoints->size(), std::size_t(2));
        QVERIFY(checkpoints->front().at == t0 + 48h); // day 2: the state at the week's start
        const auto entries = reader->entries({});
        QVERIFY(entries);
        QCOMPARE(entries->size(), std::size_t(7)); // days 2 and 9, and the gap
        QVERIFY(std::get<etcd::LockEvent>(entries->front()).observedAt == t0 + 49h);
        QVERIFY(std::holds_alternative<HistoryGap>(entries->back()));
        // Written on after it, as before.
        QVERIFY(store->write(lockEvent(etcd::LockEventKind::Acquired, "k", ++revision)));
        QVERIFY(store->commit());
    }

    // Retention by size: the oldest checkpoints and what follows them go until the file is
    // within the limit, its newest history whole; the file gives the space back.
    void pruningBySizeDropsTheOldestUntilTheFileFits() {
        const QString path = dir.filePath("pruned-by-size.db");
        QString problem;
        auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
        QVERIFY2(store, qPrintable(problem));
        constexpr int segments = 10;
        int64_t revision = 1;
        for (int segment = 0; segment < segments; ++segment) {
            HistoryCheckpoint checkpoint{
                revision, t0 + std::chrono::minutes(segment), "periodic", {}};
            for (int i = 0; i < 200; ++i)
                checkpoint.keys.push_back(
                    {"/locks/job",
                     "/locks/job/" + std::string(200, 'a' + i % 26) + std::to_string(i), i, i, i,
                     etcd::QueueKind::Mutex, i == 0});
            QVERIFY(store->write(checkpoint));
            for (int i = 0; i < 100; ++i)
                QVERIFY(store->write(lockEvent(etcd::LockEventKind::Enqueued, "k", ++revision)));
        }
        QVERIFY(store->commit());
        const auto full = store->storedBytes();
        QVERIFY(full);
        const int64_t limit = *full / 3;
        QVERIFY2(store->prune(t0 - 24h, limit), qPrintable(store->error()));
        const auto after = store->storedBytes();
        QVERIFY(after);
        QVERIFY2(*after <= limit, qPrintable(QString("%1 > %2").arg(*after).arg(limit)));

        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto checkpoints = reader->checkpoints();
        QVERIFY(checkpoints);
        QVERIFY(!checkpoints->empty());
        QVERIFY2(checkpoints->size() < std::size_t(segments) / 2,
                 qPrintable(QString::number(checkpoints->size())));
        QVERIFY(checkpoints->back().at == t0 + std::chrono::minutes(segments - 1));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(200));
        const auto entries = reader->entries({});
        QVERIFY(entries);
        QCOMPARE(entries->size(), checkpoints->size() * 100); // whole segments, the newest
        QCOMPARE(std::get<etcd::LockEvent>(entries->back()).revision, revision);
        QCOMPARE(std::get<etcd::LockEvent>(entries->front()).revision,
                 checkpoints->front().revision + 1);
    }

    void filesItMustNotRecordIntoAreRefusedWithTheReason() {
        QString problem;
        QVERIFY(!LockHistoryStore::openForReading(dir.filePath("missing.db"), problem));
        QVERIFY2(problem.contains("no such file"), qPrintable(problem));

        const QString garbage = dir.filePath("garbage.db");
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        for (bool writing : {false, true}) {
            problem.clear();
            QVERIFY(writing ? !LockHistoryStore::openForWriting(garbage, cluster, prefix, problem)
                            : !LockHistoryStore::openForReading(garbage, problem));
            QVERIFY2(problem.contains("not a database") && problem.contains("damaged"),
                     qPrintable(problem));
        }
        QCOMPARE(QFile(garbage).size(), qint64(4096)); // left as it was

        const QString other = dir.filePath("other.db");
        writeSqlite(other, {});
        problem.clear();
        QVERIFY(!LockHistoryStore::openForWriting(other, cluster, prefix, problem));
        QVERIFY2(problem.contains("not a LockScope recording"), qPrintable(problem));

        const QString newer = dir.filePath("newer.db");
        writeSqlite(newer,
                    {"PRAGMA application_id = 1280004931",
                     QString("PRAGMA user_version = %1").arg(LockHistoryStore::schemaVersion + 1)});
        for (bool writing : {false, true}) {
            problem.clear();
            QVERIFY(writing ? !LockHistoryStore::openForWriting(newer, cluster, prefix, problem)
                            : !LockHistoryStore::openForReading(newer, problem));
            QVERIFY2(problem.contains("newer LockScope"), qPrintable(problem));
        }
    }

    // A file of schema 1 (one recording, before sources), as that LockScope wrote it: refused
    // for reading until recorded into once, then migrated with its entries and its checkpoint's
    // key order kept, and gone on with by the recorder of its prefix, which names it.
    void aFileOfSchemaOneIsMigratedAndGoneOnWith() {
        const QString path = dir.filePath("schema1.db");
        writeSqlite(
            path,
            {"PRAGMA application_id = 1280004931", "PRAGMA user_version = 1",
             "CREATE TABLE recordings(seq INTEGER PRIMARY KEY, started_ms INTEGER NOT NULL,"
             " prefix BLOB NOT NULL)",
             "CREATE TABLE events(seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, revision INTEGER"
             " NOT NULL, at_ms INTEGER NOT NULL, lock BLOB NOT NULL, key BLOB NOT NULL, lease"
             " INTEGER NOT NULL, recipe TEXT NOT NULL, create_revision INTEGER NOT NULL,"
             " waited_ms INTEGER, held_ms INTEGER, recovered INTEGER NOT NULL, at_least INTEGER"
             " NOT NULL, waited_at_most_ms INTEGER, held_at_most_ms INTEGER)",
             "CREATE INDEX events_by_lock ON events(lock, seq)",
             "CREATE TABLE gaps(seq INTEGER PRIMARY KEY, since_ms INTEGER NOT NULL, until_ms"
             " INTEGER NOT NULL, revision INTEGER NOT NULL, reason TEXT NOT NULL)",
             "CREATE TABLE checkpoints(seq INTEGER PRIMARY KEY, revision INTEGER NOT NULL, at_ms"
             " INTEGER NOT NULL, reason TEXT NOT NULL)",
             "CREATE TABLE checkpoint_keys(checkpoint INTEGER NOT NULL REFERENCES"
             " checkpoints(seq), lock BLOB NOT NULL, key BLOB NOT NULL, lease INTEGER NOT NULL,"
             " create_revision INTEGER NOT NULL, mod_revision INTEGER NOT NULL, recipe TEXT NOT"
             " NULL, holds INTEGER NOT NULL)",
             "CREATE INDEX checkpoint_keys_by_checkpoint ON checkpoint_keys(checkpoint)",
             "INSERT INTO recordings(started_ms, prefix) VALUES(1, CAST('/locks/' AS BLOB))",
             "INSERT INTO events VALUES(1, 'acquired', 7, 1795000001000, CAST('/locks/j' AS"
             " BLOB), CAST('/locks/j/b' AS BLOB), 5, 'mutex', 6, 10, NULL, 0, 0, NULL, NULL)",
             "INSERT INTO checkpoints VALUES(2, 7, 1795000002000, 'start')",
             "INSERT INTO checkpoint_keys VALUES(2, CAST('/locks/j' AS BLOB), CAST('/locks/j/b'"
             " AS BLOB), 5, 6, 6, 'mutex', 1)",
             "INSERT INTO checkpoint_keys VALUES(2, CAST('/locks/j' AS BLOB), CAST('/locks/j/a'"
             " AS BLOB), 9, 7, 7, 'mutex', 0)"});
        QString problem;
        QVERIFY(!LockHistoryStore::openForReading(path, problem));
        QVERIFY2(problem.contains("older LockScope (schema 1)"), qPrintable(problem));
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QCOMPARE(store->source().id, int64_t(1));
            QVERIFY(store->lastWrittenAt() == t0 + 2s);
            QVERIFY(store->write(lockEvent(etcd::LockEventKind::Released, "b", 8)));
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        QCOMPARE(reader->source().name, cluster);
        const auto entries = reader->entries({});
        QVERIFY2(entries, qPrintable(reader->error()));
        QCOMPARE(entries->size(), std::size_t(2));
        QCOMPARE(std::get<etcd::LockEvent>(entries->front()).waited, std::optional(10ms));
        QCOMPARE(std::get<etcd::LockEvent>(entries->back()).revision, int64_t(8));
        const auto checkpoints = reader->checkpoints();
        QVERIFY(checkpoints);
        QCOMPARE(checkpoints->size(), std::size_t(1));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(2));
        QCOMPARE(checkpoints->front().keys.front().key, std::string("/locks/j/b"));
        QCOMPARE(checkpoints->front().keys.back().key, std::string("/locks/j/a"));
    }

    // Recorders of two clusters and two prefixes share a store; each reads back its own, and
    // the next recorder of a source goes on from that source's last entry, not another's.
    void sourcesOfOneStoreAreReadApart_data() { backends(); }
    void sourcesOfOneStoreAreReadApart() {
        const QString path = newStore("shared");
        QVERIFY(!path.isEmpty());
        QString problem;
        const auto record = [&](const std::string& name, const std::string& under,
                                int64_t revision) {
            auto store = LockHistoryStore::openForWriting(path, name, under, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(lockEvent(etcd::LockEventKind::Enqueued, name, revision)));
            QVERIFY(store->write(HistoryCheckpoint{
                revision,
                lockEvent(etcd::LockEventKind::Enqueued, name, revision).observedAt,
                "start",
                {}}));
            QVERIFY(store->commit());
        };
        record(cluster, prefix, 5);
        record(cluster, "/elsewhere/", 50);
        record("10.0.0.9:2379", prefix, 500);
        auto again = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
        QVERIFY2(again, qPrintable(problem));
        QCOMPARE(again->source().id, int64_t(1));
        QVERIFY(again->lastWrittenAt() ==
                lockEvent(etcd::LockEventKind::Enqueued, "", 5).observedAt);
        again.reset();

        QVERIFY(!LockHistoryStore::openForReading(path, problem));
        QVERIFY2(problem.contains("3 sources; read one with --source ID: 1 = the locks under "
                                  "/locks/ of 127.0.0.1:2379; 2 = the locks under /elsewhere/ of "
                                  "127.0.0.1:2379; 3 = the locks under /locks/ of 10.0.0.9:2379"),
                 qPrintable(problem));
        QVERIFY(!LockHistoryStore::openForReading(path, problem, 4));
        QVERIFY2(problem.contains("no source 4"), qPrintable(problem));
        for (const int64_t id : {1, 2, 3}) {
            auto reader = LockHistoryStore::openForReading(path, problem, id);
            QVERIFY2(reader, qPrintable(problem));
            const auto entries = reader->entries({});
            const auto checkpoints = reader->checkpoints();
            QVERIFY(entries && checkpoints);
            QCOMPARE(entries->size(), std::size_t(1));
            QCOMPARE(std::get<etcd::LockEvent>(entries->front()).revision,
                     int64_t(id == 1   ? 5
                             : id == 2 ? 50
                                       : 500));
            QCOMPARE(checkpoints->size(), std::size_t(1));
            QCOMPARE(checkpoints->front().revision,
                     std::get<etcd::LockEvent>(entries->front()).revision);
            QCOMPARE(reader->prefix(), id == 2 ? std::string("/elsewhere/") : prefix);
        }
    }

    // Two recorders start at once on a new store (one sets the schema up, the other waits for
    // it) and write at once, each batches, checkpoints and a gap: nothing collides and each
    // source reads back exactly what its recorder wrote, in order. On a server, a third recorder
    // of a source being recorded is refused while the first records, and welcome after.
    void twoRecordersWriteIntoOneStoreAtOnce_data() { backends(); }
    void twoRecordersWriteIntoOneStoreAtOnce() {
        QFETCH(bool, postgresql);
        const QString url = newStore("at_once");
        QVERIFY(!url.isEmpty());
        constexpr int eventsEach = 3000;
        std::string problems[2];
        std::latch opened(2); // both write at once, whichever opened first
        const auto recordAs = [&](int recorder) {
            QString problem;
            auto store = LockHistoryStore::openForWriting(
                url, "cluster-" + std::to_string(recorder), prefix, problem);
            opened.arrive_and_wait();
            if (!store) {
                problems[recorder] = problem.toStdString();
                return;
            }
            bool ok = true;
            for (int i = 0; i < eventsEach && ok; ++i) {
                const int64_t revision = 2 + i;
                ok = store->write(
                    lockEvent(etcd::LockEventKind::Acquired, std::to_string(recorder), revision));
                if (i % 500 == 0)
                    ok = ok && store->write(HistoryCheckpoint{
                                   revision,
                                   t0,
                                   "periodic",
                                   {{"l", "l/" + std::to_string(recorder), revision, revision,
                                     revision, etcd::QueueKind::Mutex, true}}});
                if (i == eventsEach / 2)
                    ok = ok && store->write(HistoryGap{t0, t0 + 1s, revision, "compacted"});
                if (i % 100 == 0) {
                    ok = ok && store->commit();
                    // The other recorder's batch comes in between (SQLite's busy wait sleeps,
                    // a writer that just committed would take the file again at once).
                    std::this_thread::sleep_for(2ms);
                }
            }
            if (!ok || !store->commit())
                problems[recorder] = store->error().toStdString();
        };
        std::thread first(recordAs, 0), second(recordAs, 1);
        first.join();
        second.join();
        QVERIFY2(problems[0].empty(), problems[0].c_str());
        QVERIFY2(problems[1].empty(), problems[1].c_str());

        QString problem;
        for (const int64_t id : {1, 2}) {
            auto reader = LockHistoryStore::openForReading(url, problem, id);
            QVERIFY2(reader, qPrintable(problem));
            const std::string mine = "/locks/\xff"
                                     "job/" +
                                     reader->source().name.substr(std::string("cluster-").size());
            const auto entries = reader->entries({});
            QVERIFY2(entries, qPrintable(reader->error()));
            QCOMPARE(static_cast<int>(entries->size()), eventsEach + 1);
            int64_t revision = 1;
            for (const HistoryEntry& entry : *entries) {
                if (const auto* event = std::get_if<etcd::LockEvent>(&entry)) {
                    QCOMPARE(event->key, mine);
                    QCOMPARE(event->revision, ++revision);
                } else {
                    QCOMPARE(std::get<HistoryGap>(entry).revision, revision);
                }
            }
            const auto checkpoints = reader->checkpoints();
            QVERIFY(checkpoints);
            QCOMPARE(checkpoints->size(), std::size_t(eventsEach / 500));
            for (const HistoryCheckpoint& checkpoint : *checkpoints) {
                QCOMPARE(checkpoint.keys.size(), std::size_t(1));
                QCOMPARE(checkpoint.keys.front().key,
                         "l/" + reader->source().name.substr(std::string("cluster-").size()));
            }
        }

        if (!postgresql)
            return; // a file has no lock for a source of its own
        auto recording = LockHistoryStore::openForWriting(url, "cluster-0", prefix, problem);
        QVERIFY2(recording, qPrintable(problem));
        QVERIFY(!LockHistoryStore::openForWriting(url, "cluster-0", prefix, problem));
        QVERIFY2(problem.contains("another recorder is recording the locks under /locks/ of "
                                  "cluster-0 into it now"),
                 qPrintable(problem));
        recording.reset();
        QVERIFY2(LockHistoryStore::openForWriting(url, "cluster-0", prefix, problem),
                 qPrintable(problem));
    }

    // What keeps a server's store from being used is named, and the password never is.
    void postgresProblemsAreNamedWithoutThePassword() {
        QVERIFY2(postgres.createDatabase("problems"), postgres.error().c_str());
        const QString good = QString::fromStdString(postgres.url("problems"));
        QString problem;
        const auto refused = [&problem](const QString& url, const char* expected) {
            problem.clear();
            QVERIFY(!LockHistoryStore::openForWriting(url, cluster, prefix, problem));
            QVERIFY2(problem.contains(expected), qPrintable(problem));
            QVERIFY2(!problem.contains("secret"), qPrintable(problem));
        };
        QString wrong = good;
        wrong.replace("secret", "secretly-wrong");
        refused(wrong, "password authentication failed for user \"lockscope\" (give the user's "
                       "password in the URL");
        QString closedPort = good;
        closedPort.replace(QString(":%1/").arg(postgres.port()),
                           QString(":%1/").arg(postgres.port() + 1));
        refused(closedPort, "cannot open: connection to server at \"127.0.0.1\"");
        refused(QString::fromStdString(postgres.url("missing")),
                "database \"missing\" does not exist (LockScope records into a database that "
                "exists");
        refused("postgresql://lockscope:secret@127.0.0.1",
                "is no PostgreSQL URL LockScope can use");
        // Without its password in the URL, the password comes from PGPASSWORD.
        qputenv("PGPASSWORD", test::LocalPostgres::password);
        auto store = LockHistoryStore::openForWriting(
            QString::fromStdString(postgres.url("problems", false)), cluster, prefix, problem);
        qunsetenv("PGPASSWORD");
        QVERIFY2(store, qPrintable(problem));
        store.reset();

        // A database of another program's tables, and one of a newer LockScope.
        QVERIFY2(postgres.createDatabase("someone_elses"), postgres.error().c_str());
        QVERIFY2(postgres.createDatabase("newer"), postgres.error().c_str());
        QVERIFY(LockHistoryStore::openForWriting(QString::fromStdString(postgres.url("newer")),
                                                 cluster, prefix, problem));
        for (const auto& [database, sql] :
             {std::pair{"someone_elses", "CREATE TABLE events(a int)"},
              std::pair{"newer", "UPDATE lockscope_schema SET version = version + 1"}}) {
            execOnServer(database, {sql});
            if (QTest::currentTestFailed())
                return;
        }
        refused(QString::fromStdString(postgres.url("someone_elses")),
                "it holds tables of something else, not a LockScope history");
        refused(QString::fromStdString(postgres.url("newer")), "recorded by a newer LockScope");
        problem.clear();
        QVERIFY(!LockHistoryStore::openForReading(QString::fromStdString(postgres.url("problems")),
                                                  problem, 9));
        QVERIFY2(
            problem.startsWith(
                QString("postgresql://lockscope@127.0.0.1:%1/problems: ").arg(postgres.port())),
            qPrintable(problem));
    }

    // A store of schema 2 (before anomalies, and checkpoint keys without times), with entries:
    // refused for reading, migrated to 3 by the next recorder with what it held kept (its
    // checkpoint's times unknown), then anomalies written and read back after it.
    void aStoreOfSchemaTwoIsMigratedWithItsEntries_data() { backends(); }
    void aStoreOfSchemaTwoIsMigratedWithItsEntries() {
        QFETCH(bool, postgresql);
        const QString path = newStore("schema2");
        QVERIFY(!path.isEmpty());
        QString problem;
        HistoryKey holder{"/locks/j", "/locks/j/b", 5, 6, 6};
        holder.holds = true;
        holder.enqueuedAt = holder.acquiredAt = t0;
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(HistoryCheckpoint{7, t0 + 2s, "start", {holder}}));
            QVERIFY(store->write(lockEvent(etcd::LockEventKind::Released, "b", 8)));
            QVERIFY(store->commit());
        }
        // Back to schema 2 as that LockScope made it: step 3 only added these.
        QStringList downgrade{"DROP TABLE anomalies"};
        for (const char* column : {"enqueued_ms", "acquired_ms", "enqueued_before_seen",
                                   "acquired_before_seen", "lease_gone"})
            downgrade << QString("ALTER TABLE checkpoint_keys DROP COLUMN %1").arg(column);
        if (postgresql) {
            execOnServer(QUrl(path).path().mid(1),
                         downgrade << "UPDATE lockscope_schema SET version = 2");
        } else {
            // (writeSqlite adds a table of its own, which a recording may hold beside its own.)
            writeSqlite(path, downgrade << "PRAGMA user_version = 2");
        }
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!LockHistoryStore::openForReading(path, problem));
        QVERIFY2(problem.contains("older LockScope (schema 2)"), qPrintable(problem));
        {
            auto store = LockHistoryStore::openForWriting(path, cluster, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->lastWrittenAt() ==
                    lockEvent(etcd::LockEventKind::Released, "b", 8).observedAt);
            QVERIFY(store->write(HistoryAnomaly{
                {true, "/locks/j", {"/locks/j/b", etcd::AnomalyKind::ExpiredLease, "lease 5"}},
                9,
                t0 + 3s}));
            QVERIFY2(store->commit(), qPrintable(store->error()));
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto entries = reader->entries({});
        const auto checkpoints = reader->checkpoints();
        QVERIFY2(entries && checkpoints, qPrintable(reader->error()));
        QCOMPARE(entries->size(), std::size_t(2));
        QCOMPARE(std::get<etcd::LockEvent>(entries->front()).revision, int64_t(8));
        const auto& anomaly = std::get<HistoryAnomaly>(entries->back());
        QVERIFY(anomaly.change.appeared);
        QCOMPARE(anomaly.change.anomaly.detail, std::string("lease 5"));
        QCOMPARE(checkpoints->size(), std::size_t(1));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(1));
        const HistoryKey& key = checkpoints->front().keys.front();
        QCOMPARE(key.key, holder.key);
        QVERIFY(key.holds && !key.leaseGone);
        QVERIFY(!key.enqueuedAt && !key.acquiredAt); // schema 2 kept no times
    }

private:
    // Runs `statements` in `database` of the server, as another program would.
    void execOnServer(const QString& database, const QStringList& statements) {
        {
            QSqlDatabase db = QSqlDatabase::addDatabase("QPSQL", "other");
            db.setHostName("127.0.0.1");
            db.setPort(postgres.port());
            db.setUserName(test::LocalPostgres::user);
            db.setPassword(test::LocalPostgres::password);
            db.setDatabaseName(database);
            QVERIFY2(db.open(), qPrintable(db.lastError().text()));
            QSqlQuery query(db);
            for (const QString& statement : statements)
                QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
        }
        QSqlDatabase::removeDatabase("other");
    }

    // The backends each store test runs on.
    static void backends() {
        QTest::addColumn<bool>("postgresql");
        QTest::newRow("sqlite") << false;
        QTest::newRow("postgresql") << true;
    }

    // A new store for the running test: a file in the folder, or a database on the server.
    QString newStore(const QString& name) {
        QFETCH(bool, postgresql);
        if (!postgresql)
            return dir.filePath(name + ".db");
        const std::string database = name.toStdString() + "_" + std::to_string(++databases_);
        if (!postgres.createDatabase(database)) {
            QTest::qFail(postgres.error().c_str(), __FILE__, __LINE__);
            return {};
        }
        return QString::fromStdString(postgres.url(database));
    }

    QTemporaryDir dir;
    test::LocalPostgres postgres;
    int databases_ = 0;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockHistoryStoreTest)
#include "lock_history_store_test.moc"
