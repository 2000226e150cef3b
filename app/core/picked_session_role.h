#pragma once

#include <Qt>

namespace lockscope {

// The role the lock models answer true for on the rows of the session picked on the Blockers
// page (LockWatch::pickSession), for the views to mark them (PlainTextDelegate::setMarkRole).
inline constexpr int PickedSessionRole = Qt::UserRole + 16;

} // namespace lockscope
