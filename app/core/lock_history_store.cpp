#include "app/core/lock_history_store.h"

#include "app/core/key_text.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSqlError>
#include <QUrl>
#include <QVariant>
#include <atomic>
#include <string_view>

namespace lockscope {

namespace {

// PRAGMA application_id of a LockScope recording ("LKSC"): tells one from any other SQLite file.
constexpr int64_t applicationId = 0x4C4B5343;

// The schema, one step per version: migrations[n] brings a file of version n to n + 1. Version 0
// is an empty file. A step is only ever added, never changed, once released.
const char* const migrations[] = {
    // 1: events, gaps and checkpoints share one order (seq); keys and names are exact bytes.
    "CREATE TABLE recordings(seq INTEGER PRIMARY KEY, started_ms INTEGER NOT NULL,"
    " prefix BLOB NOT NULL);"
    "CREATE TABLE events(seq INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
    " revision INTEGER NOT NULL, at_ms INTEGER NOT NULL, lock BLOB NOT NULL, key BLOB NOT NULL,"
    " lease INTEGER NOT NULL, recipe TEXT NOT NULL, create_revision INTEGER NOT NULL,"
    " waited_ms INTEGER, held_ms INTEGER, recovered INTEGER NOT NULL,"
    " at_least INTEGER NOT NULL, waited_at_most_ms INTEGER, held_at_most_ms INTEGER);"
    "CREATE INDEX events_by_lock ON events(lock, seq);"
    "CREATE TABLE gaps(seq INTEGER PRIMARY KEY, since_ms INTEGER NOT NULL,"
    " until_ms INTEGER NOT NULL, revision INTEGER NOT NULL, reason TEXT NOT NULL);"
    "CREATE TABLE checkpoints(seq INTEGER PRIMARY KEY, revision INTEGER NOT NULL,"
    " at_ms INTEGER NOT NULL, reason TEXT NOT NULL);"
    "CREATE TABLE checkpoint_keys(checkpoint INTEGER NOT NULL REFERENCES checkpoints(seq),"
    " lock BLOB NOT NULL, key BLOB NOT NULL, lease INTEGER NOT NULL,"
    " create_revision INTEGER NOT NULL, mod_revision INTEGER NOT NULL, recipe TEXT NOT NULL,"
    " holds INTEGER NOT NULL);"
    "CREATE INDEX checkpoint_keys_by_checkpoint ON checkpoint_keys(checkpoint);",
};
constexpr int migrationCount = static_cast<int>(std::size(migrations));
static_assert(migrationCount == LockHistoryStore::schemaVersion);

// The store's messages' translation context.
struct LockHistoryStoreText {
    Q_DECLARE_TR_FUNCTIONS(LockHistoryStoreText)
};

int64_t millis(std::chrono::system_clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

std::chrono::system_clock::time_point fromMillis(int64_t ms) {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

QByteArray bytes(const std::string& text) {
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

std::string bytesOf(const QVariant& value) {
    return value.toByteArray().toStdString();
}

// The kinds and recipes by the names the file holds, as many as this build names: a name
// function answers "unknown" past its enum's last value.
std::optional<etcd::LockEventKind> eventKindNamed(const QString& name) {
    for (int i = 0;; ++i) {
        const char* known = etcd::lockEventKindName(static_cast<etcd::LockEventKind>(i));
        if (std::string_view(known) == "unknown")
            return std::nullopt;
        if (name == QLatin1String(known))
            return static_cast<etcd::LockEventKind>(i);
    }
}

std::optional<etcd::QueueKind> queueKindNamed(const QString& name) {
    for (int i = 0;; ++i) {
        const char* known = etcd::queueKindName(static_cast<etcd::QueueKind>(i));
        if (name == QLatin1String(known))
            return static_cast<etcd::QueueKind>(i);
        if (std::string_view(known) == "unknown") // QueueKind::Unknown, the last
            return std::nullopt;
    }
}

QVariant optionalMillis(const std::optional<std::chrono::milliseconds>& span) {
    return span ? QVariant(static_cast<qlonglong>(span->count())) : QVariant();
}

std::optional<std::chrono::milliseconds> millisOrNothing(const QVariant& value) {
    if (value.isNull())
        return std::nullopt;
    return std::chrono::milliseconds(value.toLongLong());
}

// The WHERE clause of `filter` over a table's revision and time columns, with its values in
// `bound` in order.
QString whereOf(const LockHistoryStore::Filter& filter, const QString& lockColumn,
                const QString& revisionColumn, const QString& sinceTime, const QString& untilTime,
                QVariantList& bound) {
    QStringList terms;
    if (filter.lock && !lockColumn.isEmpty()) {
        terms << lockColumn + " = ?";
        bound << bytes(*filter.lock);
    }
    if (filter.sinceRevision) {
        terms << revisionColumn + " >= ?";
        bound << static_cast<qlonglong>(*filter.sinceRevision);
    }
    if (filter.untilRevision) {
        terms << revisionColumn + " <= ?";
        bound << static_cast<qlonglong>(*filter.untilRevision);
    }
    if (filter.since) {
        terms << untilTime + " >= ?";
        bound << static_cast<qlonglong>(millis(*filter.since));
    }
    if (filter.until) {
        terms << sinceTime + " <= ?";
        bound << static_cast<qlonglong>(millis(*filter.until));
    }
    return terms.isEmpty() ? QString() : " WHERE " + terms.join(" AND ");
}

} // namespace

LockHistoryStore::LockHistoryStore(QString path, QString connectionName)
    : path_(std::move(path))
    , connectionName_(std::move(connectionName)) {}

LockHistoryStore::~LockHistoryStore() {
    if (inTransaction_)
        commit();
    insertEvent_.reset();
    insertGap_.reset();
    insertCheckpoint_.reset();
    insertKey_.reset();
    db_.close();
    db_ = QSqlDatabase();
    QSqlDatabase::removeDatabase(connectionName_);
}

std::unique_ptr<LockHistoryStore>
LockHistoryStore::openForWriting(const QString& path, const std::string& prefix, QString& problem) {
    static std::atomic<int> stores{0};
    std::unique_ptr<LockHistoryStore> store(
        new LockHistoryStore(path, QString("lockscope-history-%1").arg(++stores)));
    const QFileInfo file(path);
    if (file.exists() && !file.isWritable())
        problem = LockHistoryStoreText::tr(
                      "%1 is read-only: record into a file you may write, or make it writable")
                      .arg(path);
    else if (!store->open(false) || !store->migrate(prefix) || !store->prepareWrites())
        problem = store->error_;
    else
        return store;
    return nullptr;
}

std::unique_ptr<LockHistoryStore> LockHistoryStore::openForReading(const QString& path,
                                                                   QString& problem) {
    static std::atomic<int> stores{0};
    std::unique_ptr<LockHistoryStore> store(
        new LockHistoryStore(path, QString("lockscope-history-reader-%1").arg(++stores)));
    if (!QFileInfo::exists(path))
        problem = LockHistoryStoreText::tr("%1: no such file").arg(path);
    else if (!store->open(true))
        problem = store->error_;
    else
        return store;
    return nullptr;
}

bool LockHistoryStore::fail(const QString& what, const QString& why) {
    if (error_.isEmpty())
        error_ = QString("%1: %2: %3").arg(path_, what, why);
    return false;
}

bool LockHistoryStore::fail(const QString& what, const QSqlQuery& query) {
    return fail(what, query.lastError());
}

bool LockHistoryStore::fail(const QString& what, const QSqlError& error) {
    QString why = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    // SQLite's own words for the cases a user can act on, with what to do.
    if (why.contains("not a database") || why.contains("malformed"))
        why += LockHistoryStoreText::tr(" (the file is damaged or is no LockScope recording)");
    else if (why.contains("disk is full") || why.contains("disk I/O error"))
        why += LockHistoryStoreText::tr(
            " (no space left, a file size limit reached, or a failing disk; what was "
            "recorded before this is kept)");
    else if (why.contains("readonly"))
        why += LockHistoryStoreText::tr(" (the file or its folder is read-only)");
    return fail(what, why);
}

bool LockHistoryStore::exec(const QString& sql) {
    QSqlQuery query(db_);
    return query.exec(sql) ||
           fail(LockHistoryStoreText::tr("cannot run %1").arg(sql.section(' ', 0, 1)), query);
}

bool LockHistoryStore::open(bool readOnly) {
    db_ = QSqlDatabase::addDatabase("QSQLITE", connectionName_);
    if (!db_.isValid())
        return fail(LockHistoryStoreText::tr("cannot open"),
                    LockHistoryStoreText::tr("Qt's SQLite driver (QSQLITE) is missing: install "
                                             "libqt6sql6-sqlite"));
    // SQLite reads a WAL file through a -shm file beside it, which it cannot make in a folder
    // we may not write: such a file is read as immutable (nobody can be recording into it).
    const bool immutable = readOnly && !QFileInfo(QFileInfo(path_).absolutePath()).isWritable();
    db_.setDatabaseName(immutable ? QUrl::fromLocalFile(path_).toString(QUrl::FullyEncoded) +
                                        "?immutable=1"
                                  : path_);
    db_.setConnectOptions(QString(readOnly ? "QSQLITE_OPEN_READONLY;" : "") +
                          (immutable ? "QSQLITE_OPEN_URI;" : "") + "QSQLITE_BUSY_TIMEOUT=5000");
    if (!db_.open())
        return fail(LockHistoryStoreText::tr("cannot open"), db_.lastError().text());
    QSqlQuery query(db_);
    if (!query.exec("PRAGMA application_id") || !query.next())
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    const int64_t id = query.value(0).toLongLong();
    if (!query.exec("PRAGMA user_version") || !query.next())
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    const int version = query.value(0).toInt();
    if (!query.exec("SELECT count(*) FROM sqlite_master") || !query.next())
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    const bool empty = query.value(0).toInt() == 0;
    if (id != applicationId && !(empty && !readOnly))
        return fail(LockHistoryStoreText::tr("cannot read"),
                    LockHistoryStoreText::tr("not a LockScope recording"));
    if (version > schemaVersion)
        return fail(LockHistoryStoreText::tr("cannot read"),
                    LockHistoryStoreText::tr(
                        "recorded by a newer LockScope (schema %1; this one knows up to %2): "
                        "read it with a newer lockscopectl")
                        .arg(version)
                        .arg(schemaVersion));
    if (empty)
        return true; // created by migrate()
    // A damaged page would otherwise surface half way through a read, or under new writes.
    if (!query.exec("PRAGMA quick_check(1)") || !query.next())
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    if (query.value(0).toString() != "ok")
        return fail(
            LockHistoryStoreText::tr("cannot read"),
            LockHistoryStoreText::tr("the file is damaged (%1)").arg(query.value(0).toString()));
    version_ = version;
    if (readOnly && version < schemaVersion)
        return fail(LockHistoryStoreText::tr("cannot read"),
                    LockHistoryStoreText::tr(
                        "recorded by an older LockScope (schema %1): record into it once with this "
                        "lockscopectl to bring it up to schema %2")
                        .arg(version)
                        .arg(schemaVersion));
    return readOnly ? readPosition() : true;
}

bool LockHistoryStore::readPosition() {
    QSqlQuery query(db_);
    if (!query.exec("SELECT prefix FROM recordings ORDER BY seq LIMIT 1"))
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    if (query.next())
        prefix_ = bytesOf(query.value(0));
    if (!query.exec("SELECT max(seq), max(at) FROM (SELECT seq, at_ms AS at FROM events UNION ALL"
                    " SELECT seq, until_ms FROM gaps UNION ALL SELECT seq, at_ms FROM"
                    " checkpoints)") ||
        !query.next())
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    if (!query.value(0).isNull()) {
        nextSeq_ = query.value(0).toLongLong() + 1;
        lastWrittenAt_ = fromMillis(query.value(1).toLongLong());
    }
    return true;
}

bool LockHistoryStore::migrate(const std::string& prefix) {
    if (!exec("PRAGMA journal_mode=WAL") || !exec("PRAGMA synchronous=NORMAL"))
        return false;
    for (int version = version_; version < schemaVersion; ++version) {
        if (!db_.transaction())
            return fail(LockHistoryStoreText::tr("cannot write"), db_.lastError());
        bool done = true;
        for (const QString& statement : QString(migrations[version]).split(';', Qt::SkipEmptyParts))
            done = done && exec(statement);
        done = done && exec(QString("PRAGMA user_version = %1").arg(version + 1)) &&
               exec(QString("PRAGMA application_id = %1").arg(applicationId));
        if (!done || !db_.commit()) {
            db_.rollback();
            return fail(LockHistoryStoreText::tr("cannot write"), db_.lastError());
        }
    }
    if (!readPosition())
        return false;
    if (!prefix_.empty() && prefix_ != prefix)
        return fail(LockHistoryStoreText::tr("cannot record"),
                    LockHistoryStoreText::tr("it records the locks under %1, not %2: record into "
                                             "another file")
                        .arg(QString::fromStdString(displayKey(prefix_)),
                             QString::fromStdString(displayKey(prefix))));
    prefix_ = prefix;
    QSqlQuery query(db_);
    query.prepare("INSERT INTO recordings(started_ms, prefix) VALUES(?, ?)");
    query.addBindValue(static_cast<qlonglong>(millis(std::chrono::system_clock::now())));
    query.addBindValue(bytes(prefix));
    return query.exec() || fail(LockHistoryStoreText::tr("cannot write"), query);
}

bool LockHistoryStore::prepareWrites() {
    const auto prepare = [this](std::optional<QSqlQuery>& query, const char* sql) {
        query.emplace(db_);
        return query->prepare(sql) || fail(LockHistoryStoreText::tr("cannot write"), *query);
    };
    return prepare(insertEvent_,
                   "INSERT INTO events(seq, kind, revision, at_ms, lock, key, lease, recipe,"
                   " create_revision, waited_ms, held_ms, recovered, at_least,"
                   " waited_at_most_ms, held_at_most_ms)"
                   " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") &&
           prepare(insertGap_, "INSERT INTO gaps(seq, since_ms, until_ms, revision, reason)"
                               " VALUES(?, ?, ?, ?, ?)") &&
           prepare(insertCheckpoint_,
                   "INSERT INTO checkpoints(seq, revision, at_ms, reason) VALUES(?, ?, ?, ?)") &&
           prepare(insertKey_,
                   "INSERT INTO checkpoint_keys(checkpoint, lock, key, lease, create_revision,"
                   " mod_revision, recipe, holds) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
}

bool LockHistoryStore::beginBatch() {
    if (!error_.isEmpty())
        return false;
    if (!inTransaction_ && !db_.transaction())
        return fail(LockHistoryStoreText::tr("cannot write"), db_.lastError());
    inTransaction_ = true;
    return true;
}

bool LockHistoryStore::execRow(QSqlQuery& query, const QVariantList& values) {
    for (int i = 0; i < values.size(); ++i)
        query.bindValue(i, values[i]);
    if (!query.exec())
        return fail(LockHistoryStoreText::tr("cannot write"), query);
    ++pendingRows_;
    return true;
}

bool LockHistoryStore::commitIfFull() {
    return pendingRows_ < batchRows || commit();
}

bool LockHistoryStore::write(const etcd::LockEvent& event) {
    return beginBatch() &&
           execRow(*insertEvent_,
                   {static_cast<qlonglong>(nextSeq()), etcd::lockEventKindName(event.kind),
                    static_cast<qlonglong>(event.revision),
                    static_cast<qlonglong>(millis(event.observedAt)), bytes(event.lock),
                    bytes(event.key), static_cast<qlonglong>(event.lease),
                    etcd::queueKindName(event.recipe), static_cast<qlonglong>(event.createRevision),
                    optionalMillis(event.waited), optionalMillis(event.held), event.recovered,
                    event.atLeast, optionalMillis(event.waitedAtMost),
                    optionalMillis(event.heldAtMost)}) &&
           commitIfFull();
}

bool LockHistoryStore::write(const HistoryGap& gap) {
    return beginBatch() &&
           execRow(*insertGap_,
                   {static_cast<qlonglong>(nextSeq()), static_cast<qlonglong>(millis(gap.since)),
                    static_cast<qlonglong>(millis(gap.until)), static_cast<qlonglong>(gap.revision),
                    QString::fromStdString(gap.reason)}) &&
           commitIfFull();
}

bool LockHistoryStore::write(const HistoryCheckpoint& checkpoint) {
    const auto seq = static_cast<qlonglong>(nextSeq());
    if (!beginBatch() ||
        !execRow(*insertCheckpoint_, {seq, static_cast<qlonglong>(checkpoint.revision),
                                      static_cast<qlonglong>(millis(checkpoint.at)),
                                      QString::fromStdString(checkpoint.reason)}))
        return false;
    // Its keys join the same transaction: a checkpoint is never read half written.
    for (const HistoryKey& key : checkpoint.keys)
        if (!execRow(*insertKey_,
                     {seq, bytes(key.lock), bytes(key.key), static_cast<qlonglong>(key.lease),
                      static_cast<qlonglong>(key.createRevision),
                      static_cast<qlonglong>(key.modRevision), etcd::queueKindName(key.recipe),
                      key.holds}))
            return false;
    return commitIfFull();
}

bool LockHistoryStore::commit() {
    if (!inTransaction_)
        return error_.isEmpty();
    inTransaction_ = false;
    pendingRows_ = 0;
    if (!error_.isEmpty() || !db_.commit()) {
        const QSqlError error = db_.lastError();
        db_.rollback();
        return fail(LockHistoryStoreText::tr("cannot write"), error);
    }
    return true;
}

std::optional<std::vector<HistoryEntry>> LockHistoryStore::entries(const Filter& filter) {
    const auto select = [this](QSqlQuery& query, const QString& sql, const QVariantList& bound) {
        query.setForwardOnly(true);
        query.prepare(sql);
        for (const QVariant& value : bound)
            query.addBindValue(value);
        return query.exec() || fail(LockHistoryStoreText::tr("cannot read"), query);
    };
    QVariantList eventValues, gapValues;
    QSqlQuery events(db_), gaps(db_);
    Filter gapFilter = filter;
    gapFilter.lock.reset(); // a gap is every lock's
    if (!select(events,
                "SELECT seq, kind, revision, at_ms, lock, key, lease, recipe, create_revision,"
                " waited_ms, held_ms, recovered, at_least, waited_at_most_ms, held_at_most_ms"
                " FROM events" +
                    whereOf(filter, "lock", "revision", "at_ms", "at_ms", eventValues) +
                    " ORDER BY seq",
                eventValues) ||
        !select(gaps,
                "SELECT seq, since_ms, until_ms, revision, reason FROM gaps" +
                    whereOf(gapFilter, {}, "revision", "since_ms", "until_ms", gapValues) +
                    " ORDER BY seq",
                gapValues))
        return std::nullopt;
    const auto gapHere = [&gaps] {
        return HistoryGap{fromMillis(gaps.value(1).toLongLong()),
                          fromMillis(gaps.value(2).toLongLong()), gaps.value(3).toLongLong(),
                          gaps.value(4).toString().toStdString()};
    };
    std::vector<HistoryEntry> read;
    bool moreGaps = gaps.next();
    while (events.next()) {
        for (; moreGaps && gaps.value(0).toLongLong() < events.value(0).toLongLong();
             moreGaps = gaps.next())
            read.emplace_back(gapHere());
        const auto kind = eventKindNamed(events.value(1).toString());
        const auto recipe = queueKindNamed(events.value(7).toString());
        if (!kind || !recipe) {
            fail(LockHistoryStoreText::tr("cannot read"),
                 LockHistoryStoreText::tr("event %1 is of no kind or recipe this build knows (%2, "
                                          "%3)")
                     .arg(events.value(0).toLongLong())
                     .arg(events.value(1).toString(), events.value(7).toString()));
            return std::nullopt;
        }
        etcd::LockEvent event{};
        event.kind = *kind;
        event.lock = bytesOf(events.value(4));
        event.key = bytesOf(events.value(5));
        event.revision = events.value(2).toLongLong();
        event.observedAt = fromMillis(events.value(3).toLongLong());
        event.lease = events.value(6).toLongLong();
        event.recipe = *recipe;
        event.createRevision = events.value(8).toLongLong();
        event.waited = millisOrNothing(events.value(9));
        event.held = millisOrNothing(events.value(10));
        event.recovered = events.value(11).toBool();
        event.atLeast = events.value(12).toBool();
        event.waitedAtMost = millisOrNothing(events.value(13));
        event.heldAtMost = millisOrNothing(events.value(14));
        read.emplace_back(std::move(event));
    }
    for (; moreGaps; moreGaps = gaps.next())
        read.emplace_back(gapHere());
    if (events.lastError().isValid() || gaps.lastError().isValid()) {
        fail(LockHistoryStoreText::tr("cannot read"), events.lastError().isValid() ? events : gaps);
        return std::nullopt;
    }
    return read;
}

std::optional<std::vector<HistoryCheckpoint>> LockHistoryStore::checkpoints() {
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    if (!query.exec("SELECT c.seq, c.revision, c.at_ms, c.reason, k.lock, k.key, k.lease,"
                    " k.create_revision, k.mod_revision, k.recipe, k.holds FROM checkpoints c"
                    " LEFT JOIN checkpoint_keys k ON k.checkpoint = c.seq"
                    " ORDER BY c.seq, k.rowid")) {
        fail(LockHistoryStoreText::tr("cannot read"), query);
        return std::nullopt;
    }
    std::vector<HistoryCheckpoint> read;
    int64_t seq = 0;
    while (query.next()) {
        if (read.empty() || query.value(0).toLongLong() != seq) {
            seq = query.value(0).toLongLong();
            read.push_back({query.value(1).toLongLong(),
                            fromMillis(query.value(2).toLongLong()),
                            query.value(3).toString().toStdString(),
                            {}});
        }
        if (query.value(4).isNull())
            continue; // a checkpoint of no keys
        const auto recipe = queueKindNamed(query.value(9).toString());
        if (!recipe) {
            fail(LockHistoryStoreText::tr("cannot read"),
                 LockHistoryStoreText::tr(
                     "a checkpoint key of a recipe this build does not know (%1)")
                     .arg(query.value(9).toString()));
            return std::nullopt;
        }
        read.back().keys.push_back({bytesOf(query.value(4)), bytesOf(query.value(5)),
                                    query.value(6).toLongLong(), query.value(7).toLongLong(),
                                    query.value(8).toLongLong(), *recipe,
                                    query.value(10).toBool()});
    }
    if (query.lastError().isValid()) {
        fail(LockHistoryStoreText::tr("cannot read"), query);
        return std::nullopt;
    }
    return read;
}

} // namespace lockscope
