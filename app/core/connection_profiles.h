#pragma once

#include "app/core/connection_options.h"
#include "widgets/connection_profile.h"

#include <QList>
#include <optional>

class QSettings;

namespace lockscope {

// Saved profiles live in the desktop's settings (passwords never do); lockscopectl --profile
// reads them there too. ConnectionProfile is a plain value of the connection dialog's
// (widgets/connection_profile.h: QtCore only).
QList<ConnectionProfile> loadProfiles(QSettings& settings);
void saveProfiles(QSettings& settings, const QList<ConnectionProfile>& profiles);

// The profile as etcdctl flags, checked exactly as the command line is (same messages). With a
// user, needsPassword is set: the password is asked when connecting, never kept in a profile.
std::optional<ConnectionOptions> toConnectionOptions(const ConnectionProfile& profile,
                                                     QString& error);

// The profile that reproduces the current command-line connection, for the dialog to start from.
ConnectionProfile profileOf(const etcd::ClientOptions& options);

} // namespace lockscope
