#include "widgets/export_path.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

namespace lockscope {

namespace {
const char* const FolderSetting = "export/folder";
} // namespace

QString defaultExportPath(const QString& title, const QString& suffix) {
    QString folder = QSettings().value(FolderSetting).toString();
    // A folder that is gone (or a Documents never made) would have the file dialog complain.
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QDir::homePath();
    QString name = title.section(QRegularExpression("\\s*[(（]"), 0, 0);
    name.replace(QRegularExpression(R"([/\\:*?"<>|]+)"), "-");
    name = name.trimmed();
    return QDir(folder).filePath("lockscope-" + (name.isEmpty() ? QString("export") : name) +
                                 suffix);
}

void rememberExportFolder(const QString& path) {
    QSettings().setValue(FolderSetting, QFileInfo(path).absolutePath());
}

} // namespace lockscope
