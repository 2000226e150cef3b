#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    const QCommandLineOption& help, const QString& usage) {
    if (!parser.parse(arguments))
        return usageProblem(arguments.constFirst(), parser.errorText());
    if (parser.isSet(help)) {
        std::fputs(
            qPrintable(QCoreApplication::translate("lockscopectl", "Usage: %1\n").arg(usage) +
                       parser.helpText().section('\n', 1)),
            stdout);
        return ExitOk;
    }
    return std::nullopt;
}

int usageProblem(const QString& command, const QString& problem) {
    std::fputs(
        qPrintable(QCoreApplication::translate("lockscopectl", "lockscopectl %1: %2\n"
                                                               "Run 'lockscopectl %1 --help'.\n")
                       .arg(command, problem)),
        stderr);
    return ExitUsage;
}

void say(const QString& message) {
    std::fprintf(stderr, "lockscopectl: %s\n", qPrintable(message));
}

void say(const std::string& message) {
    say(QString::fromStdString(message));
}

int failWith(const etcd::Error& error) {
    say(error.message);
    return exitCodeFor(error.code);
}

std::unique_ptr<etcd::Client> connect(const ConnectionOptions& connection, int& exitCode) {
    auto client = etcd::Client::create(connection.client);
    if (!client) {
        exitCode = failWith(client.error());
        return nullptr;
    }
    return std::move(client).value();
}

} // namespace lockscope
