#pragma once

#include "app/core/lock_history_store.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>

class QProcessEnvironment;

namespace lockscope {

struct ConnectionOptions;

// The options of `lockscope`, defined once. They are parsed before any QApplication exists, so
// --help and --version answer without a display (a QApplication aborts without one), and again
// once QApplication has taken its own options (-platform, -style ...) out of the arguments.
class LockscopeCommandLine {
public:
    LockscopeCommandLine();

    // False with errorText() set (what was wrong) for a usage error.
    bool parse(const QStringList& arguments);
    QString errorText() const { return error_; }

    // --help, --help-all or --version: the answer is text alone, printed by printText().
    bool asksForText() const;
    // Prints the help or the versions to stdout and exits with status 0. Needs a
    // QCoreApplication (for the program's name in the usage line), never a display.
    [[noreturn]] void printText();

    bool sandboxAsked() const; // --sandbox; no endpoints at all also means a sandbox
    int sandboxMembers() const { return sandboxMembers_; }
    QString etcdProgram() const;
    bool noLab() const;
    // --prefix as typed (escapes checked by parse()); std::nullopt when not given.
    std::optional<QString> prefix() const;
    bool readOnly() const;
    // --history: a recording to replay instead of connecting; --since and --until, the span of
    // it to read (checked by parse()).
    std::optional<QString> history() const;
    LockHistoryStore::Filter historySpan() const;
    bool debug() const;
    // The connection flags and ETCDCTL_* variables; std::nullopt with `error` set when wrong.
    std::optional<ConnectionOptions> connection(const QProcessEnvironment& environment,
                                                QString& error) const;

private:
    QCommandLineParser parser_;
    QCommandLineOption helpOption_;
    QCommandLineOption versionOption_;
    QCommandLineOption sandboxOption_;
    QCommandLineOption etcdOption_;
    QCommandLineOption noLabOption_;
    QCommandLineOption prefixOption_;
    QCommandLineOption readOnlyOption_;
    QCommandLineOption historyOption_;
    QCommandLineOption sinceOption_;
    QCommandLineOption untilOption_;
    QCommandLineOption debugOption_;
    QStringList arguments_; // as parsed: --sandbox=N is --sandbox
    int sandboxMembers_ = 1;
    QString error_;
};

} // namespace lockscope
