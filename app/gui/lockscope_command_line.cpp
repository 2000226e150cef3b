#include "app/gui/lockscope_command_line.h"

#include "app/core/connection_options.h"
#include "app/core/history_bound.h"
#include "app/core/key_text.h"
#include "app/gui/program_versions.h"

#include <QCoreApplication>
#include <cstdio>
#include <cstdlib>

namespace lockscope {

LockscopeCommandLine::LockscopeCommandLine()
    : helpOption_(parser_.addHelpOption())
    , versionOption_(parser_.addVersionOption())
    , sandboxOption_("sandbox",
                     QCoreApplication::translate(
                         "LockscopeCommandLine",
                         "Start a throwaway etcd and connect to it (the default when no endpoints "
                         "are given; stopped and deleted on exit). --sandbox=3 starts a 3-member "
                         "cluster whose members the Sandbox menu stops and restarts."))
    , etcdOption_(
          "etcd",
          QCoreApplication::translate("LockscopeCommandLine", "The etcd program for the sandbox."),
          QCoreApplication::translate("LockscopeCommandLine", "program"), "etcd")
    , noLabOption_("no-lab", QCoreApplication::translate(
                                 "LockscopeCommandLine",
                                 "On the sandbox, do not start the contention lab's demo workers."))
    , prefixOption_("prefix",
                    QCoreApplication::translate(
                        "LockscopeCommandLine",
                        "Show the locks under this key prefix from the start (\\xNN for a byte "
                        "text cannot hold, \\\\ for a backslash). On a sandbox the lab's demo "
                        "workers then do not start."),
                    QCoreApplication::translate("LockscopeCommandLine", "prefix"))
    , readOnlyOption_("read-only", QCoreApplication::translate("LockscopeCommandLine",
                                                               "Hide every action that writes."))
    , historyOption_("history",
                     QCoreApplication::translate(
                         "LockscopeCommandLine",
                         "Replay a recorded lock history (a file that lockscopectl record or the "
                         "exporter's --record wrote, or a postgresql:// URL) instead of "
                         "connecting: its events on a time scrubber, the locks as they stood."),
                     QCoreApplication::translate("LockscopeCommandLine", "file|url"))
    , sinceOption_("since",
                   QCoreApplication::translate(
                       "LockscopeCommandLine",
                       "With --history: replay from this time (ISO 8601, UTC unless it names its "
                       "offset) or revision on; only that part of the recording is read."),
                   QCoreApplication::translate("LockscopeCommandLine", "time|revision"))
    , untilOption_(
          "until",
          QCoreApplication::translate("LockscopeCommandLine",
                                      "With --history: replay up to this time or revision."),
          QCoreApplication::translate("LockscopeCommandLine", "time|revision"))
    , debugOption_("debug",
                   QCoreApplication::translate("LockscopeCommandLine",
                                               "Also print gRPC's own log lines to stderr.")) {
    parser_.setApplicationDescription(QCoreApplication::translate(
        "LockscopeCommandLine",
        "Inspect etcd v3 locks. Connection flags and the ETCDCTL_* environment variables are "
        "those of etcdctl. With no endpoints (neither --endpoints nor ETCDCTL_ENDPOINTS), "
        "LockScope starts a sandbox etcd of its own."));
    ConnectionOptions::addFlags(
        parser_, QCoreApplication::translate("LockscopeCommandLine",
                                             "none: LockScope starts a sandbox etcd of its own"));
    parser_.addOptions({sandboxOption_, etcdOption_, noLabOption_, prefixOption_, readOnlyOption_,
                        historyOption_, sinceOption_, untilOption_, debugOption_});
}

bool LockscopeCommandLine::parse(const QStringList& arguments) {
    // --sandbox=N asks for an N-member sandbox; --sandbox alone for one member. The parser
    // sees a plain --sandbox either way.
    QStringList plain;
    sandboxMembers_ = 1;
    for (const QString& argument : arguments) {
        if (argument.startsWith("--sandbox=")) {
            bool ok = false;
            sandboxMembers_ = argument.mid(10).toInt(&ok);
            if (!ok || sandboxMembers_ < 1 || sandboxMembers_ > 7) {
                error_ = QCoreApplication::translate(
                    "LockscopeCommandLine", "--sandbox=N takes a member count from 1 to 7");
                return false;
            }
            plain << "--sandbox";
        } else {
            plain << argument;
        }
    }
    arguments_ = plain;
    if (!parser_.parse(plain)) {
        error_ = parser_.errorText();
        return false;
    }
    if (parser_.isSet(sandboxOption_) && parser_.isSet("endpoints")) {
        error_ = QCoreApplication::translate("LockscopeCommandLine",
                                             "give either --sandbox or --endpoints, not both");
        return false;
    }
    for (const QCommandLineOption* bound : {&sinceOption_, &untilOption_}) {
        if (!parser_.isSet(*bound))
            continue;
        std::optional<int64_t> revision;
        std::optional<std::chrono::system_clock::time_point> time;
        if (!parser_.isSet(historyOption_)) {
            error_ = QCoreApplication::translate("LockscopeCommandLine",
                                                 "--%1 goes with --history: it names a span of "
                                                 "a recording to replay")
                         .arg(bound->names().constFirst());
            return false;
        }
        if (!readHistoryBound(parser_.value(*bound), revision, time)) {
            error_ = QCoreApplication::translate(
                         "LockscopeCommandLine",
                         "--%1 %2: give a revision (a whole number) or an ISO 8601 time, such as "
                         "2026-11-27T03:10:00Z")
                         .arg(bound->names().constFirst(), parser_.value(*bound));
            return false;
        }
    }
    std::string problem;
    if (parser_.isSet(prefixOption_) &&
        !parseKeyText(parser_.value(prefixOption_).toStdString(), problem)) {
        error_ = QCoreApplication::translate("LockscopeCommandLine", "--prefix: %1")
                     .arg(QString::fromStdString(problem));
        return false;
    }
    return true;
}

bool LockscopeCommandLine::asksForText() const {
    return parser_.isSet(helpOption_) || parser_.isSet("help-all") || parser_.isSet(versionOption_);
}

void LockscopeCommandLine::printText() {
    if (parser_.isSet(versionOption_)) {
        std::fputs(qPrintable(ProgramVersions::current().text()), stdout);
        std::exit(0);
    }
    parser_.process(arguments_); // prints --help or --help-all (with Qt's options) and exits
    std::exit(0);
}

std::optional<QString> LockscopeCommandLine::history() const {
    if (!parser_.isSet(historyOption_))
        return std::nullopt;
    return parser_.value(historyOption_);
}

LockHistoryStore::Filter LockscopeCommandLine::historySpan() const {
    LockHistoryStore::Filter span;
    if (parser_.isSet(sinceOption_))
        readHistoryBound(parser_.value(sinceOption_), span.sinceRevision, span.since);
    if (parser_.isSet(untilOption_))
        readHistoryBound(parser_.value(untilOption_), span.untilRevision, span.until);
    return span;
}

bool LockscopeCommandLine::sandboxAsked() const {
    return parser_.isSet(sandboxOption_);
}

QString LockscopeCommandLine::etcdProgram() const {
    return parser_.value(etcdOption_);
}

bool LockscopeCommandLine::noLab() const {
    return parser_.isSet(noLabOption_);
}

std::optional<QString> LockscopeCommandLine::prefix() const {
    if (!parser_.isSet(prefixOption_))
        return std::nullopt;
    return parser_.value(prefixOption_);
}

bool LockscopeCommandLine::readOnly() const {
    return parser_.isSet(readOnlyOption_);
}

bool LockscopeCommandLine::debug() const {
    return parser_.isSet(debugOption_);
}

std::optional<ConnectionOptions>
LockscopeCommandLine::connection(const QProcessEnvironment& environment, QString& error) const {
    // No terminal prompt: the window asks for a missing password (and may find it in the
    // keyring), also when LockScope was started from a desktop menu.
    return ConnectionOptions::read(parser_, environment, nullptr, error);
}

} // namespace lockscope
