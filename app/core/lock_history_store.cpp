#include "app/core/lock_history_store.h"

#include "app/core/key_text.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSqlError>
#include <QUrl>
#include <QVariant>
#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <string_view>
#include <utility>

namespace lockscope {

namespace {

// PRAGMA application_id of a LockScope recording ("LKSC"): tells one from any other SQLite file.
constexpr int64_t applicationId = 0x4C4B5343;

// The schema, one step per version: migrations[n] brings a store of version n to n + 1. Version 0
// is an empty one. A step is only ever added, never changed, once released. Each is written in
// SQLite's words and said in PostgreSQL's by postgresSql(); what only one of them needs is apart.
struct Migration {
    const char* sql;
    const char* sqliteOnly = "";
    const char* postgresOnly = "";
};

const Migration migrations[] = {
    // 1: events, gaps and checkpoints share one order (seq); keys and names are exact bytes.
    {"CREATE TABLE recordings(seq INTEGER PRIMARY KEY, started_ms INTEGER NOT NULL,"
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
     "CREATE INDEX checkpoint_keys_by_checkpoint ON checkpoint_keys(checkpoint);"},
    // 2: several sources (a cluster's name and a prefix) in one store, each entry its source's;
    // a checkpoint's keys in the order written (PostgreSQL has no rowid to keep it). A file's
    // one recording becomes source 1, of no name until a recorder of its prefix names it.
    {"CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT NOT NULL, prefix BLOB NOT NULL);"
     "CREATE UNIQUE INDEX sources_by_name ON sources(name, prefix);"
     "INSERT INTO sources(id, name, prefix)"
     " SELECT 1, '', prefix FROM recordings ORDER BY seq LIMIT 1;"
     "ALTER TABLE recordings ADD COLUMN source INTEGER NOT NULL DEFAULT 1;"
     "ALTER TABLE events ADD COLUMN source INTEGER NOT NULL DEFAULT 1;"
     "ALTER TABLE gaps ADD COLUMN source INTEGER NOT NULL DEFAULT 1;"
     "ALTER TABLE checkpoints ADD COLUMN source INTEGER NOT NULL DEFAULT 1;"
     "ALTER TABLE checkpoint_keys ADD COLUMN position INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX events_by_source ON events(source, seq);"
     "CREATE INDEX checkpoints_by_source ON checkpoints(source, seq);",
     "UPDATE checkpoint_keys SET position = rowid;",
     // Recorders writing at once take their seqs in blocks of seqBlock from it.
     "CREATE SEQUENCE entry_seqs INCREMENT BY 1000;"},
    // 3: anomalies appearing on keys and going, in the entries' order; a checkpoint's keys with
    // what the live view knew of them (their times, their lease gone), so a replay starts there.
    {"ALTER TABLE checkpoint_keys ADD COLUMN enqueued_ms INTEGER;"
     "ALTER TABLE checkpoint_keys ADD COLUMN acquired_ms INTEGER;"
     "ALTER TABLE checkpoint_keys ADD COLUMN enqueued_before_seen INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE checkpoint_keys ADD COLUMN acquired_before_seen INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE checkpoint_keys ADD COLUMN lease_gone INTEGER NOT NULL DEFAULT 0;"
     "CREATE TABLE anomalies(seq INTEGER PRIMARY KEY, source INTEGER NOT NULL,"
     " appeared INTEGER NOT NULL, revision INTEGER NOT NULL, at_ms INTEGER NOT NULL,"
     " lock BLOB NOT NULL, key BLOB NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL);"
     "CREATE INDEX anomalies_by_source ON anomalies(source, seq);"
     "CREATE INDEX anomalies_by_lock ON anomalies(lock, seq);"},
};
constexpr int migrationCount = static_cast<int>(std::size(migrations));
static_assert(migrationCount == LockHistoryStore::schemaVersion);
constexpr int64_t seqBlock = 1000; // entry_seqs' increment

// A migration's SQLite statement in PostgreSQL's words: 64-bit integers, byte strings, and an
// id the database picks when none is given (as SQLite's INTEGER PRIMARY KEY does).
QString postgresSql(QString sql) {
    return sql.replace("INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
        .replace("INTEGER", "BIGINT")
        .replace("BLOB", "BYTEA");
}

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

// The kinds and recipes by the names the file holds, as many as this build names: an event's or
// an anomaly's name function answers "unknown" past its enum's last value.
template <typename Kind>
std::optional<Kind> kindNamed(const QString& name, const char* (*nameOf)(Kind)) {
    for (int i = 0;; ++i) {
        const char* known = nameOf(static_cast<Kind>(i));
        if (std::string_view(known) == "unknown")
            return std::nullopt;
        if (name == QLatin1String(known))
            return static_cast<Kind>(i);
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

QVariant optionalTime(const std::optional<std::chrono::system_clock::time_point>& at) {
    return at ? QVariant(static_cast<qlonglong>(millis(*at))) : QVariant();
}

std::optional<std::chrono::system_clock::time_point> timeOrNothing(const QVariant& value) {
    if (value.isNull())
        return std::nullopt;
    return fromMillis(value.toLongLong());
}

// The WHERE clause of `filter` and `source` over a table's revision and time columns, with its
// values in `bound` in order.
QString whereOf(const LockHistoryStore::Filter& filter, int64_t source, const QString& lockColumn,
                const QString& revisionColumn, const QString& sinceTime, const QString& untilTime,
                QVariantList& bound) {
    QStringList terms{"source = ?"};
    bound << static_cast<qlonglong>(source);
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
    if (filter.fromSeq) {
        terms << "seq >= ?";
        bound << static_cast<qlonglong>(*filter.fromSeq);
    }
    if (filter.toSeq) {
        terms << "seq < ?";
        bound << static_cast<qlonglong>(*filter.toSeq);
    }
    return " WHERE " + terms.join(" AND ");
}

// Each store's own name among Qt SQL's connections.
QString connectionName() {
    static std::atomic<int> stores{0};
    return QString("lockscope-history-%1").arg(++stores);
}

} // namespace

LockHistoryStore::LockHistoryStore(HistoryLocation location, QString connectionName)
    : location_(std::move(location))
    , connectionName_(std::move(connectionName)) {}

LockHistoryStore::~LockHistoryStore() {
    if (inTransaction_)
        commit();
    // Let go of the source now: the server ends the session's process, and its locks, only
    // some time after the connection closes, and a recorder started again at once would be
    // refused meanwhile.
    if (sourceLocked_)
        exec(QString("SELECT pg_advisory_unlock(%1, %2)").arg(applicationId).arg(source_.id));
    insertEvent_.reset();
    insertGap_.reset();
    insertAnomaly_.reset();
    insertCheckpoint_.reset();
    insertKey_.reset();
    db_.close();
    db_ = QSqlDatabase();
    QSqlDatabase::removeDatabase(connectionName_);
}

std::unique_ptr<LockHistoryStore> LockHistoryStore::openForWriting(const QString& location,
                                                                   const std::string& sourceName,
                                                                   const std::string& prefix,
                                                                   QString& problem) {
    const auto where = HistoryLocation::parse(location, problem);
    if (!where)
        return nullptr;
    std::unique_ptr<LockHistoryStore> store(new LockHistoryStore(*where, connectionName()));
    const QFileInfo file(where->path);
    if (!store->postgres() && file.exists() && !file.isWritable())
        problem = LockHistoryStoreText::tr(
                      "%1 is read-only: record into a file you may write, or make it writable")
                      .arg(where->shown);
    else if (!store->open(false) || !store->migrate() || !store->joinSource(sourceName, prefix))
        problem = store->error_;
    else {
        store->prepareWrites();
        return store;
    }
    return nullptr;
}

std::unique_ptr<LockHistoryStore> LockHistoryStore::openReadOnly(const QString& location,
                                                                 QString& problem) {
    const auto where = HistoryLocation::parse(location, problem);
    if (!where)
        return nullptr;
    std::unique_ptr<LockHistoryStore> store(new LockHistoryStore(*where, connectionName()));
    if (!store->postgres() && !QFileInfo::exists(where->path))
        problem = LockHistoryStoreText::tr("%1: no such file").arg(where->shown);
    else if (!store->open(true))
        problem = store->error_;
    else
        return store;
    return nullptr;
}

std::unique_ptr<LockHistoryStore> LockHistoryStore::openForReading(const QString& location,
                                                                   QString& problem,
                                                                   std::optional<int64_t> source) {
    auto store = openReadOnly(location, problem);
    if (!store || store->chooseSource(source))
        return store;
    problem = store->error_;
    return nullptr;
}

std::optional<std::vector<LockHistoryStore::Source>>
LockHistoryStore::sourcesIn(const QString& location, QString& problem) {
    const auto store = openReadOnly(location, problem);
    auto sources = store ? store->readSources() : std::nullopt;
    if (store && !sources)
        problem = store->error_;
    return sources;
}

bool LockHistoryStore::fail(const QString& what, const QString& why) {
    if (error_.isEmpty())
        error_ = QString("%1: %2: %3").arg(location_.shown, what, why);
    return false;
}

bool LockHistoryStore::fail(const QString& what, const QSqlQuery& query) {
    return fail(what, query.lastError());
}

bool LockHistoryStore::fail(const QString& what, const QSqlError& error) {
    // libpq's messages come on several lines.
    QString why =
        (error.databaseText().isEmpty() ? error.text() : error.databaseText()).simplified();
    // SQLite's and PostgreSQL's own words for the cases a user can act on, with what to do.
    if (why.contains("not a database") || why.contains("malformed"))
        why += LockHistoryStoreText::tr(" (the file is damaged or is no LockScope recording)");
    else if (why.contains("disk is full") || why.contains("disk I/O error"))
        why += LockHistoryStoreText::tr(
            " (no space left, a file size limit reached, or a failing disk; what was "
            "recorded before this is kept)");
    else if (why.contains("readonly"))
        why += LockHistoryStoreText::tr(" (the file or its folder is read-only)");
    else if (why.contains("password authentication failed") || why.contains("no password"))
        why += LockHistoryStoreText::tr(
            " (give the user's password in the URL, postgresql://user:password@host/dbname, "
            "or in PGPASSWORD)");
    else if (why.contains("does not exist") && why.contains("database"))
        why += LockHistoryStoreText::tr(
            " (LockScope records into a database that exists: create it first, with createdb)");
    else if (why.contains("server closed the connection") || why.contains("no connection") ||
             why.contains("could not send") || why.contains("terminating connection"))
        why += LockHistoryStoreText::tr(" (the connection to PostgreSQL was lost; what was "
                                        "committed before this is kept)");
    return fail(what, why);
}

bool LockHistoryStore::exec(const QString& sql) {
    QSqlQuery query(db_);
    return query.exec(sql) ||
           fail(LockHistoryStoreText::tr("cannot run %1").arg(sql.section(' ', 0, 1)), query);
}

bool LockHistoryStore::run(const QString& what, QSqlQuery& query, const QString& sql,
                           const QVariantList& bound) {
    query.prepare(sql);
    for (const QVariant& value : bound)
        query.addBindValue(value);
    return query.exec() || fail(what, query);
}

bool LockHistoryStore::open(bool readOnly) {
    db_ = QSqlDatabase::addDatabase(postgres() ? "QPSQL" : "QSQLITE", connectionName_);
    if (!db_.isValid())
        return fail(
            LockHistoryStoreText::tr("cannot open"),
            postgres()
                ? LockHistoryStoreText::tr("Qt's PostgreSQL driver (QPSQL) is missing: install "
                                           "libqt6sql6-psql")
                : LockHistoryStoreText::tr("Qt's SQLite driver (QSQLITE) is missing: install "
                                           "libqt6sql6-sqlite"));
    if (postgres()) {
        db_.setHostName(location_.host);
        db_.setPort(location_.port);
        db_.setUserName(location_.user);
        db_.setPassword(location_.password);
        db_.setDatabaseName(location_.database);
        db_.setConnectOptions(location_.connectOptions);
    } else {
        // SQLite reads a WAL file through a -shm file beside it, which it cannot make in a
        // folder we may not write: such a file is read as immutable (nobody can be recording
        // into it).
        const bool immutable =
            readOnly && !QFileInfo(QFileInfo(location_.path).absolutePath()).isWritable();
        db_.setDatabaseName(immutable
                                ? QUrl::fromLocalFile(location_.path).toString(QUrl::FullyEncoded) +
                                      "?immutable=1"
                                : location_.path);
        db_.setConnectOptions(QString(readOnly ? "QSQLITE_OPEN_READONLY;" : "") +
                              (immutable ? "QSQLITE_OPEN_URI;" : "") + "QSQLITE_BUSY_TIMEOUT=5000");
    }
    if (!db_.open())
        return fail(LockHistoryStoreText::tr("cannot open"), db_.lastError());
    // What a reader runs on a server can change nothing there either.
    if (postgres() && readOnly && !exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"))
        return false;
    const auto schema = readSchema();
    if (!schema)
        return false;
    if (schema->applicationId != applicationId && !(schema->empty && !readOnly))
        return fail(
            LockHistoryStoreText::tr("cannot read"),
            !postgres() ? LockHistoryStoreText::tr("not a LockScope recording")
            : schema->empty
                ? LockHistoryStoreText::tr("no LockScope history in it yet: record into it first")
                : LockHistoryStoreText::tr("it holds tables of something else, not a LockScope "
                                           "history: give LockScope a database of its own"));
    if (schema->version > schemaVersion)
        return fail(LockHistoryStoreText::tr("cannot read"),
                    LockHistoryStoreText::tr(
                        "recorded by a newer LockScope (schema %1; this one knows up to %2): "
                        "read it with a newer lockscopectl")
                        .arg(schema->version)
                        .arg(schemaVersion));
    if (schema->empty)
        return true; // set up by migrate()
    // A damaged page would otherwise be buried under new writes (a server checks its own
    // pages). Not for a reader: the check reads the whole file (a second for 700 MB, minutes for
    // a week), where a reader of one interval reads that interval, and a damaged page it reaches
    // is said as damaged then.
    const bool check = !postgres() && !readOnly;
    QSqlQuery query(db_);
    if (check && (!query.exec("PRAGMA quick_check(1)") || !query.next()))
        return fail(LockHistoryStoreText::tr("cannot read"), query);
    if (check && query.value(0).toString() != "ok")
        return fail(
            LockHistoryStoreText::tr("cannot read"),
            LockHistoryStoreText::tr("the file is damaged (%1)").arg(query.value(0).toString()));
    version_ = schema->version;
    if (readOnly && version_ < schemaVersion)
        return fail(LockHistoryStoreText::tr("cannot read"),
                    LockHistoryStoreText::tr(
                        "recorded by an older LockScope (schema %1): record into it once with this "
                        "lockscopectl to bring it up to schema %2")
                        .arg(version_)
                        .arg(schemaVersion));
    return true;
}

std::optional<LockHistoryStore::Schema> LockHistoryStore::readSchema() {
    QSqlQuery query(db_);
    const auto one = [&](const char* sql) {
        return (query.exec(sql) && query.next()) ||
               fail(LockHistoryStoreText::tr("cannot read"), query);
    };
    Schema schema;
    if (postgres()) {
        // No pragmas on a server: the version is a table's, the only table LockScope reads
        // before knowing the schema.
        if (!one("SELECT count(*), to_regclass('lockscope_schema') IS NOT NULL"
                 " FROM information_schema.tables WHERE table_schema = current_schema()"))
            return std::nullopt;
        schema.empty = query.value(0).toInt() == 0;
        if (!query.value(1).toBool())
            return schema;
        if (!one("SELECT application_id, version FROM lockscope_schema"))
            return std::nullopt;
        schema.applicationId = query.value(0).toLongLong();
        schema.version = query.value(1).toInt();
        return schema;
    }
    // One statement, one snapshot: read apart, a recorder setting up a new file meanwhile could
    // be seen half way (tables made, no application id yet).
    if (!one("SELECT a.application_id, v.user_version, (SELECT count(*) FROM sqlite_master)"
             " FROM pragma_application_id() AS a, pragma_user_version() AS v"))
        return std::nullopt;
    schema.applicationId = query.value(0).toLongLong();
    schema.version = query.value(1).toInt();
    schema.empty = query.value(2).toInt() == 0;
    return schema;
}

bool LockHistoryStore::setVersion(int version) {
    if (!postgres())
        return exec(QString("PRAGMA user_version = %1").arg(version)) &&
               exec(QString("PRAGMA application_id = %1").arg(applicationId));
    // Made with the first step's tables, in its transaction.
    return (version > 1 || exec("CREATE TABLE lockscope_schema(application_id BIGINT NOT NULL,"
                                " version INTEGER NOT NULL)")) &&
           exec("DELETE FROM lockscope_schema") &&
           exec(QString("INSERT INTO lockscope_schema VALUES(%1, %2)")
                    .arg(applicationId)
                    .arg(version));
}

bool LockHistoryStore::migrate() {
    if (!postgres() && (!exec("PRAGMA journal_mode=WAL") || !exec("PRAGMA synchronous=NORMAL")))
        return false;
    for (;;) {
        if (!beginWrites())
            return false;
        // Recorders starting at once on a new database: one migrates, the others wait for it
        // and then find the schema done (the lock goes with the transaction).
        const bool locked =
            !postgres() || exec(QString("SELECT pg_advisory_xact_lock(%1)").arg(applicationId));
        const auto schema = locked ? readSchema() : std::nullopt;
        if (!schema || schema->version >= schemaVersion) {
            db_.rollback();
            return schema.has_value();
        }
        const Migration& step = migrations[schema->version];
        QStringList statements = QString(step.sql).split(';', Qt::SkipEmptyParts);
        if (postgres())
            for (QString& statement : statements)
                statement = postgresSql(statement);
        statements += QString(postgres() ? step.postgresOnly : step.sqliteOnly)
                          .split(';', Qt::SkipEmptyParts);
        bool done = true;
        for (const QString& statement : statements)
            done = done && exec(statement);
        if (!done || !setVersion(schema->version + 1) || !db_.commit()) {
            const QSqlError error = db_.lastError();
            db_.rollback();
            return fail(LockHistoryStoreText::tr("cannot write"), error);
        }
    }
}

bool LockHistoryStore::joinSource(const std::string& sourceName, const std::string& prefix) {
    const QString name = QString::fromStdString(sourceName);
    const QString cannotWrite = LockHistoryStoreText::tr("cannot write");
    QSqlQuery query(db_);
    // A file recorded before sources had names holds one of no name: the next recorder of its
    // prefix goes on with it.
    if (!name.isEmpty() &&
        !run(cannotWrite, query,
             "UPDATE sources SET name = ? WHERE name = '' AND prefix = ? AND NOT EXISTS"
             " (SELECT 1 FROM sources s WHERE s.name = ? AND s.prefix = ?)",
             {name, bytes(prefix), name, bytes(prefix)}))
        return false;
    // Two recorders adding one source at once: the unique index keeps one row.
    if (!run(cannotWrite, query,
             "INSERT INTO sources(name, prefix) VALUES(?, ?) ON CONFLICT DO NOTHING",
             {name, bytes(prefix)}) ||
        !run(cannotWrite, query, "SELECT id FROM sources WHERE name = ? AND prefix = ?",
             {name, bytes(prefix)}))
        return false;
    if (!query.next())
        return fail(cannotWrite, query);
    source_ = {query.value(0).toLongLong(), sourceName, prefix};
    // One recorder per source: two would write its events twice, interleaved. A session's lock,
    // let go when the connection goes, however the recorder ends.
    if (postgres()) {
        if (!run(cannotWrite, query,
                 QString("SELECT pg_try_advisory_lock(%1, %2)").arg(applicationId).arg(source_.id),
                 {}) ||
            !query.next())
            return fail(cannotWrite, query);
        sourceLocked_ = query.value(0).toBool();
        if (!sourceLocked_)
            return fail(LockHistoryStoreText::tr("cannot record"),
                        LockHistoryStoreText::tr(
                            "another recorder is recording the locks under %1 of %2 into it now: "
                            "stop that one first, or record another prefix or cluster")
                            .arg(QString::fromStdString(displayKey(prefix)), name));
    }
    return readLastEntry() &&
           run(cannotWrite, query,
               "INSERT INTO recordings(started_ms, prefix, source) VALUES(?, ?, ?)",
               {static_cast<qlonglong>(millis(std::chrono::system_clock::now())), bytes(prefix),
                static_cast<qlonglong>(source_.id)});
}

std::optional<std::vector<LockHistoryStore::Source>> LockHistoryStore::readSources() {
    QSqlQuery query(db_);
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             "SELECT id, name, prefix FROM sources ORDER BY id", {}))
        return std::nullopt;
    std::vector<Source> all;
    while (query.next())
        all.push_back({query.value(0).toLongLong(), query.value(1).toString().toStdString(),
                       bytesOf(query.value(2))});
    return all;
}

bool LockHistoryStore::chooseSource(std::optional<int64_t> id) {
    const QString cannotRead = LockHistoryStoreText::tr("cannot read");
    const auto sources = readSources();
    if (!sources)
        return false;
    const std::vector<Source>& all = *sources;
    const auto named = std::find_if(all.begin(), all.end(),
                                    [&id](const Source& source) { return source.id == id; });
    if (id ? named != all.end() : all.size() <= 1) {
        if (!all.empty())
            source_ = id ? *named : all.front();
        return true;
    }
    QStringList listed;
    for (const Source& source : all)
        listed << LockHistoryStoreText::tr("%1 = the locks under %2 of %3")
                      .arg(source.id)
                      .arg(QString::fromStdString(displayKey(source.prefix)),
                           source.name.empty() ? LockHistoryStoreText::tr("a cluster of no name")
                                               : QString::fromStdString(source.name));
    return fail(cannotRead,
                (id ? LockHistoryStoreText::tr("it holds no source %1; its sources: %2").arg(*id)
                    : LockHistoryStoreText::tr("it holds the histories of %1 sources; read one "
                                               "with --source ID: %2")
                          .arg(all.size()))
                    .arg(listed.join("; ")));
}

bool LockHistoryStore::readLastEntry() {
    const QString cannotRead = LockHistoryStoreText::tr("cannot read");
    const auto source = static_cast<qlonglong>(source_.id);
    QSqlQuery query(db_);
    if (!run(cannotRead, query,
             "SELECT seq, at FROM (SELECT seq, at_ms AS at FROM events WHERE source = ?"
             " ORDER BY seq DESC LIMIT 1) AS e UNION ALL SELECT seq, at FROM (SELECT seq,"
             " until_ms AS at FROM gaps WHERE source = ? ORDER BY seq DESC LIMIT 1) AS g"
             " UNION ALL SELECT seq, at FROM (SELECT seq, at_ms AS at FROM checkpoints"
             " WHERE source = ? ORDER BY seq DESC LIMIT 1) AS c UNION ALL SELECT seq, at FROM"
             " (SELECT seq, at_ms AS at FROM anomalies WHERE source = ? ORDER BY seq DESC"
             " LIMIT 1) AS a ORDER BY seq DESC LIMIT 1",
             {source, source, source, source}))
        return false;
    lastWrittenAt_.reset();
    lastSeq_.reset();
    if (query.next()) {
        lastSeq_ = query.value(0).toLongLong();
        lastWrittenAt_ = fromMillis(query.value(1).toLongLong());
    }
    return true;
}

bool LockHistoryStore::beginWrites() {
    if (postgres())
        return db_.transaction() || fail(LockHistoryStoreText::tr("cannot write"), db_.lastError());
    // SQLite's write lock at once (waiting for another writer's commit), so that what is read
    // next is the file as this transaction will write it.
    return exec("BEGIN IMMEDIATE");
}

void LockHistoryStore::prepareWrites() {
    insertEvent_.emplace(db_, "events",
                         QStringList{"seq", "source", "kind", "revision", "at_ms", "lock", "key",
                                     "lease", "recipe", "create_revision", "waited_ms", "held_ms",
                                     "recovered", "at_least", "waited_at_most_ms",
                                     "held_at_most_ms"});
    insertGap_.emplace(db_, "gaps",
                       QStringList{"seq", "source", "since_ms", "until_ms", "revision", "reason"});
    insertCheckpoint_.emplace(db_, "checkpoints",
                              QStringList{"seq", "source", "revision", "at_ms", "reason"});
    insertAnomaly_.emplace(db_, "anomalies",
                           QStringList{"seq", "source", "appeared", "revision", "at_ms", "lock",
                                       "key", "kind", "detail"});
    insertKey_.emplace(db_, "checkpoint_keys",
                       QStringList{"checkpoint", "position", "lock", "key", "lease",
                                   "create_revision", "mod_revision", "recipe", "holds",
                                   "enqueued_ms", "acquired_ms", "enqueued_before_seen",
                                   "acquired_before_seen", "lease_gone"});
}

bool LockHistoryStore::takeSeqs() {
    const QString cannotWrite = LockHistoryStoreText::tr("cannot write");
    QSqlQuery query(db_);
    if (postgres()) {
        if (!run(cannotWrite, query, "SELECT nextval('entry_seqs')", {}) || !query.next())
            return fail(cannotWrite, query);
        nextSeq_ = query.value(0).toLongLong();
        seqEnd_ = nextSeq_ + seqBlock;
        return true;
    }
    if (!run(cannotWrite, query,
             "SELECT max(seq) FROM (SELECT max(seq) AS seq FROM events UNION ALL"
             " SELECT max(seq) FROM gaps UNION ALL SELECT max(seq) FROM checkpoints UNION ALL"
             " SELECT max(seq) FROM anomalies) AS s",
             {}))
        return false;
    nextSeq_ = (query.next() ? query.value(0).toLongLong() : 0) + 1;
    seqEnd_ = std::numeric_limits<int64_t>::max();
    return true;
}

std::optional<qlonglong> LockHistoryStore::beginEntry() {
    if (!error_.isEmpty())
        return std::nullopt;
    if (!inTransaction_) {
        if (!beginWrites())
            return std::nullopt;
        inTransaction_ = true;
        // A file's seqs are read again at each batch: another recorder may have written since.
        if (!postgres() && !takeSeqs())
            return std::nullopt;
    }
    if (nextSeq_ == seqEnd_ && !takeSeqs())
        return std::nullopt;
    return nextSeq_++;
}

bool LockHistoryStore::execRow(InsertBatch& batch, const QVariantList& values) {
    // Rows go in the order written: another table's waiting rows first (a checkpoint's keys
    // refer to it).
    if (filling_ && filling_ != &batch && !flushRows())
        return false;
    filling_ = &batch;
    if (!batch.add(values))
        return fail(LockHistoryStoreText::tr("cannot write"), batch.error());
    ++pendingRows_;
    return true;
}

bool LockHistoryStore::flushRows() {
    InsertBatch* batch = std::exchange(filling_, nullptr);
    return !batch || batch->flush() ||
           fail(LockHistoryStoreText::tr("cannot write"), batch->error());
}

bool LockHistoryStore::commitIfFull() {
    return pendingRows_ < batchRows || commit();
}

bool LockHistoryStore::write(const etcd::LockEvent& event) {
    const auto seq = beginEntry();
    return seq &&
           execRow(*insertEvent_,
                   {*seq, static_cast<qlonglong>(source_.id), etcd::lockEventKindName(event.kind),
                    static_cast<qlonglong>(event.revision),
                    static_cast<qlonglong>(millis(event.observedAt)), bytes(event.lock),
                    bytes(event.key), static_cast<qlonglong>(event.lease),
                    etcd::queueKindName(event.recipe), static_cast<qlonglong>(event.createRevision),
                    optionalMillis(event.waited), optionalMillis(event.held),
                    static_cast<int>(event.recovered), static_cast<int>(event.atLeast),
                    optionalMillis(event.waitedAtMost), optionalMillis(event.heldAtMost)}) &&
           commitIfFull();
}

bool LockHistoryStore::write(const HistoryGap& gap) {
    const auto seq = beginEntry();
    return seq &&
           execRow(*insertGap_,
                   {*seq, static_cast<qlonglong>(source_.id),
                    static_cast<qlonglong>(millis(gap.since)),
                    static_cast<qlonglong>(millis(gap.until)), static_cast<qlonglong>(gap.revision),
                    QString::fromStdString(gap.reason)}) &&
           commitIfFull();
}

bool LockHistoryStore::write(const HistoryAnomaly& anomaly) {
    const auto seq = beginEntry();
    const etcd::AnomalyChange& change = anomaly.change;
    return seq &&
           execRow(*insertAnomaly_,
                   {*seq, static_cast<qlonglong>(source_.id), static_cast<int>(change.appeared),
                    static_cast<qlonglong>(anomaly.revision),
                    static_cast<qlonglong>(millis(anomaly.at)), bytes(change.lock),
                    bytes(change.anomaly.key), etcd::anomalyKindName(change.anomaly.kind),
                    QString::fromStdString(change.anomaly.detail)}) &&
           commitIfFull();
}

std::optional<qlonglong> LockHistoryStore::beginCheckpoint(int64_t revision,
                                                           std::chrono::system_clock::time_point at,
                                                           const std::string& reason) {
    const auto seq = beginEntry();
    if (!seq ||
        !execRow(*insertCheckpoint_,
                 {*seq, static_cast<qlonglong>(source_.id), static_cast<qlonglong>(revision),
                  static_cast<qlonglong>(millis(at)), QString::fromStdString(reason)}))
        return std::nullopt;
    return seq;
}

bool LockHistoryStore::writeCheckpointKey(qlonglong seq, qlonglong position,
                                          const HistoryKey& key) {
    return execRow(*insertKey_,
                   {seq, position, bytes(key.lock), bytes(key.key),
                    static_cast<qlonglong>(key.lease), static_cast<qlonglong>(key.createRevision),
                    static_cast<qlonglong>(key.modRevision), etcd::queueKindName(key.recipe),
                    static_cast<int>(key.holds), optionalTime(key.enqueuedAt),
                    optionalTime(key.acquiredAt), static_cast<int>(key.enqueuedBeforeSeen),
                    static_cast<int>(key.acquiredBeforeSeen), static_cast<int>(key.leaseGone)});
}

bool LockHistoryStore::write(const HistoryCheckpoint& checkpoint) {
    const auto seq = beginCheckpoint(checkpoint.revision, checkpoint.at, checkpoint.reason);
    if (!seq)
        return false;
    qlonglong position = 0;
    for (const HistoryKey& key : checkpoint.keys)
        if (!writeCheckpointKey(*seq, position++, key))
            return false;
    return commitIfFull();
}

bool LockHistoryStore::write(const LiveCheckpoint& checkpoint) {
    const auto seq = beginCheckpoint(checkpoint.revision, checkpoint.at, checkpoint.reason);
    if (!seq)
        return false;
    qlonglong position = 0;
    bool written = true;
    for (const etcd::SharedLockQueue& lock : checkpoint.locks)
        forEachHistoryKey(*lock, checkpoint.anomalies, [&](const HistoryKey& key) {
            written = written && writeCheckpointKey(*seq, position++, key);
        });
    return written && commitIfFull();
}

bool LockHistoryStore::commit() {
    if (!inTransaction_)
        return error_.isEmpty();
    inTransaction_ = false;
    pendingRows_ = 0;
    if (!error_.isEmpty() || !flushRows() || !db_.commit()) {
        const QSqlError error = db_.lastError();
        db_.rollback();
        filling_ = nullptr;
        for (auto* batch :
             {&insertEvent_, &insertGap_, &insertAnomaly_, &insertCheckpoint_, &insertKey_})
            if (*batch)
                (*batch)->clear();
        return fail(LockHistoryStoreText::tr("cannot write"), error);
    }
    return true;
}

std::optional<int64_t> LockHistoryStore::storedBytes() {
    QSqlQuery query(db_);
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             postgres()
                 ? "SELECT pg_total_relation_size('sources') +"
                   " pg_total_relation_size('recordings') + pg_total_relation_size('events')"
                   " + pg_total_relation_size('gaps') + pg_total_relation_size('anomalies')"
                   " + pg_total_relation_size('checkpoints')"
                   " + pg_total_relation_size('checkpoint_keys') +"
                   " pg_total_relation_size('lockscope_schema')"
                 : "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
             {}) ||
        !query.next())
        return std::nullopt;
    return query.value(0).toLongLong();
}

std::optional<std::pair<int64_t, int64_t>> LockHistoryStore::pageBytes() {
    QSqlQuery query(db_);
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             "SELECT (p.page_count - f.freelist_count) * s.page_size, f.freelist_count *"
             " s.page_size FROM pragma_page_count() AS p, pragma_freelist_count() AS f,"
             " pragma_page_size() AS s",
             {}) ||
        !query.next())
        return std::nullopt;
    return std::pair(query.value(0).toLongLong(), query.value(1).toLongLong());
}

