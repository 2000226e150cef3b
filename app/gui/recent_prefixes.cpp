#include "app/gui/recent_prefixes.h"

#include <QSettings>
#include <algorithm>

namespace lockscope {

namespace {

const QString allKey = QStringLiteral("locks/recentPrefixes");

// A settings key's part, percent-encoded so a '/' or ':' is not taken for a settings group.
QString keyPart(const QString& text) {
    return QString::fromLatin1(text.toUtf8().toPercentEncoding());
}

// A cluster's name in settings keys: its endpoints in order.
QString clusterName(std::vector<std::string> endpoints) {
    std::sort(endpoints.begin(), endpoints.end());
    QStringList names;
    for (const std::string& endpoint : endpoints)
        names << QString::fromStdString(endpoint);
    return keyPart(names.join(','));
}

QString clusterKey(const std::vector<std::string>& endpoints) {
    return "locks/recentPrefixesByCluster/" + clusterName(endpoints);
}

QString recipeKey(const std::vector<std::string>& endpoints, const QString& prefix) {
    return "locks/recipeByClusterAndPrefix/" + clusterName(endpoints) + "/" + keyPart(prefix);
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

etcd::RecipeOverride RecentPrefixes::recipeOn(const std::vector<std::string>& endpoints,
                                              const QString& prefix) const {
    return etcd::parseRecipeOverride(
               settings_.value(recipeKey(endpoints, prefix)).toString().toStdString())
        .value_or(etcd::RecipeOverride::Auto);
}

void RecentPrefixes::rememberRecipeOn(const std::vector<std::string>& endpoints,
                                      const QString& prefix, etcd::RecipeOverride recipe) {
    if (recipe == etcd::RecipeOverride::Auto)
        settings_.remove(recipeKey(endpoints, prefix));
    else
        settings_.setValue(recipeKey(endpoints, prefix), etcd::recipeOverrideName(recipe));
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
