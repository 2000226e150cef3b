#pragma once

#include <QObject>

namespace lockscope {

// The count on LockScope's taskbar or dock entry: the clusters with a problem standing, so a
// stuck cluster shows while the window is hidden. Sent as the launcher API's Update signal on
// the session bus (com.canonical.Unity.LauncherEntry, which KDE Plasma's task manager and
// dock launchers read); without a session bus nothing is sent. 0 hides the badge.
class TaskbarBadge : public QObject {
    Q_OBJECT
public:
    static constexpr const char* DesktopEntry = "application://lockscope.desktop";

    using QObject::QObject;

    // Sent when it changes.
    void setCount(int count);

private:
    int count_ = 0;
};

} // namespace lockscope
