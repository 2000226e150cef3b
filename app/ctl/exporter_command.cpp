#include "app/ctl/exporter_command.h"

#include "app/core/guarded_post.h"
#include "app/core/history_location.h"
#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/termination_signals.h"
#include "app/ctl/lock_metrics.h"
#include "app/ctl/lock_recording.h"
#include "app/ctl/monitor_retry.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/alarms.h"
#include "etcdclient/locks/lock_monitor.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QTcpServer>
#include <QTimer>
#include <cstdio>

namespace lockscope {

namespace {

constexpr const char* usage =
    "lockscopectl [connection flags] exporter PREFIX [--listen HOST:PORT] [--max-locks N] "
    "[--record FILE|URL] [--checkpoint-every DURATION]";

struct ListenAddress {
    QHostAddress host;
    quint16 port = 0;
};

// "127.0.0.1:9464" or "[::1]:9464"; port 0 picks a free one.
std::optional<ListenAddress> parseListenAddress(const QString& text) {
    const int colon = text.lastIndexOf(':');
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith('[') && host.endsWith(']'))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    ListenAddress address{QHostAddress(host), static_cast<quint16>(port)};
    if (!ok || port > 65535 || address.host.isNull())
        return std::nullopt;
    return address;
}

int usageError(const QString& problem) {
    say(QCoreApplication::translate("lockscopectl", "%1\nUsage: %2").arg(problem, usage));
    return ExitUsage;
}

} // namespace

int runExporterCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    const QCommandLineOption listenOption(
        "listen",
        QCoreApplication::translate(
            "lockscopectl", "Where to serve /metrics and /healthz (port 0: any free port)."),
        "host:port", "127.0.0.1:9464");
    const QCommandLineOption maxLocksOption(
        "max-locks",
        QCoreApplication::translate(
            "lockscopectl",
            "Locks with series of their own; the rest are added up as lock=\"(other)\"."),
        "n", "1000");
    const QCommandLineOption recordOption(
        "record",
        QCoreApplication::translate("lockscopectl",
                                    "Also record every lock event, checkpoint and gap into this "
                                    "SQLite file or PostgreSQL database (postgresql://...), as "
                                    "lockscopectl record --to does; if a write fails the metrics "
                                    "are served on, and the exit code is 1."),
        "FILE|URL");
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments, usage,
        QCoreApplication::translate("lockscopectl",
                                    "Serve the locks under PREFIX as Prometheus metrics (text "
                                    "format 0.0.4) on /metrics, live, until interrupted."),
        JsonOutput::None, exitCode,
        {listenOption, maxLocksOption, recordOption, checkpointEveryOption()});
    if (!args)
        return exitCode;
    const QString listenText = args->values["listen"];
    const auto listen = parseListenAddress(listenText);
    if (!listen)
        return usageError(QCoreApplication::translate("lockscopectl",
                                                      "--listen wants HOST:PORT with an IP "
                                                      "address, like 127.0.0.1:9464, not \"%1\"")
                              .arg(listenText));
    bool ok = false;
    const int maxLocks = args->values["max-locks"].toInt(&ok);
    if (!ok || maxLocks < 1)
        return usageError(
            QCoreApplication::translate(
                "lockscopectl", "--max-locks wants a whole number of at least 1, not \"%1\"")
                .arg(args->values["max-locks"]));

    QString problem;
    const auto every = parseCheckpointEvery(args->values["checkpoint-every"], problem);
    if (!every || !HistoryLocation::parse(args->values["record"], problem))
        return usageError(problem);
    std::unique_ptr<LockRecording> recording;
    if (const QString location = args->values["record"]; !location.isEmpty())
        if (recording = LockRecording::open(location, connection, args->prefix, *every,
                                            LockRecording::OnFailure::GoOn);
            !recording)
            return ExitFailed;

    auto client = etcd::Client::create(connection.client);
    if (!client) {
        say(client.error().message);
        return exitCodeFor(client.error().code);
    }
    TerminationSignals termination; // Ctrl-C ends the event loop, then the monitor stops

    // Events are counted on the application's thread, where scrapes read them: no lock needed.
    LockMetrics metrics(static_cast<std::size_t>(maxLocks), connection.profile.toStdString());
    const QPointer<QCoreApplication> app(QCoreApplication::instance());
    std::weak_ptr<etcd::LockMonitor> weak;
    LockRecordingFeed* feed = recording ? &recording->feed() : nullptr;
    auto onEvents = [&metrics, app, &weak, feed](const std::vector<etcd::LockEvent>& events) {
        if (const auto self = feed ? weak.lock() : nullptr)
            feed->onEvents(*self, events);
        if (!events.empty())
            postGuarded(app, [&metrics, events](QCoreApplication*) { metrics.observe(events); });
    };
    auto monitor =
        etcd::LockMonitor::create(**client, {.prefix = args->prefix, .recipe = args->recipe},
                                  onEvents, [](const auto& retry) { reportMonitorRetry(retry); });
    weak = monitor;
    etcd::LockMonitorState state;

    // etcd's alarms, asked every second (one call at a time): while NOSPACE is raised etcd
    // refuses every write, so the locks under watch cannot change hands, whatever the monitor
    // sees. Unknown (no series, no verdict) while the call fails.
    bool askingAlarms = false;
    const auto askAlarms = [&, app] {
        if (askingAlarms)
            return;
        askingAlarms = true;
        (*client)->alarms({}, [&, app](etcd::Result<etcd::pb::AlarmResponse> reply) {
            std::optional<std::vector<etcd::RaisedAlarm>> raised;
            if (reply)
                raised = etcd::raisedAlarms(*reply);
            postGuarded(app, [&, raised](QCoreApplication*) {
                askingAlarms = false;
                metrics.setAlarms(raised);
            });
        });
    };
    QTimer alarmPoll;
    QObject::connect(&alarmPoll, &QTimer::timeout, askAlarms);

    QHttpServer http;
    etcd::WaitForGraph graph; // kept from what each scrape's update copied
    http.route("/metrics", [&] {
        graph.apply(monitor->update(state), state.locks);
        const std::string text = metrics.render(state, graph, std::chrono::steady_clock::now());
        return QHttpServerResponse("text/plain; version=0.0.4; charset=utf-8",
                                   QByteArray::fromStdString(text));
    });
    http.route("/healthz", [&] {
        const auto [live, status] = monitor->liveness();
        if (!live) {
            // Since the last word heard from etcd, when it was watching before.
            const auto outage = monitor->outage();
            const std::string since =
                outage && !outage->until ? " since " + isoTime(outage->since) : std::string();
            return QHttpServerResponse(
                "text/plain",
                QByteArray::fromStdString("not watching" + since + ": " + status + "\n"),
                QHttpServerResponse::StatusCode::ServiceUnavailable);
        }
        if (const auto& alarms = metrics.alarms(); alarms && !alarms->empty())
            return QHttpServerResponse(
                "text/plain",
                QByteArray::fromStdString("etcd alarm: " + etcd::describeAlarms(*alarms) + "\n"),
                QHttpServerResponse::StatusCode::ServiceUnavailable);
        return QHttpServerResponse("text/plain", "ok\n");
    });
    auto* tcp = new QTcpServer(&http); // owned by the server once bound
    if (!tcp->listen(listen->host, listen->port)) {
        say(QCoreApplication::translate("lockscopectl", "cannot listen on %1: %2")
                .arg(listenText, tcp->errorString()));
        return ExitFailed;
    }
    http.bind(tcp);
    const QString host = listen->host.protocol() == QAbstractSocket::IPv6Protocol
                             ? "[" + listen->host.toString() + "]"
                             : listen->host.toString();
    say(QCoreApplication::translate("lockscopectl",
                                    "serving http://%1:%2/metrics for the locks under %3")
            .arg(host)
            .arg(tcp->serverPort())
            .arg(QString::fromStdString(displayKey(args->prefix))));
    monitor->start();
    askAlarms();
    alarmPoll.start(1000);
    exitCode = QCoreApplication::exec();
    monitor->stop();
    return recording && !recording->finish() ? ExitFailed : exitCode;
}

} // namespace lockscope
