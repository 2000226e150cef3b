#pragma once

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <optional>

namespace lockscope {

// The rows for one table, written as multi-row INSERTs of up to rowsPerInsert rows: on
// PostgreSQL one round trip for them all rather than one a row, and in SQLite one statement
// step. A row waits here until the batch is full or flush() runs, so whoever mixes tables
// flushes one before adding to another (rows that refer to others must follow them).
class InsertBatch {
public:
    // 64 rows of 16 columns stay far below the bound parameters either database allows.
    static constexpr int rowsPerInsert = 64;

    InsertBatch(const QSqlDatabase& db, const QString& table, const QStringList& columns);

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

    QSqlDatabase db_;
    const QString head_; // INSERT INTO table(columns) VALUES
    const QString row_;  // (?, ?, ...)
    QVariantList values_;
    int rows_ = 0;
    std::optional<QSqlQuery> full_; // prepared once, for a full batch
    QSqlError error_;
};

} // namespace lockscope
