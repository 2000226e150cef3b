#pragma once

#include "app/core/history_location.h"
#include "app/core/insert_batch.h"
#include "app/core/lock_history.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope {

// A recorded lock history in one SQLite file (Qt SQL, QSQLITE) or one PostgreSQL database
// (QPSQL), shared by several recorders: lock events, gaps, anomalies appearing and going, and
// checkpoints of the whole state, in the order written (docs/design.md §5 has the schema). What
// one recorder of one cluster and prefix writes is a source's history; a store holds any number
// of sources, and a reader reads one. Written in batches: each write joins an open transaction,
// committed by commit(), which the owner calls every 200 ms or so, or by itself once `batchRows`
// rows wait. Not thread-safe: one thread owns a store and makes every call (never a GUI thread: a
// commit waits on the disk or the server). Every failure is kept as a message (error()) and nothing
// more is written after it; what was committed before stays readable.
class LockHistoryStore {
public:
    // The schema this build writes; a store of a newer one is refused, an older one migrated.
    static constexpr int schemaVersion = 3;
    static constexpr int batchRows = 5000;

    // What a reader wants: one lock's events (all when empty), between two revisions or times
    // (both ends included; a gap is kept when it overlaps the span), and between two places in
    // the recording's order (seqs: from included, to not), which its index finds at once.
    struct Filter {
        std::optional<std::string> lock;
        std::optional<int64_t> sinceRevision, untilRevision;
        std::optional<std::chrono::system_clock::time_point> since, until;
        std::optional<int64_t> fromSeq, toSeq;
        // Whether it names where a span starts (a time or a revision), or either end.
        bool namesStart() const { return since || sinceRevision; }
        bool namesSpan() const { return namesStart() || until || untilRevision; }
    };

    // Whose history: the cluster a recorder watched (named by its endpoints, or as its user
    // chose) and the prefix of its locks.
    struct Source {
        int64_t id = 0;
        std::string name;
        std::string prefix;
    };

    // Opens `location` (a file path or a postgresql:// URL: HistoryLocation) to record the locks
    // under `prefix` of the cluster called `sourceName` into (a file is created when missing;
    // a database must exist): refuses a store that is no LockScope history, is damaged, has a
    // newer schema, or that another recorder of the same source writes into now. Null with the
    // reason in `problem`, which never holds a password.
    static std::unique_ptr<LockHistoryStore> openForWriting(const QString& location,
                                                            const std::string& sourceName,
                                                            const std::string& prefix,
                                                            QString& problem);
    // Opens `location` read-only (it is never changed) to read the history of `source` (its id),
    // or of the only one it holds: when it holds several, the problem lists them.
    static std::unique_ptr<LockHistoryStore>
    openForReading(const QString& location, QString& problem, std::optional<int64_t> source = {});
    // The sources `location` holds, by id; nothing, with the reason in `problem`, when it cannot
    // be read.
    static std::optional<std::vector<Source>> sourcesIn(const QString& location, QString& problem);
    ~LockHistoryStore(); // commits what waits
    LockHistoryStore(const LockHistoryStore&) = delete;
    LockHistoryStore& operator=(const LockHistoryStore&) = delete;

    // Writing. False once anything failed (error() says what).
    bool write(const etcd::LockEvent& event);
    bool write(const HistoryGap& gap);
    bool write(const HistoryAnomaly& anomaly);
    bool write(const HistoryCheckpoint& checkpoint);
    bool write(const LiveCheckpoint& checkpoint); // the rows historyKeysOf makes of its locks
    bool commit();
    const QString& error() const { return error_; }
    // The source written or read.
    const Source& source() const { return source_; }
    // Where it is; its `shown` is what to name it by (no password).
    const HistoryLocation& location() const { return location_; }
    const std::string& prefix() const { return source_.prefix; }
    // Where the source's last entry is (any kind): its time and seq, read when a writer opens
    // and by readLastEntry(); nothing when it has none.
    std::optional<std::chrono::system_clock::time_point> lastWrittenAt() const {
        return lastWrittenAt_;
    }
    std::optional<int64_t> lastSeq() const { return lastSeq_; }
    // Reads them again, by the indexes on (source, seq); false when the read failed.
    bool readLastEntry();

    // The bytes the store takes, every source's: a file's pages, or a database's LockScope
    // tables with their indexes. Nothing when the read failed (error() says why).
    std::optional<int64_t> storedBytes();

    // Retention, over every source of the store: deletes what was recorded before `keepSince`,
    // then (in a file) the oldest of what is left while its pages in use exceed `maxBytes`.
    // Always up to one of a source's checkpoints, so what is kept of a source begins with the
    // whole state and still replays; a source keeps at least its last checkpoint and what
    // follows it. Commits what waits first. A file that then holds more free pages than used
    // ones is compacted (VACUUM). On PostgreSQL only `keepSince` applies: its space comes back
    // with its own VACUUM, so its size says nothing of what a delete freed.
    bool prune(std::chrono::system_clock::time_point keepSince, int64_t maxBytes);

