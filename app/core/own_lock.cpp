#include "app/core/own_lock.h"

#include "app/core/key_text.h"

#include <QCoreApplication>

namespace lockscope {

QString OwnLock::stateName() const {
    if (candidacy) {
        switch (state) {
        case State::Waiting: return QCoreApplication::translate("OwnLock", "campaigning");
        case State::Held: return QCoreApplication::translate("OwnLock", "leading");
        case State::Releasing: return QCoreApplication::translate("OwnLock", "resigning");
        case State::Lost: return QCoreApplication::translate("OwnLock", "lost");
        case State::Released: return QCoreApplication::translate("OwnLock", "resigned");
        case State::Cancelled: return QCoreApplication::translate("OwnLock", "withdrawn");
        case State::NotAcquired: return QCoreApplication::translate("OwnLock", "not elected");
        }
    }
    switch (state) {
    case State::Waiting: return QCoreApplication::translate("OwnLock", "waiting");
    case State::Held: return QCoreApplication::translate("OwnLock", "held");
    case State::Releasing: return QCoreApplication::translate("OwnLock", "releasing");
    case State::Lost: return QCoreApplication::translate("OwnLock", "lost");
    case State::Released: return QCoreApplication::translate("OwnLock", "released");
    case State::Cancelled: return QCoreApplication::translate("OwnLock", "cancelled");
    case State::NotAcquired: return QCoreApplication::translate("OwnLock", "not acquired");
    }
    return {};
}

QString OwnLock::summary() const {
    QString line = QCoreApplication::translate("OwnLock", "Ours: %1 since %2")
                       .arg(stateName(), since.toString("HH:mm:ss"));
    if (candidacy)
        line += QCoreApplication::translate("OwnLock", ", proposing \"%1\"")
                    .arg(displayKeyText(proposal));
    else if (serverLock)
        line += QCoreApplication::translate("OwnLock", " (through etcd's Lock service)");
    if (paused && alive())
        line += QCoreApplication::translate("OwnLock", " (keepalive paused)");
    return detail.isEmpty() ? line : line + QStringLiteral(" — ") + detail;
}

} // namespace lockscope
