#include "app/core/history_location.h"

#include <QCoreApplication>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

namespace lockscope {

namespace {

// How long a connection attempt may take unless the URL says: a host that drops packets would
// otherwise hold a recorder's start for the system's TCP timeout (minutes).
constexpr int connectTimeoutSeconds = 10;

} // namespace

bool HistoryLocation::isPostgresUrl(const QString& text) {
    return text.startsWith("postgresql://") || text.startsWith("postgres://");
}

std::optional<HistoryLocation> HistoryLocation::parse(const QString& text, QString& problem) {
    HistoryLocation location;
    if (!isPostgresUrl(text)) {
        location.path = location.shown = text;
        return location;
    }
    const QUrl url(text, QUrl::StrictMode);
    location.kind = Kind::Postgres;
    location.shown = url.isValid() ? url.toString(QUrl::RemovePassword) : QString("postgresql://…");
    location.database = url.path().mid(1);
    if (!url.isValid() || location.database.isEmpty() || location.database.contains('/')) {
        problem = tr("%1 is no PostgreSQL URL LockScope can use: write it as "
                     "postgresql://user[:password]@host[:port]/dbname")
                      .arg(location.shown);
        return std::nullopt;
    }
    location.host = url.host();
    location.port = url.port();
    location.user = url.userName();
    location.password = url.password();
    QStringList options;
    bool timeoutGiven = false;
    for (const auto& [key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        options << key + "=" + value;
        timeoutGiven = timeoutGiven || key == "connect_timeout";
    }
    if (!timeoutGiven)
        options << QString("connect_timeout=%1").arg(connectTimeoutSeconds);
    location.connectOptions = options.join(';');
    return location;
}

} // namespace lockscope