    // Reading: nothing when a read failed (error() says why). `seqs`, when given, gets each
    // entry's place in the recording's order (as HistoryCheckpoint::seq), beside it.
    std::optional<std::vector<HistoryEntry>> entries(const Filter& filter,
                                                     std::vector<int64_t>* seqs = nullptr);
    // The same, each handed to `each` with its seq as it is read, none held: a day of a busy
    // prefix is tens of millions of entries. False when a read failed, maybe after some.
    bool readEntries(const Filter& filter,
                     const std::function<void(int64_t seq, HistoryEntry&& entry)>& each);
    // The checkpoints with their keys: every one, or those at seqs from `fromSeq` (included) to
    // `toSeq` (not).
    std::optional<std::vector<HistoryCheckpoint>> checkpoints(std::optional<int64_t> fromSeq = {},
                                                              std::optional<int64_t> toSeq = {});
    // Every checkpoint without its keys: where each is, to read one interval of a long recording.
    std::optional<std::vector<HistoryCheckpoint>> checkpointMarks();
    // How many events, gaps and anomalies of the source lie at seqs from `fromSeq` (included) to
    // `toSeq` (not; the end when none), by the indexes on (source, seq). Seqs alone overcount
    // them: every source of a store takes its seqs from one order.
    std::optional<int64_t> countEntries(int64_t fromSeq, std::optional<int64_t> toSeq);

    // Where the span of `filter`'s times and revisions lies among `marks` (checkpointMarks, in
    // order): the last one at or before its start and the last one before it (none when it names
    // no start or begins before them all), and the first one past its end (none when it names no
    // end or reaches past them).
    struct MarksAround {
        std::optional<std::size_t> start, before, end;
    };
    static MarksAround marksAround(const std::vector<HistoryCheckpoint>& marks,
                                   const Filter& filter);

private:
    // What a store holds: its application id (LockScope's, when a history), its schema version,
    // and whether it is empty (a new file or database, which the first writer sets up).
    struct Schema {
        int64_t applicationId = 0;
        int version = 0;
        bool empty = true;
    };

    LockHistoryStore(HistoryLocation location, QString connectionName);
    // `location` opened read-only (never changed), no source chosen yet; null with the reason.
    static std::unique_ptr<LockHistoryStore> openReadOnly(const QString& location,
                                                          QString& problem);
    bool postgres() const { return location_.kind == HistoryLocation::Kind::Postgres; }
    bool open(bool readOnly);
    std::optional<Schema> readSchema();
    bool migrate();                                // to schemaVersion, for writing
    bool setVersion(int version);                  // in the migration's transaction
    bool joinSource(const std::string& sourceName, // for writing: finds or adds it, and
                    const std::string& prefix);    // locks it against a second recorder
    bool chooseSource(std::optional<int64_t> id);  // for reading
    std::optional<std::vector<Source>> readSources();
    bool beginWrites(); // a transaction that may write
    // The seqs this store may take next: in a file, all after its last; from PostgreSQL, the
    // next block of its sequence.
    bool takeSeqs();
    void prepareWrites();
    bool fail(const QString& what, const QSqlQuery& query);
    bool fail(const QString& what, const QSqlError& error);
    bool fail(const QString& what, const QString& why);
    bool exec(const QString& sql);
    // Runs `sql` with `bound` values; false when it failed, said as `what`.
    bool run(const QString& what, QSqlQuery& query, const QString& sql, const QVariantList& bound);
    // Opens the batch and takes the next seq for an entry; nothing once anything failed.
    std::optional<qlonglong> beginEntry();
    // Adds `values` to the rows of `batch`'s table in the transaction.
    bool execRow(InsertBatch& batch, const QVariantList& values);
    bool flushRows();    // runs the INSERT of the rows waiting
    bool commitIfFull(); // commits once batchRows rows wait
    // A checkpoint's row, then its keys' (each at its place in the checkpoint), all in one
    // transaction: a checkpoint is never read half written.
    std::optional<qlonglong> beginCheckpoint(int64_t revision,
                                             std::chrono::system_clock::time_point at,
                                             const std::string& reason);
    bool writeCheckpointKey(qlonglong seq, qlonglong position, const HistoryKey& key);
    // Deletes, in a transaction of its own, the entries of `source` before seq `seq`.
    bool cutBefore(qlonglong source, qlonglong seq);
    // A file's pages in use and free, in bytes.
    std::optional<std::pair<int64_t, int64_t>> pageBytes();

    const HistoryLocation location_;
    const QString connectionName_;
    QSqlDatabase db_;
    // Rows wait in one table's batch at a time (filling_), inserted many at once.
    std::optional<InsertBatch> insertEvent_, insertGap_, insertAnomaly_, insertCheckpoint_,
        insertKey_;
    InsertBatch* filling_ = nullptr;
    QString error_;
    Source source_;
    std::optional<std::chrono::system_clock::time_point> lastWrittenAt_;
    std::optional<int64_t> lastSeq_;
    // One order over events, gaps and checkpoints of every source: the seqs this store may
    // take, nextSeq_ up to seqEnd_ (takeSeqs()).
    int64_t nextSeq_ = 1, seqEnd_ = 1;
    int version_ = 0; // the store's schema when opened
    int pendingRows_ = 0;
    bool inTransaction_ = false;
    bool sourceLocked_ = false; // PostgreSQL's advisory lock on the source, for a writer
};

} // namespace lockscope
