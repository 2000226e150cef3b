#pragma once

#include <QCoreApplication>
#include <QString>
#include <optional>

namespace lockscope {

// Where a lock history is kept: an SQLite file (a path) or a PostgreSQL database, named by a
// URL postgresql://user[:password]@host[:port]/dbname (or postgres://; query items such as
// ?sslmode=require are handed to libpq as they are). Without a password in the URL, libpq takes
// PGPASSWORD or ~/.pgpass.
struct HistoryLocation {
    Q_DECLARE_TR_FUNCTIONS(HistoryLocation)

public:
    enum class Kind { SqliteFile, Postgres };
    Kind kind = Kind::SqliteFile;
    QString path; // the file
    // The database, as QPSQL takes it; port -1 is libpq's default.
    QString host, user, password, database, connectOptions;
    int port = -1;
    // What every message names: the path, or the URL without its password.
    QString shown;

    // Nothing, with what is wrong in `problem`, for a URL that names no database.
    static std::optional<HistoryLocation> parse(const QString& text, QString& problem);
    // Whether `text` is meant as a PostgreSQL URL rather than a file.
    static bool isPostgresUrl(const QString& text);
};

} // namespace lockscope
