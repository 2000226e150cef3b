#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QStringList>
#include <string>
#include <vector>

class QSettings;

namespace lockscope {

// The lock prefixes used lately, newest first, as the prefix field takes them: across all
// clusters (the prefix field's list), and per cluster, named by its endpoints, so a cluster
// opens on the prefix last used on it.
class RecentPrefixes {
public:
    static constexpr int Max = 10;

    explicit RecentPrefixes(QSettings& settings);

    QStringList all() const;
    // Puts `prefix` first in the list of all clusters, and returns that list.
    QStringList rememberUsed(const QString& prefix);
    QStringList ofCluster(const std::vector<std::string>& endpoints) const;
    void rememberUsedOn(const std::vector<std::string>& endpoints, const QString& prefix);
    // The recipe the operator named for a prefix of a cluster (Auto when none).
    etcd::RecipeOverride recipeOn(const std::vector<std::string>& endpoints,
                                  const QString& prefix) const;
    void rememberRecipeOn(const std::vector<std::string>& endpoints, const QString& prefix,
                          etcd::RecipeOverride recipe);

private:
    QStringList rememberIn(const QString& key, const QString& prefix);

    QSettings& settings_;
};

} // namespace lockscope
