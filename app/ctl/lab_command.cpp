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
    std::printf("%lld acquisitions in %.1f s (%.1f/s); chaos: %lld stalls, %lld crashes, %lld "
                "slow holds\n",
                static_cast<long long>(c.acquisitions), r.seconds, r.acquisitionsPerSecond,
                static_cast<long long>(c.stalls), static_cast<long long>(c.crashes),
                static_cast<long long>(c.slowHolds));
    std::printf("resource writes: %lld applied, %lld rejected by fencing, %lld landed without "
                "the lock\n",
                static_cast<long long>(c.writesApplied),
                static_cast<long long>(c.writesRejectedByFencing),
                static_cast<long long>(c.writesWithoutLock));
    std::printf("split brains (overlapping holds): %zu\n", r.overlaps.size());
    for (std::size_t i = 0; i < r.overlaps.size() && i < 20; ++i) {
        const auto& o = r.overlaps[i];
        std::string etcdSays = "etcd's history does not show the first hold ending";
        if (const auto& end = r.ends[i])
            etcdSays = "etcd " + end->how + " it at revision " + std::to_string(end->revision);
        std::printf("  %s: worker %d (token %lld) and worker %d (token %lld) both held it for "
                    "%lld ms; %s\n",
                    displayKey(o.lock).c_str(), o.first.worker,
                    static_cast<long long>(o.first.fencingToken), o.second.worker,
                    static_cast<long long>(o.second.fencingToken),
                    static_cast<long long>(o.lasted.count()), etcdSays.c_str());
    }
}

} // namespace

int runLabCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Run the contention lab: workers contending on locks with "
                                     "chaos, then report split brains and the fencing demo.");
    const QCommandLineOption workers("workers", "Workers, 1 to 200.", "n", "10");
    const QCommandLineOption locks("locks",
                                   "Comma-separated lock names (\\xNN is a byte, \\x2c a comma, "
                                   "\\\\ a backslash).",
                                   "names", "/lockscope-lab/lock");
    const QCommandLineOption hold("hold", "How long each hold lasts.", "duration", "100ms");
    const QCommandLineOption think("think", "Pause between attempts.", "duration", "50ms");
    const QCommandLineOption ttl("ttl", "Session TTL in seconds.", "seconds", "2");
    const QCommandLineOption stall("stall", "Probability a hold stalls past its TTL.", "p", "0");
    const QCommandLineOption crash("crash", "Probability a holder crashes.", "p", "0");
    const QCommandLineOption slow("slow", "Probability a hold is five times longer.", "p", "0");
    const QCommandLineOption noFencing("no-fencing", "Write the resource without the guard.");
    const QCommandLineOption duration("duration", "How long to run.", "duration", "10s");
    const QCommandLineOption json("json", "Print the report as JSON.");
    const QCommandLineOption help({"h", "help"}, "Show this help.");
    parser.addOptions(
        {workers, locks, hold, think, ttl, stall, crash, slow, noFencing, duration, json, help});
    auto fail = [](const QString& problem) { return usageProblem("lab", problem); };
    if (const auto done = parseCommandLine(parser, arguments, help,
                                           "lockscopectl [connection flags] lab [options]"))
        return *done;
    lab::LabOptions options;
    bool ok = true;
    options.workers = parser.value(workers).toInt(&ok);
    options.locks.clear();
    for (const auto& text : parser.value(locks).split(',', Qt::SkipEmptyParts)) {
        std::string why;
        const auto name = parseKeyText(argumentBytes(text), why);
        if (!name)
            return fail(QString::fromStdString("--locks: " + why));
        options.locks.push_back(*name);
    }
    const auto holdTime = parseGoDuration(parser.value(hold));
    const auto thinkTime = parseGoDuration(parser.value(think));
    const auto runTime = parseGoDuration(parser.value(duration));
    if (!ok || !holdTime || !thinkTime || !runTime)
        return fail("--workers takes a number; --hold, --think and --duration take durations "
                    "like 100ms or 30s");
    options.hold = *holdTime;
    options.think = *thinkTime;
    options.ttlSeconds = parser.value(ttl).toLongLong(&ok);
    bool okStall = true, okCrash = true, okSlow = true;
    options.stallProbability = parser.value(stall).toDouble(&okStall);
    options.crashProbability = parser.value(crash).toDouble(&okCrash);
    options.slowProbability = parser.value(slow).toDouble(&okSlow);
    options.fencing = !parser.isSet(noFencing);
    if (!ok || !okStall || !okCrash || !okSlow)
        return fail("--ttl takes whole seconds; --stall, --crash and --slow take 0 to 1");
    if (const auto problem = options.problem(); !problem.empty())
        return fail(QString::fromStdString(problem));

    int exitCode = ExitOk;
    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    // A cluster that does not answer (or refuses us) is an error, not a run of 0 acquisitions.
    etcd::pb::RangeRequest probe;
    probe.set_key(options.resourceKey);
    probe.set_count_only(true);
    if (auto reached = etcd::call(*client, &etcd::Client::range, probe); !reached) {
        std::fprintf(stderr, "lockscopectl lab: cannot start: %s\n",
                     reached.error().message.c_str());
        return ExitFailed;
    }
    TerminationSignals termination; // Ctrl-C ends the run early; the report still comes
    auto contention = lab::ContentionLab::create(*client, options);
    contention->start();
    QTimer::singleShot(*runTime, QCoreApplication::instance(), &QCoreApplication::quit);
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
