#pragma once

#include <QSettings>
#include <QTemporaryDir>

namespace lockscope::bench {

// The settings the windows keep (geometry, recent prefixes) go to a temporary directory, not
// to the user's.
class ScratchSettings {
public:
    ScratchSettings() {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, directory_.path());
    }

private:
    const QTemporaryDir directory_;
};

} // namespace lockscope::bench