bool LockHistoryStore::cutBefore(qlonglong source, qlonglong seq) {
    const QString cannotPrune = LockHistoryStoreText::tr("cannot delete old history");
    if (!beginWrites())
        return false;
    QSqlQuery query(db_);
    const bool done =
        run(cannotPrune, query,
            "DELETE FROM checkpoint_keys WHERE checkpoint IN"
            " (SELECT seq FROM checkpoints WHERE source = ? AND seq < ?)",
            {source, seq}) &&
        run(cannotPrune, query, "DELETE FROM checkpoints WHERE source = ? AND seq < ?",
            {source, seq}) &&
        run(cannotPrune, query, "DELETE FROM events WHERE source = ? AND seq < ?", {source, seq}) &&
        run(cannotPrune, query, "DELETE FROM gaps WHERE source = ? AND seq < ?", {source, seq}) &&
        run(cannotPrune, query, "DELETE FROM anomalies WHERE source = ? AND seq < ?",
            {source, seq});
    if (!done || !db_.commit()) {
        const QSqlError error = db_.lastError();
        db_.rollback();
        return fail(cannotPrune, error);
    }
    return true;
}

bool LockHistoryStore::prune(std::chrono::system_clock::time_point keepSince, int64_t maxBytes) {
    if (!commit())
        return false;
    const QString cannotPrune = LockHistoryStoreText::tr("cannot delete old history");
    QSqlQuery query(db_);
    // By age: each source from its last checkpoint at or before the limit, which the kept
    // entries after the limit replay from.
    if (!run(cannotPrune, query,
             "SELECT source, max(seq) FROM checkpoints WHERE at_ms <= ? GROUP BY source",
             {static_cast<qlonglong>(millis(keepSince))}))
        return false;
    std::vector<std::pair<qlonglong, qlonglong>> cuts;
    while (query.next())
        cuts.emplace_back(query.value(0).toLongLong(), query.value(1).toLongLong());
    for (const auto& [source, seq] : cuts)
        if (!cutBefore(source, seq))
            return false;
    if (postgres())
        return true;
    // By size: the oldest checkpoint that is not its source's first, until few enough pages
    // are in use or every source is down to its last checkpoint.
    for (;;) {
        const auto bytes = pageBytes();
        if (!bytes)
            return false;
        if (bytes->first <= maxBytes)
            break;
        if (!run(cannotPrune, query,
                 "SELECT c.source, c.seq FROM checkpoints c WHERE c.seq >"
                 " (SELECT min(f.seq) FROM checkpoints f WHERE f.source = c.source)"
                 " ORDER BY c.seq LIMIT 1",
                 {}))
            return false;
        if (!query.next())
            break;
        const qlonglong source = query.value(0).toLongLong(), seq = query.value(1).toLongLong();
        query.finish();
        if (!cutBefore(source, seq))
            return false;
    }
    // SQLite reuses free pages for new entries rather than giving them back; a file that shrank
    // to less than half its size is compacted. Not when a reader has it open (a replay): VACUUM
    // then fails busy, harmlessly, and the next prune tries again.
    query.finish();
    const auto bytes = pageBytes();
    if (!bytes)
        return false;
    if (bytes->second > bytes->first)
        QSqlQuery(db_).exec("VACUUM");
    return true;
}

