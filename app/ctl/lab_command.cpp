#include "app/ctl/lab_command.h"

#include "app/core/go_duration.h"
#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/core/termination_signals.h"
#include "app/lab/contention_lab.h"
#include "etcdclient/blocking.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>
#include <cstdio>

namespace lockscope {

namespace {

std::string reportJson(const lab::LabReport& r) {
    JsonWriter json;
    const auto& c = r.counters;
    json.beginObject()
        .key("seconds")
        .value(r.seconds)
        .key("acquisitions")
        .value(c.acquisitions)
        .key("acquisitions_per_second")
        .value(r.acquisitionsPerSecond)
        .key("stalls")
        .value(c.stalls)
        .key("crashes")
        .value(c.crashes)
        .key("slow_holds")
        .value(c.slowHolds)
        .key("writes_applied")
        .value(c.writesApplied)
        .key("writes_rejected_by_fencing")
        .value(c.writesRejectedByFencing)
        .key("writes_without_lock")
        .value(c.writesWithoutLock)
        .key("overlaps_found")
        .value(static_cast<int64_t>(r.overlapsFound))
        .key("holders_overlapped_by_successors")
        .value(static_cast<int64_t>(r.outlivingHolds))
        .key("overlaps")
        .beginArray();
    for (std::size_t i = 0; i < r.overlaps.size(); ++i) {
        const auto& o = r.overlaps[i];
        json.beginObject()
            .bytesField("lock", o.lock)
            .key("lasted_ms")
            .value(static_cast<int64_t>(o.lasted.count()));
        for (const auto& [name, hold] : {std::pair{"first", &o.first}, {"second", &o.second}})
            json.key(name)
                .beginObject()
                .key("worker")
                .value(static_cast<int64_t>(hold->worker))
                .bytesField("key", hold->key)
                .key("fencing_token")
                .value(hold->fencingToken)
                .endObject();
        json.key("etcd_ended_first_hold");
        if (const auto& end = r.ends[i])
            json.beginObject()
                .key("how")
                .value(end->how)
                .key("revision")
                .value(end->revision)
                .endObject();
        else
            json.null();
        json.endObject();
    }
    json.endArray().endObject();
    return json.text();
}

void printReport(const lab::LabReport& r) {
    const auto& c = r.counters;
    QString text =
        QCoreApplication::translate("lockscopectl", "%1 acquisitions in %2 s (%3/s); chaos: %4 "
                                                    "stalls, %5 crashes, %6 slow holds\n")
            .arg(c.acquisitions)
            .arg(r.seconds, 0, 'f', 1)
            .arg(r.acquisitionsPerSecond, 0, 'f', 1)
            .arg(c.stalls)
            .arg(c.crashes)
            .arg(c.slowHolds);
    text += QCoreApplication::translate("lockscopectl", "resource writes: %1 applied, %2 rejected "
                                                        "by fencing, %3 landed without the lock\n")
                .arg(c.writesApplied)
                .arg(c.writesRejectedByFencing)
                .arg(c.writesWithoutLock);
    text += QCoreApplication::translate("lockscopectl",
                                        "split brains: %1 overlapping pairs of holds, from %2 "
                                        "holders that held on after another took over\n")
                .arg(r.overlapsFound)
                .arg(r.outlivingHolds);
    for (std::size_t i = 0; i < r.overlaps.size() && i < 20; ++i) {
        const auto& o = r.overlaps[i];
        // etcd's own verb for the end (the key was deleted, the lease expired) stays as etcd says.
        const QString etcdSays =
            r.ends[i] ? QCoreApplication::translate("lockscopectl", "etcd %1 it at revision %2")
                            .arg(QString::fromStdString(r.ends[i]->how))
                            .arg(r.ends[i]->revision)
                      : QCoreApplication::translate(
                            "lockscopectl", "etcd's history does not show the first hold ending");
        text += QCoreApplication::translate("lockscopectl", "  %1: worker %2 (token %3) and worker "
                                                            "%4 (token %5) both held it for %6 "
                                                            "ms; %7\n")
                    .arg(QString::fromStdString(displayKey(o.lock)))
                    .arg(o.first.worker)
                    .arg(o.first.fencingToken)
                    .arg(o.second.worker)
                    .arg(o.second.fencingToken)
                    .arg(o.lasted.count())
                    .arg(etcdSays);
    }
    std::fputs(qPrintable(text), stdout);
}

} // namespace

int runLabCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("lockscopectl", "Run the contention lab: workers contending "
                                                    "on locks with chaos, then report split "
                                                    "brains and the fencing demo."));
    const QCommandLineOption workers(
        "workers", QCoreApplication::translate("lockscopectl", "Workers, 1 to 200."), "n", "10");
    const QCommandLineOption locks(
        "locks",
        QCoreApplication::translate("lockscopectl", "Comma-separated lock names (\\xNN is a byte, "
                                                    "\\x2c a comma, \\\\ a backslash)."),
        "names", "/lockscope-lab/lock");
    const QCommandLineOption hold(
        "hold", QCoreApplication::translate("lockscopectl", "How long each hold lasts."),
        "duration", "100ms");
    const QCommandLineOption think(
        "think", QCoreApplication::translate("lockscopectl", "Pause between attempts."), "duration",
        "50ms");
    const QCommandLineOption ttl(
        "ttl", QCoreApplication::translate("lockscopectl", "Session TTL in seconds."), "seconds",
        "2");
    const QCommandLineOption stall(
        "stall",
        QCoreApplication::translate("lockscopectl", "Probability a hold stalls past its TTL."), "p",
        "0");
    const QCommandLineOption crash(
        "crash", QCoreApplication::translate("lockscopectl", "Probability a holder crashes."), "p",
        "0");
    const QCommandLineOption slow(
        "slow",
        QCoreApplication::translate("lockscopectl", "Probability a hold is five times longer."),
        "p", "0");
    const QCommandLineOption noFencing(
        "no-fencing",
        QCoreApplication::translate("lockscopectl", "Write the resource without the guard."));
    const QCommandLineOption deadlock(
        "deadlock",
        QCoreApplication::translate("lockscopectl",
                                    "Each worker holds its lock and then takes the next one in "
                                    "--locks on the same session: with a worker per lock, a real "
                                    "deadlock (see lockscopectl blockers)."));
    const QCommandLineOption duration(
        "duration", QCoreApplication::translate("lockscopectl", "How long to run."), "duration",
        "10s");
    const QCommandLineOption json(
        "json", QCoreApplication::translate("lockscopectl", "Print the report as JSON."));
    const QCommandLineOption help({"h", "help"},
                                  QCoreApplication::translate("lockscopectl", "Show this help."));
    parser.addOptions({workers, locks, hold, think, ttl, stall, crash, slow, noFencing, deadlock,
                       duration, json, help});
    auto fail = [](const QString& problem) { return usageProblem("lab", problem); };
    if (const auto done = parseCommandLine(parser, arguments, help,
                                           "lockscopectl [connection flags] lab [options]"))
        return *done;
    lab::LabOptions options;
    // A value that does not parse is said with its flag; one out of range, by the lab's own
    // check (LabOptions::problem). The first problem found is said.
    QString problem;
    auto refuse = [&](const QCommandLineOption& option, const QString& wanted) {
        if (problem.isEmpty())
            problem = QCoreApplication::translate("lockscopectl", "--%1: \"%2\" is not %3")
                          .arg(option.names().constFirst(), parser.value(option), wanted);
    };
    bool ok = false;
    options.workers = parser.value(workers).toInt(&ok);
    if (!ok)
        refuse(workers, QCoreApplication::translate("lockscopectl", "a number"));
    options.locks.clear();
    for (const auto& text : parser.value(locks).split(',', Qt::SkipEmptyParts)) {
        std::string why;
        const auto name = parseKeyText(argumentBytes(text), why);
        if (!name)
            return fail(QCoreApplication::translate("lockscopectl", "--locks: %1")
                            .arg(QString::fromStdString(why)));
        options.locks.push_back(*name);
    }
    auto durationOf = [&](const QCommandLineOption& option) {
        const auto value = parseGoDuration(parser.value(option));
        if (!value)
            refuse(option,
                   QCoreApplication::translate("lockscopectl", "a duration like 100ms or 30s"));
        return value.value_or(std::chrono::milliseconds(0));
    };
    options.hold = durationOf(hold);
    options.think = durationOf(think);
    const std::chrono::milliseconds runTime = durationOf(duration);
    options.ttlSeconds = parser.value(ttl).toLongLong(&ok);
    if (!ok)
        refuse(ttl, QCoreApplication::translate("lockscopectl", "whole seconds"));
    for (const auto& [option, probability] : {std::pair{&stall, &options.stallProbability},
                                              {&crash, &options.crashProbability},
                                              {&slow, &options.slowProbability}}) {
        *probability = parser.value(*option).toDouble(&ok);
        if (!ok)
            refuse(*option, QCoreApplication::translate("lockscopectl", "a number from 0 to 1"));
    }
    options.fencing = !parser.isSet(noFencing);
    options.deadlock = parser.isSet(deadlock);
    if (problem.isEmpty())
        problem = QString::fromStdString(options.problem());
    if (!problem.isEmpty())
        return fail(problem);

    int exitCode = ExitOk;
    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    // A cluster that does not answer (or refuses us) is an error, not a run of 0 acquisitions.
    etcd::pb::RangeRequest probe;
    probe.set_key(options.resourceKey);
    probe.set_count_only(true);
    if (auto reached = etcd::call(*client, &etcd::Client::range, probe); !reached) {
        std::fputs(qPrintable(QCoreApplication::translate("lockscopectl",
                                                          "lockscopectl lab: cannot start: %1\n")
                                  .arg(QString::fromStdString(reached.error().message))),
                   stderr);
        return ExitFailed;
    }
    TerminationSignals termination; // Ctrl-C ends the run early; the report still comes
    auto contention = lab::ContentionLab::create(*client, options);
    contention->start();
    QTimer::singleShot(runTime, QCoreApplication::instance(), &QCoreApplication::quit);
    QCoreApplication::exec();
    etcd::waitFor<void>([&](auto stopped) { contention->stop(std::move(stopped)); });
    const auto report = contention->report();
    if (parser.isSet(json))
        std::printf("%s\n", reportJson(report).c_str());
    else
        printReport(report);
    return ExitOk;
}

} // namespace lockscope
