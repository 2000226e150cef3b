#pragma once

#include "app/core/lock_history.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope {

// A recorded lock history in one SQLite file (Qt SQL, QSQLITE): lock events, gaps and
// checkpoints of the whole state, in the order written (docs/design.md §5 has the schema).
// Written in batches: each write joins an open transaction, committed by commit(), which the
// owner calls every 200 ms or so, or by itself once `batchRows` rows wait. Not thread-safe: one
// thread owns a store and makes every call (never a GUI thread: a commit waits on the disk).
// Every failure is kept as a message (error()) and nothing more is written after it; what was
// committed before stays readable.
class LockHistoryStore {
public:
    // The schema this build writes; a file of a newer one is refused, an older one migrated.
    static constexpr int schemaVersion = 1;
    static constexpr int batchRows = 5000;

    // What a reader wants: one lock's events (all when empty), between two revisions or times
    // (both ends included; a gap is kept when it overlaps the span).
    struct Filter {
        std::optional<std::string> lock;
        std::optional<int64_t> sinceRevision, untilRevision;
        std::optional<std::chrono::system_clock::time_point> since, until;
    };

    // Opens `path` to record the locks under `prefix` into (created when missing): refuses a
    // file that is no LockScope recording, is damaged, has a newer schema, or records another
    // prefix. Null with the reason in `problem`.
    static std::unique_ptr<LockHistoryStore>
    openForWriting(const QString& path, const std::string& prefix, QString& problem);
    // Opens `path` read-only: the file is never changed.
    static std::unique_ptr<LockHistoryStore> openForReading(const QString& path, QString& problem);
    ~LockHistoryStore(); // commits what waits
    LockHistoryStore(const LockHistoryStore&) = delete;
    LockHistoryStore& operator=(const LockHistoryStore&) = delete;

    // Writing. False once anything failed (error() says what).
    bool write(const etcd::LockEvent& event);
    bool write(const HistoryGap& gap);
    bool write(const HistoryCheckpoint& checkpoint);
    bool commit();
    const QString& error() const { return error_; }
    // The prefix recorded and the time of the last entry written before this store opened.
    const std::string& prefix() const { return prefix_; }
    std::optional<std::chrono::system_clock::time_point> lastWrittenAt() const {
        return lastWrittenAt_;
    }

    // Reading: nothing when a read failed (error() says why).
    std::optional<std::vector<HistoryEntry>> entries(const Filter& filter);
    std::optional<std::vector<HistoryCheckpoint>> checkpoints();

private:
    LockHistoryStore(QString path, QString connectionName);
    bool open(bool readOnly);
    bool migrate(const std::string& prefix); // to schemaVersion, for writing
    bool readPosition();                     // the prefix recorded, the last seq and time written
    bool prepareWrites();
    bool fail(const QString& what, const QSqlQuery& query);
    bool fail(const QString& what, const QSqlError& error);
    bool fail(const QString& what, const QString& why);
    bool exec(const QString& sql);
    bool beginBatch();
    // Binds `values` to a prepared insert and runs it in the batch.
    bool execRow(QSqlQuery& query, const QVariantList& values);
    bool commitIfFull(); // commits once batchRows rows wait
    int64_t nextSeq() { return nextSeq_++; }

    const QString path_;
    const QString connectionName_;
    QSqlDatabase db_;
    // Prepared once, bound per row.
    std::optional<QSqlQuery> insertEvent_, insertGap_, insertCheckpoint_, insertKey_;
    QString error_;
    std::string prefix_;
    std::optional<std::chrono::system_clock::time_point> lastWrittenAt_;
    int64_t nextSeq_ = 1; // one order over events, gaps and checkpoints
    int version_ = 0;     // the file's schema when opened
    int pendingRows_ = 0;
    bool inTransaction_ = false;
};

} // namespace lockscope
