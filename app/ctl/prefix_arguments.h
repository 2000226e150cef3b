#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QCommandLineOption>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>

namespace lockscope {

// The arguments of a command that takes one PREFIX, --recipe and, where it prints JSON, --json.
struct PrefixArguments {
    std::string prefix; // exact bytes
    bool json = false;
    etcd::RecipeOverride recipe = etcd::RecipeOverride::Auto;
    QMap<QString, QString> values; // of the command's own options, by name (defaults included)
};

// Whether a command offers --json (the exporter writes the Prometheus text format only).
enum class JsonOutput { Offered, None };

// Parses them, and the command's own `options` that take a value (PREFIX must not be empty);
// prints help or the problem itself and returns nothing (with the exit code in `exitCode`) when the
// command should not run.
std::optional<PrefixArguments> parsePrefixArguments(const QStringList& arguments,
                                                    const QString& usage, const QString& about,
                                                    JsonOutput json, int& exitCode,
                                                    const QList<QCommandLineOption>& options = {});

} // namespace lockscope
