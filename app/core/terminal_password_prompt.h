#pragma once

#include <QString>
#include <optional>
#include <string>

namespace lockscope {

// Asks for `user`'s password on the controlling terminal (/dev/tty) with echo off, as etcdctl
// does ("Password: "), so standard input and output stay the command's own. Without a terminal,
// or when the input ends before a line, std::nullopt with `error` saying how else to give it.
std::optional<std::string> askPasswordOnTerminal(const QString& user, QString& error);

} // namespace lockscope
