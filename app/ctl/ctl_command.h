#pragma once

#include "app/core/connection_options.h"
#include "etcdclient/client.h"
#include "etcdclient/error.h"

#include <QStringList>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCommandLineOption;
class QCommandLineParser;

namespace lockscope {

// Exit codes shared by every subcommand.
enum ExitCode { ExitOk = 0, ExitFailed = 1, ExitUsage = 2 };

// ExitUsage when what the user gave is wrong (a host that does not resolve, unusable TLS
// files), ExitFailed for everything else.
inline int exitCodeFor(etcd::ErrorCode code) {
    return etcd::isUsageError(code) ? ExitUsage : ExitFailed;
}

// One lockscopectl subcommand. `arguments` start with the subcommand's name, so a command can
// hand them to its own QCommandLineParser; the global connection flags are already read. They
// come from losslessArguments(): argumentBytes() gives an argument's exact bytes, and a lock
// name or prefix is then parseKeyText() of those (so `\xNN` and `\\` escapes work too).
struct CtlCommand {
    // Large: what the command holds grows with a prefix's keys or a recording's events, so it
    // runs on the huge-page heap (process/huge_page_heap.h) and pays a second start-up for it.
    // Small: a short or lean command (a lock taken in a script's loop) starts once.
    enum class Heap { Small, Large };

    const char* name;
    const char* summary;
    Heap heap;
    int (*run)(const QStringList& arguments, const ConnectionOptions& connection);
    // For a command that serves several clusters in one run (several --profile): null for one
    // that runs on one cluster at a time.
    int (*runOnClusters)(const QStringList& arguments,
                         const std::vector<ConnectionOptions>& connections) = nullptr;
};

// The opening every subcommand shares.

// Parses `arguments` into `parser`, which holds `help` among its options. Nothing when the
// command should run; else the exit code, once the help or the problem (usageProblem) is
// printed.
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    const QCommandLineOption& help, const QString& usage);
// A problem with `command`'s arguments, said with where its help is: "lockscopectl <command>:
// <problem>" then "Run 'lockscopectl <command> --help'." on stderr. Gives ExitUsage.
int usageProblem(const QString& command, const QString& problem);
// "lockscopectl: <message>" on stderr.
void say(const QString& message);
void say(const std::string& message);
// Says `error` and gives the exit code it calls for.
int failWith(const etcd::Error& error);
// The client a command talks through; null once failWith() said why, its exit code then in
// `exitCode`.
std::unique_ptr<etcd::Client> connect(const ConnectionOptions& connection, int& exitCode);

} // namespace lockscope
