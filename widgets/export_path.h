#pragma once

#include <QString>

namespace lockscope {

// Where an export is offered to go: the folder of the last export, else the user's Documents
// (else home; never the folder LockScope happened to be started from), and a file named after what
// is exported, as the user reads it: "lockscope-Round trip by RPC method.png", not an internal
// object name. `title` is cut before any parenthesis and freed of characters a file name cannot
// hold.
QString defaultExportPath(const QString& title, const QString& suffix);
// Remembers the folder of `path`, written by an export, for the next one.
void rememberExportFolder(const QString& path);

} // namespace lockscope
