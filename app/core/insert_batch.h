#pragma once

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <memory>
#include <optional>

namespace lockscope {

class SqliteRowInsert;

// The rows for one table. On PostgreSQL they are written as multi-row INSERTs of up to
// rowsPerInsert rows, one round trip for them all rather than one a row: a row waits here until
// the batch is full or flush() runs, so whoever mixes tables flushes one before adding to
// another (rows that refer to others must follow them). SQLite has no round trip to save: a row
// is inserted when added, through SQLite's own binding (SqliteRowInsert).
class InsertBatch {
public:
    // 64 rows of 16 columns stay far below the bound parameters PostgreSQL allows.
    static constexpr int rowsPerInsert = 64;

    InsertBatch(const QSqlDatabase& db, const QString& table, const QStringList& columns);
    ~InsertBatch();

    // Adds a row (a value per column); runs the INSERT once rowsPerInsert rows wait. False when
    // that failed (error()).
    bool add(const QVariantList& row);
    // Runs the INSERT of the rows waiting, if any.
    bool flush();
    // After a rollback: the rows waiting belong to no transaction any more.
    void clear();
    const QSqlError& error() const { return error_; }

private:
    QString statement(int rows) const;
    bool insert(QSqlQuery& query);
    bool insertNow(const QVariantList& row);

    QSqlDatabase db_;
    const bool sqlite_;
    const QString head_; // INSERT INTO table(columns) VALUES
    const QString row_;  // (?, ?, ...)
    QVariantList values_;
    int rows_ = 0;
    std::optional<QSqlQuery> full_;              // prepared once, for a full batch
    std::unique_ptr<SqliteRowInsert> sqliteRow_; // on SQLite: each row as it comes
    QSqlError error_;
};

} // namespace lockscope
