#include "app/core/cluster_history_file.h"

#include <QCryptographicHash>
#include <QStandardPaths>
#include <algorithm>
#include <cctype>

namespace lockscope {

namespace {

QString historyFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/history/";
}

} // namespace

std::string clusterName(const std::vector<std::string>& endpoints) {
    std::vector<std::string> sorted = endpoints;
    std::sort(sorted.begin(), sorted.end());
    std::string name;
    for (const std::string& endpoint : sorted)
        name += (name.empty() ? "" : ",") + endpoint;
    return name;
}

QString clusterHistoryPath(const std::vector<std::string>& endpoints) {
    // Readable in a file manager ("http___10.0.0.1_2379.db"); names that became equal are told
    // apart inside the file, where each source keeps the exact name.
    const QByteArray name = QByteArray::fromStdString(clusterName(endpoints));
    QString safe;
    for (const char c : name)
        safe += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? QChar(c)
                                                                                    : QChar('_');
    constexpr qsizetype MaxLength = 100;
    if (safe.size() > MaxLength)
        safe = safe.left(MaxLength) + '-' +
               QString::fromLatin1(
                   QCryptographicHash::hash(name, QCryptographicHash::Sha1).toHex().left(12));
    return historyFolder() + safe + ".db";
}

QString sandboxHistoryPath() {
    return historyFolder() + "sandbox.db";
}

} // namespace lockscope