std::optional<std::vector<HistoryEntry>> LockHistoryStore::entries(const Filter& filter,
                                                                   std::vector<int64_t>* seqs) {
    std::vector<HistoryEntry> read;
    if (seqs)
        seqs->clear();
    if (!readEntries(filter, [&](int64_t seq, HistoryEntry&& entry) {
            read.push_back(std::move(entry));
            if (seqs)
                seqs->push_back(seq);
        }))
        return std::nullopt;
    return read;
}

bool LockHistoryStore::readEntries(const Filter& filter,
                                   const std::function<void(int64_t, HistoryEntry&&)>& each) {
    const QString cannotRead = LockHistoryStoreText::tr("cannot read");
    // The three reads below see one state of the store, though a recorder commits meanwhile (a
    // window replaying its own cluster's recording): one read transaction, repeatable on
    // PostgreSQL. Ended (nothing to keep) however the reads end.
    struct Snapshot {
        QSqlDatabase& db;
        const bool open;
        ~Snapshot() {
            if (open)
                db.commit();
        }
    } snapshot{db_, !inTransaction_ && db_.transaction()};
    if (snapshot.open && postgres())
        QSqlQuery(db_).exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    // Runs `sql` and hands each row to `row`, which is false for a row this build cannot read
    // (having said why). One query at a time: QPSQL holds the connection while it reads one.
    const auto readRows = [&](const QString& sql, const QVariantList& bound,
                              const std::function<bool(const QSqlQuery&)>& row) {
        QSqlQuery query(db_);
        query.setForwardOnly(true);
        if (!run(cannotRead, query, sql, bound))
            return false;
        while (query.next())
            if (!row(query))
                return false;
        return !query.lastError().isValid() || fail(cannotRead, query);
    };
    // A span of times or revisions is read between the checkpoints around it, by seq, which the
    // index finds at once, rather than by testing every row of a week. Everything written before
    // a checkpoint is at or below its revision and time, so the span's entries lie after the last
    // checkpoint before its start and before the first past its end. One more checkpoint each way,
    // so that entries written out of time order (a clock stepped back by less than a checkpoint
    // interval) are still read; the span's own terms then pick them.
    Filter bySeq = filter;
    if (filter.namesSpan()) {
        const auto marks = checkpointMarks();
        if (!marks)
            return false;
        const MarksAround around = marksAround(*marks, filter);
        if (around.before && *around.before > 0)
            bySeq.fromSeq = std::max(filter.fromSeq.value_or(0), (*marks)[*around.before - 1].seq);
        if (around.end && *around.end + 1 < marks->size())
            bySeq.toSeq = std::min(filter.toSeq.value_or(std::numeric_limits<int64_t>::max()),
                                   (*marks)[*around.end + 1].seq);
    }
    // Gaps and anomalies are few: read whole first, then put among the events by seq as those
    // are read. A gap is kept when it overlaps the span, wherever it was written.
    std::vector<std::pair<qlonglong, HistoryEntry>> sparse;
    QVariantList gapValues, anomalyValues, eventValues;
    Filter gapFilter = filter;
    gapFilter.lock.reset(); // a gap is every lock's
    if (!readRows(
            "SELECT seq, since_ms, until_ms, revision, reason FROM gaps" +
                whereOf(gapFilter, source_.id, {}, "revision", "since_ms", "until_ms", gapValues) +
                " ORDER BY seq",
            gapValues, [&](const QSqlQuery& gap) {
                sparse.emplace_back(gap.value(0).toLongLong(),
                                    HistoryGap{fromMillis(gap.value(1).toLongLong()),
                                               fromMillis(gap.value(2).toLongLong()),
                                               gap.value(3).toLongLong(),
                                               gap.value(4).toString().toStdString()});
                return true;
            }))
        return false;
    const auto gapsRead = static_cast<std::ptrdiff_t>(sparse.size());
    if (!readRows(
            "SELECT seq, appeared, revision, at_ms, lock, key, kind, detail FROM anomalies" +
                whereOf(bySeq, source_.id, "lock", "revision", "at_ms", "at_ms", anomalyValues) +
                " ORDER BY seq",
            anomalyValues, [&](const QSqlQuery& anomaly) {
                const auto kind = kindNamed(anomaly.value(6).toString(), etcd::anomalyKindName);
                if (!kind)
                    return fail(cannotRead, LockHistoryStoreText::tr(
                                                "anomaly %1 is of no kind this build knows (%2)")
                                                .arg(anomaly.value(0).toLongLong())
                                                .arg(anomaly.value(6).toString()));
                sparse.emplace_back(anomaly.value(0).toLongLong(),
                                    HistoryAnomaly{{anomaly.value(1).toBool(),
                                                    bytesOf(anomaly.value(4)),
                                                    {bytesOf(anomaly.value(5)), *kind,
                                                     anomaly.value(7).toString().toStdString()}},
                                                   anomaly.value(2).toLongLong(),
                                                   fromMillis(anomaly.value(3).toLongLong())});
                return true;
            }))
        return false;
    std::inplace_merge(sparse.begin(), sparse.begin() + gapsRead, sparse.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
    auto nextSparse = sparse.begin();
    const auto sparseBefore = [&](qlonglong seq) {
        for (; nextSparse != sparse.end() && nextSparse->first < seq; ++nextSparse)
            each(nextSparse->first, std::move(nextSparse->second));
    };
    if (!readRows(
            "SELECT seq, kind, revision, at_ms, lock, key, lease, recipe, create_revision,"
            " waited_ms, held_ms, recovered, at_least, waited_at_most_ms, held_at_most_ms"
            " FROM events" +
                whereOf(bySeq, source_.id, "lock", "revision", "at_ms", "at_ms", eventValues) +
                " ORDER BY seq",
            eventValues, [&](const QSqlQuery& events) {
                sparseBefore(events.value(0).toLongLong());
                const auto kind = kindNamed(events.value(1).toString(), etcd::lockEventKindName);
                const auto recipe = queueKindNamed(events.value(7).toString());
                if (!kind || !recipe)
                    return fail(cannotRead,
                                LockHistoryStoreText::tr(
                                    "event %1 is of no kind or recipe this build knows (%2, %3)")
                                    .arg(events.value(0).toLongLong())
                                    .arg(events.value(1).toString(), events.value(7).toString()));
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
                each(events.value(0).toLongLong(), std::move(event));
                return true;
            }))
        return false;
    sparseBefore(std::numeric_limits<qlonglong>::max());
    return true;
}

LockHistoryStore::MarksAround
LockHistoryStore::marksAround(const std::vector<HistoryCheckpoint>& marks, const Filter& filter) {
    MarksAround around;
    const auto beforeStart = [&](const HistoryCheckpoint& mark, bool orAt) {
        return (!filter.since || mark.at < *filter.since || (orAt && mark.at == *filter.since)) &&
               (!filter.sinceRevision || mark.revision < *filter.sinceRevision ||
                (orAt && mark.revision == *filter.sinceRevision));
    };
    // The last of `marks` that `wanted` accepts.
    const auto lastOf = [&](auto wanted) -> std::optional<std::size_t> {
        const auto found = std::find_if(marks.rbegin(), marks.rend(), wanted);
        if (found == marks.rend())
            return std::nullopt;
        return static_cast<std::size_t>(marks.rend() - found) - 1;
    };
    const auto pastEnd = [&](const HistoryCheckpoint& mark) {
        return (filter.until && mark.at > *filter.until) ||
               (filter.untilRevision && mark.revision > *filter.untilRevision);
    };
    if (filter.namesStart()) {
        around.start =
            lastOf([&](const HistoryCheckpoint& mark) { return beforeStart(mark, true); });
        around.before =
            lastOf([&](const HistoryCheckpoint& mark) { return beforeStart(mark, false); });
    }
    if (const auto end = std::find_if(marks.begin(), marks.end(), pastEnd); end != marks.end())
        around.end = static_cast<std::size_t>(end - marks.begin());
    return around;
}

std::optional<int64_t> LockHistoryStore::countEntries(int64_t fromSeq,
                                                      std::optional<int64_t> toSeq) {
    QSqlQuery query(db_);
    const QString within = toSeq ? " AND seq < ?" : "";
    QVariantList bound;
    for (int table = 0; table < 3; ++table) {
        bound << static_cast<qlonglong>(source_.id) << static_cast<qlonglong>(fromSeq);
        if (toSeq)
            bound << static_cast<qlonglong>(*toSeq);
    }
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             "SELECT (SELECT COUNT(*) FROM events WHERE source = ? AND seq >= ?" + within +
                 ") + (SELECT COUNT(*) FROM gaps WHERE source = ? AND seq >= ?" + within +
                 ") + (SELECT COUNT(*) FROM anomalies WHERE source = ? AND seq >= ?" + within + ")",
             bound) ||
        !query.next()) {
        fail(LockHistoryStoreText::tr("cannot read"), query);
        return std::nullopt;
    }
    return query.value(0).toLongLong();
}

