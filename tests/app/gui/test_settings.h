#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>

namespace lockscope {

// QSettings for a GUI test: Qt's test locations, never the user's window geometry, prefixes or
// language, under `organization`, emptied first so that every run starts as on a new machine.
inline void useFreshTestSettings(const char* organization = "LockScopeTest") {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(organization);
    QSettings().clear();
}

} // namespace lockscope
