#pragma once

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>
#include <QVariantList>
#include <memory>

struct sqlite3_stmt;

namespace lockscope {

// A one-row INSERT on the SQLite connection under Qt SQL's driver, bound and stepped through
// SQLite's own API. Qt binds a value by position by naming the position (":N") and looking the
// name up in a hash: at 5k lock events/s of 16 columns that was a quarter of a recorder's CPU,
// where SQLite binds a value in one call. A value binds as Qt's driver binds it (null QString
// and QByteArray as NULL, text as text, bytes as a blob), so readers through Qt SQL read the same.
// It runs in the transaction of the connection it was prepared on, and must be gone before that
// connection closes (SQLite will not close a connection with a statement left).
class SqliteRowInsert {
public:
    // Null, with `error` set, when `db` is no open SQLite connection or the statement did not
    // prepare.
    static std::unique_ptr<SqliteRowInsert> prepare(const QSqlDatabase& db,
                                                    const QString& statement, QSqlError& error);
    ~SqliteRowInsert();
    SqliteRowInsert(const SqliteRowInsert&) = delete;
    SqliteRowInsert& operator=(const SqliteRowInsert&) = delete;

    // Binds a value per column and runs the INSERT. False when that failed (error()).
    bool insert(const QVariantList& row);
    const QSqlError& error() const { return error_; }

private:
    explicit SqliteRowInsert(sqlite3_stmt* statement)
        : statement_(statement) {}

    sqlite3_stmt* const statement_;
    QSqlError error_;
};

} // namespace lockscope
