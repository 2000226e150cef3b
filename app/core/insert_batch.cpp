#include "app/core/insert_batch.h"

#include "app/core/sqlite_row_insert.h"

namespace lockscope {

InsertBatch::InsertBatch(const QSqlDatabase& db, const QString& table, const QStringList& columns)
    : db_(db)
    , sqlite_(db.driverName() == "QSQLITE")
    , head_(QString("INSERT INTO %1(%2) VALUES ").arg(table, columns.join(", ")))
    , row_("(" + QStringList(columns.size(), "?").join(", ") + ")") {
    if (!sqlite_)
        values_.reserve(rowsPerInsert * columns.size());
}

InsertBatch::~InsertBatch() = default;

QString InsertBatch::statement(int rows) const {
    return head_ + QStringList(rows, row_).join(", ");
}

bool InsertBatch::add(const QVariantList& row) {
    if (sqlite_)
        return insertNow(row);
    values_.append(row);
    if (++rows_ < rowsPerInsert)
        return true;
    if (!full_) {
        full_.emplace(db_);
        if (!full_->prepare(statement(rowsPerInsert))) {
            error_ = full_->lastError();
            full_.reset();
            return false;
        }
    }
    return insert(*full_);
}

bool InsertBatch::flush() {
    if (rows_ == 0)
        return true;
    QSqlQuery query(db_); // fewer rows than a full batch: a statement of their own
    if (!query.prepare(statement(rows_))) {
        error_ = query.lastError();
        return false;
    }
    return insert(query);
}

bool InsertBatch::insertNow(const QVariantList& row) {
    if (!sqliteRow_)
        sqliteRow_ = SqliteRowInsert::prepare(db_, statement(1), error_);
    if (!sqliteRow_)
        return false;
    if (!sqliteRow_->insert(row)) {
        error_ = sqliteRow_->error();
        return false;
    }
    return true;
}

bool InsertBatch::insert(QSqlQuery& query) {
    for (int i = 0; i < values_.size(); ++i)
        query.bindValue(i, values_[i]);
    const bool inserted = query.exec();
    if (!inserted)
        error_ = query.lastError();
    clear();
    return inserted;
}

void InsertBatch::clear() {
    values_.clear();
    rows_ = 0;
}

} // namespace lockscope
