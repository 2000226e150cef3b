#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <string>

namespace lockscope {

// The arguments of a command that takes one PREFIX and an optional --json.
struct PrefixArguments {
    std::string prefix; // exact bytes
    bool json = false;
};

// Parses them; prints help or the problem itself and returns nothing (with the exit code in
// `exitCode`) when the command should not run.
std::optional<PrefixArguments> parsePrefixArguments(const QStringList& arguments,
                                                    const QString& usage, const QString& about,
                                                    int& exitCode);

} // namespace lockscope
