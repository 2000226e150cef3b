#include "app/ctl/history_command.h"

#include "app/core/history_bound.h"
#include "app/core/history_location.h"
#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_history_report.h"
#include "app/core/lock_history_store.h"
#include "app/core/lock_json.h"
#include "app/core/lossless_arguments.h"
#include "app/core/stored_replay.h"
#include "app/ctl/lock_state_output.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

namespace {

std::string gapLine(const HistoryGap& gap) {
    return isoTime(gap.since) + " .. " + isoTime(gap.until) + "  gap: " + gap.reason +
           "; the state re-read at rev " + std::to_string(gap.revision);
}

std::string gapJson(const HistoryGap& gap) {
    JsonWriter json;
    json.beginObject()
        .key("event")
        .value("gap")
        .key("since")
        .value(isoTime(gap.since))
        .key("until")
        .value(isoTime(gap.until))
        .key("revision")
        .value(gap.revision)
        .key("reason")
        .value(gap.reason)
        .endObject();
    return json.text();
}

// "anomaly appeared" or "anomaly went", then its kind, lock, key and detail: the words of
// lockscopectl's own (English) output, as an event's kind is.
std::string anomalyLine(const HistoryAnomaly& anomaly) {
    const etcd::AnomalyChange& change = anomaly.change;
    return isoTime(anomaly.at) + "  anomaly " + (change.appeared ? "appeared" : "went") + "  " +
           etcd::anomalyKindName(change.anomaly.kind) + "  " + displayKey(change.lock) + "  " +
           displayKey(change.anomaly.key) + "  rev " + std::to_string(anomaly.revision) + "  " +
           change.anomaly.detail;
}

std::string anomalyJson(const HistoryAnomaly& anomaly) {
    const etcd::AnomalyChange& change = anomaly.change;
    JsonWriter json;
    json.beginObject()
        .key("event")
        .value(change.appeared ? "anomaly_appeared" : "anomaly_went")
        .bytesField("lock", change.lock)
        .bytesField("key", change.anomaly.key)
        .key("kind")
        .value(etcd::anomalyKindName(change.anomaly.kind))
        .key("detail")
        .value(change.anomaly.detail)
        .key("revision")
        .value(anomaly.revision)
        .key("observed_at")
        .value(isoTime(anomaly.at))
        .endObject();
    return json.text();
}

std::string eventLine(const etcd::LockEvent& event) {
    return lockEventLine(event) + "  created rev " + std::to_string(event.createRevision);
}

void spreadJson(JsonWriter& json, const char* name, const LockHistoryReport::Spread& spread) {
    json.key(name)
        .beginObject()
        .key("count")
        .value(static_cast<int64_t>(spread.count))
        .key("p50_ms")
        .value(static_cast<int64_t>(spread.p50.count()))
        .key("p99_ms")
        .value(static_cast<int64_t>(spread.p99.count()))
        .key("max_ms")
        .value(static_cast<int64_t>(spread.max.count()))
        .endObject();
}

std::string reportJson(const LockHistoryReport& report) {
    JsonWriter json;
    json.beginObject().key("gaps").value(static_cast<int64_t>(report.gaps()));
    json.key("locks").beginArray();
    for (const auto& lock : report.locks()) {
        json.beginObject()
            .bytesField("lock", lock.name)
            .key("recipe")
            .value(etcd::queueKindName(lock.recipe))
            .key("acquisitions")
            .value(static_cast<int64_t>(lock.acquisitions));
        spreadJson(json, "holds", lock.holds);
        spreadJson(json, "waits", lock.waits);
        json.key("bounds")
            .value(static_cast<int64_t>(lock.bounds))
            .key("expiries")
            .value(static_cast<int64_t>(lock.expiries))
            .key("losses")
            .value(static_cast<int64_t>(lock.losses))
            .key("force_releases")
            .value(static_cast<int64_t>(lock.forceReleases))
            .key("longest_waits")
            .beginArray();
        for (const auto& wait : lock.longestWaits) {
            json.beginObject()
                .bytesField("key", wait.key)
                .key("lease")
                .value(wait.lease)
                .key("waited_ms")
                .value(static_cast<int64_t>(wait.waited.count()))
                .key("at_least")
                .value(wait.atLeast)
                .key("revision")
                .value(wait.revision)
                .key("acquired_at")
                .value(isoTime(wait.acquiredAt))
                .key("waited_on")
                .beginArray();
            for (const auto& holder : wait.waitedOn)
                json.beginObject().bytesField("key", holder).endObject();
            json.endArray().endObject();
        }
        json.endArray().endObject();
    }
    json.endArray().endObject();
    return json.text();
}

std::string spreadLine(const char* what, const LockHistoryReport::Spread& spread) {
    return std::string("  ") + what + " ms: p50 " + std::to_string(spread.p50.count()) + "  p99 " +
           std::to_string(spread.p99.count()) + "  max " + std::to_string(spread.max.count()) +
           "  (" + std::to_string(spread.count) + ")\n";
}

std::string reportText(const LockHistoryReport& report) {
    std::string text;
    for (const auto& lock : report.locks()) {
        text += displayKey(lock.name) + " (" + etcd::queueKindName(lock.recipe) + ")\n";
        text += "  acquisitions " + std::to_string(lock.acquisitions) + "  expiries " +
                std::to_string(lock.expiries) + "  losses " + std::to_string(lock.losses) +
                "  force releases " + std::to_string(lock.forceReleases) + "\n";
        text += spreadLine("held", lock.holds) + spreadLine("waited", lock.waits);
        if (lock.bounds > 0)
            text += "  " + std::to_string(lock.bounds) +
                    " times left out as bounds (began before recording, or ended in a gap)\n";
        for (const auto& wait : lock.longestWaits) {
            std::string on;
            for (const auto& holder : wait.waitedOn)
                on += (on.empty() ? "" : ", ") + displayKey(holder);
            text += "  longest wait: " + std::string(wait.atLeast ? "≥ " : "") +
                    std::to_string(wait.waited.count()) + " ms  " + displayKey(wait.key) +
                    "  acquired " + isoTime(wait.acquiredAt) + " rev " +
                    std::to_string(wait.revision) + "  behind " + (on.empty() ? "?" : on) + "\n";
        }
    }
    text += std::to_string(report.gaps()) + " gaps in the recording\n";
    return text;
}

// history --at: the locks at one revision or time, replayed from the checkpoint's interval that
// holds it (a day's recording is not read whole for one moment).
int printLocksAt(LockHistoryStore& store, std::optional<int64_t> revision,
                 std::optional<std::chrono::system_clock::time_point> time, bool json) {
    const StoredReplay replay =
        revision ? replayStoredAt(store, *revision) : replayStoredAt(store, *time);
    if (!replay.read) {
        say(store.error());
        return ExitFailed;
    }
    if (!replay.locks) {
        say(!replay.first
                ? QCoreApplication::translate("lockscopectl", "the recording holds no state yet")
                : QCoreApplication::translate("lockscopectl",
                                              "the recording began later, at revision %1 (%2): "
                                              "nothing is known of the locks before")
                      .arg(replay.first->revision)
                      .arg(QString::fromStdString(isoTime(replay.first->at))));
        return ExitFailed;
    }
    if (replay.locks->inGap)
        say(QCoreApplication::translate("lockscopectl",
                                        "revision %1 falls in a gap of the recording (%2): the "
                                        "locks are as last seen before it")
                .arg(replay.locks->revision)
                .arg(QString::fromStdString(replay.locks->inGap->reason)));
    printLockState(replay.locks->state(), store.prefix(), json);
    return ExitOk;
}

} // namespace

