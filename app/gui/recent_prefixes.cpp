#include "app/gui/recent_prefixes.h"

#include <QSettings>
#include <algorithm>

namespace lockscope {

namespace {

const QString allKey = QStringLiteral("locks/recentPrefixes");

// One settings key per cluster: its endpoints in order, percent-encoded so their '/' and ':'
// are not taken for settings groups.
QString clusterKey(std::vector<std::string> endpoints) {
    std::sort(endpoints.begin(), endpoints.end());
    QStringList names;
    for (const std::string& endpoint : endpoints)
        names << QString::fromStdString(endpoint);
    return "locks/recentPrefixesByCluster/" +
           QString::fromLatin1(names.join(',').toUtf8().toPercentEncoding());
}

} // namespace

RecentPrefixes::RecentPrefixes(QSettings& settings)
    : settings_(settings) {}

QStringList RecentPrefixes::all() const {
    return settings_.value(allKey, QStringList{"/"}).toStringList();
}

QStringList RecentPrefixes::rememberUsed(const QString& prefix) {
    return rememberIn(allKey, prefix);
}

QStringList RecentPrefixes::ofCluster(const std::vector<std::string>& endpoints) const {
    return settings_.value(clusterKey(endpoints)).toStringList();
}

void RecentPrefixes::rememberUsedOn(const std::vector<std::string>& endpoints,
                                    const QString& prefix) {
    rememberIn(clusterKey(endpoints), prefix);
}

QStringList RecentPrefixes::rememberIn(const QString& key, const QString& prefix) {
    QStringList recent = settings_.value(key).toStringList();
    recent.removeAll(prefix);
    recent.prepend(prefix);
    recent = recent.mid(0, Max);
    settings_.setValue(key, recent);
    return recent;
}

} // namespace lockscope
