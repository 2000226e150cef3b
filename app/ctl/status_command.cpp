#include "app/ctl/status_command.h"

#include "app/core/cluster_status_probe.h"
#include "app/core/endpoint_status_model.h"
#include "app/core/json_writer.h"
#include "app/ctl/text_table.h"
#include "etcdclient/tls_files.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <algorithm>
#include <cstdio>

namespace lockscope {

namespace {

void print(FILE* stream, const QString& text) {
    std::fputs(text.toLocal8Bit().constData(), stream);
    std::fflush(stream);
}

QString asJson(const QList<EndpointStatus>& rows) {
    JsonWriter json;
    json.beginArray();
    for (const EndpointStatus& row : rows)
        row.writeJson(json);
    json.endArray();
    return QString::fromStdString(json.text() + '\n');
}

QString asTable(const QList<EndpointStatus>& rows) {
    EndpointStatusModel model;
    model.setRows(rows);
    return renderTextTable(model);
}

} // namespace

int runStatusCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "lockscopectl", "Show each endpoint's status: version, member id, leader, revision, raft "
                        "term and index, database size, round trip and etcd's alarms."));
    const QCommandLineOption jsonOption(
        "json",
        QCoreApplication::translate("lockscopectl", "Print a JSON array instead of a table."));
    const QCommandLineOption helpOption(
        {"h", "help"}, QCoreApplication::translate("lockscopectl", "Show this help."));
    parser.addOptions({jsonOption, helpOption});
    if (const auto done = parseCommandLine(parser, arguments, helpOption,
                                           "lockscopectl [connection flags] status [--json]"))
        return *done;
    if (!parser.positionalArguments().isEmpty())
        return usageProblem("status", QCoreApplication::translate(
                                          "lockscopectl", "unexpected argument \"%1\" (connection "
                                                          "flags go before the command)")
                                          .arg(parser.positionalArguments().constFirst()));

    // Unusable TLS files are the arguments' fault: said once, before any endpoint is asked,
    // not as every endpoint's failure.
    if (const auto files = etcd::readTlsFiles(connection.client); !files)
        return failWith(files.error());
    ClusterStatusProbe probe(connection.client);
    QList<EndpointStatus> rows;
    QEventLoop loop;
    QObject::connect(&probe, &ClusterStatusProbe::updated, &loop,
                     [&](const QList<EndpointStatus>& answered) {
                         rows = answered;
                         loop.quit();
                     });
    probe.refresh();
    if (probe.busy())
        loop.exec();

    print(stdout, parser.isSet(jsonOption) ? asJson(rows) : asTable(rows));
    int exitCode = ExitOk;
    int failed = 0;
    for (const EndpointStatus& row : rows) {
        if (row.answered()) {
            // The status was read, but etcd refuses writes: said where a script's log shows it.
            if (!row.alarms.empty())
                say(QStringLiteral("%1: %2").arg(row.endpoint, row.problem()));
            continue;
        }
        ++failed;
        say(row.error);
        exitCode = std::max(exitCode, exitCodeFor(row.errorCode));
    }
    if (failed > 0 && rows.size() > 1)
        say(QCoreApplication::translate("lockscopectl", "%1 of %2 endpoints did not answer")
                .arg(failed)
                .arg(rows.size()));
    return exitCode;
}

} // namespace lockscope
