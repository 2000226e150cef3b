#include "app/ctl/watch_command.h"

#include "app/core/lock_json.h"
#include "app/core/termination_signals.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/lock_monitor.h"

#include <QCoreApplication>
#include <atomic>
#include <cstdio>

namespace lockscope {

int runWatchCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments, "lockscopectl [connection flags] watch PREFIX [--json]",
        "Print every lock event under PREFIX as it happens, until interrupted.", exitCode);
    if (!args)
        return exitCode;

    auto client = etcd::Client::create(connection.client);
    if (!client) {
        std::fprintf(stderr, "lockscopectl: %s\n", client.error().message.c_str());
        return ExitFailed;
    }
    TerminationSignals termination; // Ctrl-C ends the event loop, then everything is released
    const bool json = args->json;
    // The listener runs on the client's thread; stdio is thread-safe, and each line is flushed
    // so a pipe sees events as they happen.
    auto wasLive = std::make_shared<std::atomic<bool>>(false);
    std::weak_ptr<etcd::LockMonitor> weak;
    auto monitor = etcd::LockMonitor::create(
        **client, {args->prefix},
        [json, wasLive, &weak](const std::vector<etcd::LockEvent>& events) {
            for (const auto& e : events)
                std::printf("%s\n", (json ? lockEventJson(e) : lockEventLine(e)).c_str());
            if (auto self = weak.lock()) {
                const auto [live, status] = self->liveness();
                if (live != wasLive->exchange(live))
                    std::fprintf(stderr, "lockscopectl: %s\n",
                                 live ? "watching" : ("not watching: " + status).c_str());
            }
            std::fflush(stdout);
        });
    weak = monitor;
    monitor->start();
    QCoreApplication::exec();
    monitor->stop();
    return ExitOk;
}

} // namespace lockscope