int runHistoryCommand(const QStringList& arguments, const ConnectionOptions&) {
    const QString usage = "lockscopectl [connection flags] history FILE|URL [--source ID] "
                          "[--lock NAME] [--since T] [--until T] [--json] [--report | --at T]";
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "lockscopectl",
        "List the lock events and gaps recorded in FILE or in a PostgreSQL database (URL, "
        "postgresql://user[:password]@host[:port]/dbname, the password perhaps in PGPASSWORD) "
        "by lockscopectl record, or with --report, per lock: acquisitions, hold and wait "
        "times (p50, p99, max, in ms), expiries, losses and the longest waits with the holders "
        "they waited behind. T is a revision (a whole number) or an ISO 8601 time, UTC unless "
        "it names its offset (2026-11-27T03:10:00Z); both ends are included. Reads only; exit "
        "code 1 when it cannot be read (missing, damaged, of a newer LockScope, the server "
        "unreachable or refusing the password, holding several sources and no --source)."));
    const QCommandLineOption helpOption(
        {"h", "help"}, QCoreApplication::translate("lockscopectl", "Show this help."));
    const QCommandLineOption jsonOption(
        "json", QCoreApplication::translate("lockscopectl", "Print JSON instead of text."));
    const QCommandLineOption reportOption(
        "report",
        QCoreApplication::translate("lockscopectl",
                                    "Print per lock what the events say, instead of the events."));
    const QCommandLineOption lockOption(
        "lock",
        QCoreApplication::translate(
            "lockscopectl", "Only this lock's events (its name, as listed; \\xNN is a byte)."),
        "NAME");
    const QCommandLineOption sinceOption(
        "since", QCoreApplication::translate("lockscopectl", "From this revision or time on."),
        "T");
    const QCommandLineOption untilOption(
        "until", QCoreApplication::translate("lockscopectl", "Up to this revision or time."), "T");
    const QCommandLineOption atOption(
        "at",
        QCoreApplication::translate(
            "lockscopectl",
            "Instead of events, every lock as it stood at T, replayed from the recording and "
            "printed as snapshot prints them (without TTLs and values, which a recording does "
            "not keep). Not with --report, --lock, --since or --until."),
        "T");
    const QCommandLineOption sourceOption(
        "source",
        QCoreApplication::translate("lockscopectl",
                                    "Which recording to read when several recorders (other "
                                    "prefixes or clusters) share the store: its number, as the "
                                    "message listing them says."),
        "ID");
    parser.addOptions({jsonOption, reportOption, atOption, sourceOption, lockOption, sinceOption,
                       untilOption, helpOption});
    parser.addPositionalArgument(
        "file", QCoreApplication::translate("lockscopectl",
                                            "The recording (lockscopectl record --to FILE|URL)."));
    if (const auto done = parseCommandLine(parser, arguments, helpOption, usage))
        return *done;
    const QStringList positional = parser.positionalArguments();
    const QString command = arguments.constFirst();
    if (positional.size() != 1)
        return usageProblem(
            command, QCoreApplication::translate(
                         "lockscopectl", "one FILE or URL is needed, the recording to read"));
    std::optional<int64_t> source;
    if (parser.isSet(sourceOption)) {
        bool ok = false;
        source = parser.value(sourceOption).toLongLong(&ok);
        if (!ok || *source < 1)
            return usageProblem(command, QCoreApplication::translate(
                                             "lockscopectl", "--source wants a recording's number, "
                                                             "like 2, not \"%1\"")
                                             .arg(parser.value(sourceOption)));
    }
    LockHistoryStore::Filter filter;
    if (parser.isSet(lockOption)) {
        std::string why;
        filter.lock = parseKeyText(argumentBytes(parser.value(lockOption)), why);
        if (!filter.lock)
            return usageProblem(command, QCoreApplication::translate("lockscopectl", "--lock: %1")
                                             .arg(QString::fromStdString(why)));
    }
    const auto badBound = [&](const QCommandLineOption& option, std::optional<int64_t>& revision,
                              std::optional<std::chrono::system_clock::time_point>& time) {
        return parser.isSet(option) && !readHistoryBound(parser.value(option), revision, time);
    };
    for (const auto* option : {&sinceOption, &untilOption})
        if (option == &sinceOption ? badBound(*option, filter.sinceRevision, filter.since)
                                   : badBound(*option, filter.untilRevision, filter.until))
            return usageProblem(
                command, QCoreApplication::translate(
                             "lockscopectl", "--%1 wants a revision or an ISO 8601 time like "
                                             "2026-11-27T03:10:00Z, not \"%2\"")
                             .arg(option->names().constFirst(), parser.value(*option)));
    std::optional<int64_t> atRevision;
    std::optional<std::chrono::system_clock::time_point> atTime;
    if (parser.isSet(atOption)) {
        if (!readHistoryBound(parser.value(atOption), atRevision, atTime))
            return usageProblem(command, QCoreApplication::translate(
                                             "lockscopectl", "--at wants a revision or an ISO "
                                                             "8601 time like 2026-11-27T03:10:00Z, "
                                                             "not \"%1\"")
                                             .arg(parser.value(atOption)));
        for (const auto* other : {&reportOption, &lockOption, &sinceOption, &untilOption})
            if (parser.isSet(*other))
                return usageProblem(command, QCoreApplication::translate(
                                                 "lockscopectl",
                                                 "--at prints every lock at one moment: leave "
                                                 "out --%1")
                                                 .arg(other->names().constFirst()));
    }
    QString problem;
    if (!HistoryLocation::parse(positional.first(), problem))
        return usageProblem(command, problem);
    const auto store = LockHistoryStore::openForReading(positional.first(), problem, source);
    if (store && parser.isSet(atOption))
        return printLocksAt(*store, atRevision, atTime, parser.isSet(jsonOption));
    if (!store) {
        say(problem);
        return ExitFailed;
    }
    // Read as they come, never held whole: a day of a busy prefix is tens of millions.
    const bool json = parser.isSet(jsonOption);
    const bool report = parser.isSet(reportOption);
    LockHistoryReport::Builder reportBuilder;
    const bool read = store->readEntries(filter, [&](int64_t, HistoryEntry&& entry) {
        if (report) {
            reportBuilder.add(entry);
            return;
        }
        const std::string line = std::visit(
            [json](const auto& item) -> std::string {
                using Item = std::decay_t<decltype(item)>;
                if constexpr (std::is_same_v<Item, HistoryGap>)
                    return json ? gapJson(item) : gapLine(item);
                else if constexpr (std::is_same_v<Item, HistoryAnomaly>)
                    return json ? anomalyJson(item) : anomalyLine(item);
                else
                    return json ? lockEventJson(item) : eventLine(item);
            },
            entry);
        std::printf("%s\n", line.c_str());
    });
    if (!read) {
        std::fflush(stdout);
        say(store->error());
        return ExitFailed;
    }
    if (report) {
        const LockHistoryReport built = reportBuilder.finish();
        std::fputs(json ? (reportJson(built) + "\n").c_str() : reportText(built).c_str(), stdout);
    }
    return ExitOk;
}

} // namespace lockscope
