#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace lockscope {

// QSettings for a GUI test: Qt's test locations, never the user's window geometry, prefixes or
// language, under `organization`, emptied first (with the data folder: the key times seen of
// earlier runs' clusters) so that every run starts as on a new machine.
inline void useFreshTestSettings(const char* organization = "LockScopeTest") {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(organization);
    QSettings().clear();
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
}

} // namespace lockscope
