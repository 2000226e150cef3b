#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>
#include <cstdio>

namespace lockscope {

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    const QCommandLineOption& help, const QString& usage) {
    if (!parser.parse(arguments))
        return usageProblem(arguments.constFirst(), parser.errorText());
    if (parser.isSet(help)) {
        std::printf("Usage: %s\n%s", qPrintable(usage),
                    qPrintable(parser.helpText().section('\n', 1)));
        return ExitOk;
    }
    return std::nullopt;
}

int usageProblem(const QString& command, const QString& problem) {
    std::fprintf(stderr, "lockscopectl %s: %s\nRun 'lockscopectl %s --help'.\n",
                 qPrintable(command), qPrintable(problem), qPrintable(command));
    return ExitUsage;
}

void say(const std::string& message) {
    std::fprintf(stderr, "lockscopectl: %s\n", message.c_str());
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