std::optional<std::vector<HistoryCheckpoint>> LockHistoryStore::checkpointMarks() {
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             "SELECT seq, revision, at_ms, reason FROM checkpoints WHERE source = ? ORDER BY seq",
             {static_cast<qlonglong>(source_.id)}))
        return std::nullopt;
    std::vector<HistoryCheckpoint> read;
    while (query.next())
        read.push_back({query.value(1).toLongLong(),
                        fromMillis(query.value(2).toLongLong()),
                        query.value(3).toString().toStdString(),
                        {},
                        query.value(0).toLongLong()});
    if (query.lastError().isValid()) {
        fail(LockHistoryStoreText::tr("cannot read"), query);
        return std::nullopt;
    }
    return read;
}

std::optional<std::vector<HistoryCheckpoint>>
LockHistoryStore::checkpoints(std::optional<int64_t> fromSeq, std::optional<int64_t> toSeq) {
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    QVariantList bound{static_cast<qlonglong>(source_.id)};
    QString within;
    if (fromSeq) {
        within += " AND c.seq >= ?";
        bound << static_cast<qlonglong>(*fromSeq);
    }
    if (toSeq) {
        within += " AND c.seq < ?";
        bound << static_cast<qlonglong>(*toSeq);
    }
    if (!run(LockHistoryStoreText::tr("cannot read"), query,
             QString("SELECT c.seq, c.revision, c.at_ms, c.reason, k.lock, k.key, k.lease,"
                     " k.create_revision, k.mod_revision, k.recipe, k.holds, k.enqueued_ms,"
                     " k.acquired_ms, k.enqueued_before_seen, k.acquired_before_seen,"
                     " k.lease_gone FROM checkpoints c"
                     " LEFT JOIN checkpoint_keys k ON k.checkpoint = c.seq WHERE c.source = ?") +
                 within + " ORDER BY c.seq, k.position",
             bound))
        return std::nullopt;
    std::vector<HistoryCheckpoint> read;
    while (query.next()) {
        if (read.empty() || query.value(0).toLongLong() != read.back().seq) {
            read.push_back({query.value(1).toLongLong(),
                            fromMillis(query.value(2).toLongLong()),
                            query.value(3).toString().toStdString(),
                            {},
                            query.value(0).toLongLong()});
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
                                    query.value(8).toLongLong(), *recipe, query.value(10).toBool(),
                                    timeOrNothing(query.value(11)), timeOrNothing(query.value(12)),
                                    query.value(13).toBool(), query.value(14).toBool(),
                                    query.value(15).toBool()});
    }
    if (query.lastError().isValid()) {
        fail(LockHistoryStoreText::tr("cannot read"), query);
        return std::nullopt;
    }
    return read;
}

} // namespace lockscope
