#include "app/ctl/watch_command.h"

#include "app/core/json_writer.h"
#include "app/core/lock_json.h"
#include "app/core/termination_signals.h"
#include "app/ctl/monitor_retry.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/locks/lock_monitor.h"

#include <QCoreApplication>
#include <atomic>
#include <cstdio>

namespace lockscope {

namespace {

// `--json`'s line for a failed list or watch, beside the lock events.
std::string reconnectingJson(const etcd::LockMonitor::Retry& retry) {
    JsonWriter json;
    json.beginObject()
        .key("event")
        .value("reconnecting")
        .key("attempt")
        .value(static_cast<int64_t>(retry.attempt))
        .key("next_in_s")
        .value(static_cast<double>(retry.delay.count()) / 1000.0)
        .key("error")
        .value(etcd::errorCodeName(retry.error.code))
        .key("reason")
        .value(retry.error.message)
        .endObject();
    return json.text();
}

// `--json`'s line when the view stops being live after it was ("stale": what was printed is
// current only until `since`, the last word heard from etcd), and when it is live again
// ("resynced": the prefix re-read at `revision`; events of the gap follow, marked recovered).
std::string outageJson(const etcd::LockMonitor::Outage& outage) {
    JsonWriter json;
    json.beginObject().key("event").value(outage.until ? "resynced" : "stale");
    json.key("since").value(isoTime(outage.since));
    if (outage.until)
        json.key("until").value(isoTime(*outage.until)).key("revision").value(outage.revision);
    else
        json.key("reason").value(outage.reason);
    return json.endObject().text();
}

} // namespace

int runWatchCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments, "lockscopectl [connection flags] watch PREFIX [--json] [--recipe NAME]",
        QCoreApplication::translate("lockscopectl", "Print every lock event under PREFIX as it "
                                                    "happens, until interrupted."),
        JsonOutput::Offered, exitCode);
    if (!args)
        return exitCode;

    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    TerminationSignals termination; // Ctrl-C ends the event loop, then everything is released
    const bool json = args->json;
    // The listeners run on the client's thread; stdio is thread-safe, and each line is flushed
    // so a pipe sees events as they happen.
    auto wasLive = std::make_shared<std::atomic<bool>>(false);
    std::weak_ptr<etcd::LockMonitor> weak;
    auto onEvents = [json, wasLive, &weak](const std::vector<etcd::LockEvent>& events) {
        const auto self = weak.lock();
        const auto [live, status] = self ? self->liveness() : std::pair<bool, std::string>();
        const bool changed = self && live != wasLive->exchange(live);
        const auto outage = changed ? self->outage() : std::nullopt;
        // A re-read's resync comes before the gap's recovered events it brings.
        if (json && outage && live == outage->until.has_value())
            std::printf("%s\n", outageJson(*outage).c_str());
        for (const auto& e : events)
            std::printf("%s\n", (json ? lockEventJson(e) : lockEventLine(e)).c_str());
        if (changed)
            say(live ? QCoreApplication::translate("lockscopectl", "watching")
                     : QCoreApplication::translate("lockscopectl", "not watching: %1")
                           .arg(QString::fromStdString(status)));
        std::fflush(stdout);
    };
    auto onRetry = [json](const etcd::LockMonitor::Retry& retry) {
        if (reportMonitorRetry(retry) && json) {
            std::printf("%s\n", reconnectingJson(retry).c_str());
            std::fflush(stdout);
        }
    };
    auto monitor = etcd::LockMonitor::create(
        *client, {.prefix = args->prefix, .recipe = args->recipe}, onEvents, onRetry);
    weak = monitor;
    monitor->start();
    exitCode = QCoreApplication::exec();
    monitor->stop();
    return exitCode;
}

} // namespace lockscope
