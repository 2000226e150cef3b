#include "app/core/sqlite_row_insert.h"

#include <QByteArray>
#include <QSqlDriver>
#include <sqlite3.h>

namespace lockscope {

namespace {

QSqlError sqliteError(sqlite3* db, int code) {
    return QSqlError(QString(), QString::fromUtf8(sqlite3_errmsg(db)), QSqlError::StatementError,
                     QString::number(code));
}

// As Qt's driver binds: a null QString or QByteArray is NULL, as is a QVariant of no value.
// SQLITE_STATIC where the bytes are the row's own, which outlives the step.
int bind(sqlite3_stmt* statement, int position, const QVariant& value) {
    if (value.isNull())
        return sqlite3_bind_null(statement, position);
    switch (value.typeId()) {
    case QMetaType::QByteArray: {
        const QByteArray* bytes = static_cast<const QByteArray*>(value.constData());
        return bytes->isNull()
                   ? sqlite3_bind_null(statement, position)
                   : sqlite3_bind_blob64(statement, position, bytes->constData(),
                                         static_cast<sqlite3_uint64>(bytes->size()), SQLITE_STATIC);
    }
    case QMetaType::Int:
    case QMetaType::Bool:
    case QMetaType::LongLong:
    case QMetaType::UInt: return sqlite3_bind_int64(statement, position, value.toLongLong());
    case QMetaType::Double: return sqlite3_bind_double(statement, position, value.toDouble());
    case QMetaType::QString: { // unicode(): utf16() copies a string whose bytes are not its own
        const QString* text = static_cast<const QString*>(value.constData());
        return text->isNull()
                   ? sqlite3_bind_null(statement, position)
                   : sqlite3_bind_text16(statement, position, text->unicode(),
                                         static_cast<int>(text->size() * 2), SQLITE_STATIC);
    }
    default: {
        const QString text = value.toString();
        if (text.isNull())
            return sqlite3_bind_null(statement, position);
        // SQLITE_TRANSIENT: the text converted here does not outlive this call.
        const QByteArray utf8 = text.toUtf8();
        return sqlite3_bind_text64(statement, position, utf8.constData(),
                                   static_cast<sqlite3_uint64>(utf8.size()), SQLITE_TRANSIENT,
                                   SQLITE_UTF8);
    }
    }
}

} // namespace

std::unique_ptr<SqliteRowInsert>
SqliteRowInsert::prepare(const QSqlDatabase& db, const QString& statement, QSqlError& error) {
    // Qt SQL hands out its SQLite connection as a QVariant named "sqlite3*" (QSqlDriver::handle).
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    sqlite3* connection = handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0
                              ? *static_cast<sqlite3* const*>(handle.constData())
                              : nullptr;
    if (!connection) {
        error = QSqlError(QString(), "no open SQLite connection", QSqlError::ConnectionError);
        return nullptr;
    }
    const QByteArray text = statement.toUtf8();
    sqlite3_stmt* prepared = nullptr;
    const int code = sqlite3_prepare_v3(connection, text.constData(), static_cast<int>(text.size()),
                                        SQLITE_PREPARE_PERSISTENT, &prepared, nullptr);
    if (code != SQLITE_OK) {
        error = sqliteError(connection, code);
        sqlite3_finalize(prepared);
        return nullptr;
    }
    return std::unique_ptr<SqliteRowInsert>(new SqliteRowInsert(prepared));
}

SqliteRowInsert::~SqliteRowInsert() {
    sqlite3_finalize(statement_);
}

bool SqliteRowInsert::insert(const QVariantList& row) {
    // A value for every parameter: one left unbound would keep the last row's, whose bytes
    // (bound SQLITE_STATIC) are gone.
    const int parameters = sqlite3_bind_parameter_count(statement_);
    if (row.size() != parameters) {
        error_ = QSqlError(QString(),
                           QString("%1 values for %2 parameters").arg(row.size()).arg(parameters),
                           QSqlError::StatementError);
        return false;
    }
    int code = SQLITE_OK;
    for (int i = 0; i < row.size() && code == SQLITE_OK; ++i)
        code = bind(statement_, i + 1, row[i]);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement_);
    const bool inserted = code == SQLITE_DONE;
    if (!inserted)
        error_ = sqliteError(sqlite3_db_handle(statement_), code);
    // Reset at once, done or not: a statement left running would keep the transaction open.
    sqlite3_reset(statement_);
    return inserted;
}

} // namespace lockscope
