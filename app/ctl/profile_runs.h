#pragma once

#include "app/ctl/ctl_command.h"

#include <QCommandLineOption>
#include <QStringList>

class QCommandLineParser;

namespace lockscope {

// --profile NAME: connect as the desktop's saved connection profile NAME (repeatable).
QCommandLineOption profileOption();

// Runs `command` once per profile named in `parser`'s --profile options, each on the cluster
// its saved profile names (a user's password asked on the terminal), each run's output after a
// line naming the profile (a JSON line with --json); a command that serves several clusters in
// one run (the exporter) runs once with them all. Several profiles are for those and for the
// commands that read one moment of a cluster (status, snapshot); connection flags do not go
// with a profile.
// The exit code is the worst of the runs'.
int runOnProfiles(const CtlCommand& command, const QStringList& arguments,
                  const QCommandLineParser& parser);

} // namespace lockscope
