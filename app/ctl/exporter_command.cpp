#include "app/ctl/exporter_command.h"

#include "app/core/history_location.h"
#include "app/core/key_text.h"
#include "app/core/termination_signals.h"
#include "app/ctl/exported_cluster.h"
#include "app/ctl/lock_recording.h"
#include "app/ctl/prefix_arguments.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QTcpServer>

namespace lockscope {

namespace {

constexpr const char* usage =
    "lockscopectl [connection flags] exporter PREFIX [--listen HOST:PORT] [--max-locks N] "
    "[--record FILE|URL] [--checkpoint-every DURATION] [--keep DURATION] [--max-size MB]";

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
    return runExporterOnClusters(arguments, {connection});
}

int runExporterOnClusters(const QStringList& arguments,
                          const std::vector<ConnectionOptions>& connections) {
    const QCommandLineOption listenOption(
        "listen",
        QCoreApplication::translate(
            "lockscopectl", "Where to serve /metrics and /healthz (port 0: any free port)."),
        "host:port", "127.0.0.1:9464");
    const QCommandLineOption maxLocksOption(
        "max-locks",
        QCoreApplication::translate(
            "lockscopectl", "Locks with series of their own, per cluster; the rest are added up as "
                            "lock=\"(other)\"."),
        "n", "1000");
    const QCommandLineOption recordOption(
        "record",
        QCoreApplication::translate("lockscopectl",
                                    "Also record every lock event, checkpoint and gap into this "
                                    "SQLite file or PostgreSQL database (postgresql://...), as "
                                    "lockscopectl record --to does (each cluster as a source of "
                                    "its own); if a write fails the metrics are served on, and "
                                    "the exit code is 1."),
        "FILE|URL");
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments, usage,
        QCoreApplication::translate("lockscopectl",
                                    "Serve the locks under PREFIX as Prometheus metrics (text "
                                    "format 0.0.4) on /metrics, live, until interrupted. With "
                                    "several --profile, one exporter serves every cluster, each "
                                    "series labelled with its profile's name."),
        JsonOutput::None, exitCode,
        QList<QCommandLineOption>{listenOption, maxLocksOption, recordOption} + recordingOptions());
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
    const auto recording = parseRecordingOptions(args->values, problem);
    if (!recording || !HistoryLocation::parse(args->values["record"], problem))
        return usageError(problem);
    const ExportedCluster::Settings settings{.prefix = args->prefix,
                                             .recipe = args->recipe,
                                             .maxLocks = static_cast<std::size_t>(maxLocks),
                                             .recordTo = args->values["record"],
                                             .recording = *recording};
    std::vector<std::unique_ptr<ExportedCluster>> clusters;
    for (const ConnectionOptions& connection : connections) {
        clusters.push_back(ExportedCluster::create(connection, settings, exitCode));
        if (!clusters.back())
            return exitCode;
    }
    TerminationSignals termination; // Ctrl-C ends the event loop, then the monitors stop

    QHttpServer http;
    http.route("/metrics", [&] {
        std::vector<std::vector<prometheus::MetricFamily>> families;
        for (const auto& cluster : clusters)
            families.push_back(cluster->families());
        return QHttpServerResponse("text/plain; version=0.0.4; charset=utf-8",
                                   QByteArray::fromStdString(renderMetrics(std::move(families))));
    });
    // Healthy while every cluster is; else each one that is not, named when it has a name.
    http.route("/healthz", [&] {
        std::string problems;
        for (const auto& cluster : clusters)
            if (const auto why = cluster->unhealthy())
                problems += (cluster->name().isEmpty() ? std::string()
                                                       : cluster->name().toStdString() + ": ") +
                            *why + "\n";
        if (problems.empty())
            return QHttpServerResponse("text/plain", "ok\n");
        return QHttpServerResponse("text/plain", QByteArray::fromStdString(problems),
                                   QHttpServerResponse::StatusCode::ServiceUnavailable);
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
    for (const auto& cluster : clusters)
        cluster->start();
    exitCode = QCoreApplication::exec();
    bool recorded = true;
    for (const auto& cluster : clusters)
        recorded = cluster->stop() && recorded;
    return recorded ? exitCode : ExitFailed;
}

} // namespace lockscope
