#include "app/gui/taskbar_badge.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QVariantMap>

namespace lockscope {

void TaskbarBadge::setCount(int count) {
    if (count == count_)
        return;
    count_ = count;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return;
    // The path only has to be this process's own; launchers match on the desktop entry.
    QDBusMessage update = QDBusMessage::createSignal(
        QStringLiteral("/com/canonical/unity/launcherentry/%1")
            .arg(QCoreApplication::applicationPid()),
        QStringLiteral("com.canonical.Unity.LauncherEntry"), QStringLiteral("Update"));
    update << QString::fromLatin1(DesktopEntry)
           << QVariantMap{{QStringLiteral("count"), static_cast<qint64>(count)},
                          {QStringLiteral("count-visible"), count > 0}};
    bus.send(update);
}

} // namespace lockscope
