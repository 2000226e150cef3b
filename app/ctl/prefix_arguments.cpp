#include "app/ctl/prefix_arguments.h"

#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>
#include <cstdio>

namespace lockscope {

std::optional<PrefixArguments> parsePrefixArguments(const QStringList& arguments,
                                                    const QString& usage, const QString& about,
                                                    int& exitCode) {
    QCommandLineParser parser;
    parser.setApplicationDescription(about);
    const QCommandLineOption jsonOption("json", "Print JSON instead of text.");
    const QCommandLineOption helpOption({"h", "help"}, "Show this help.");
    parser.addOptions({jsonOption, helpOption});
    parser.addPositionalArgument("prefix", "The key prefix whose locks to show, e.g. /locks/");
    const bool parsed = parser.parse(arguments);
    if (parsed && parser.isSet(helpOption)) {
        std::printf("Usage: %s\n%s", qPrintable(usage),
                    qPrintable(parser.helpText().section('\n', 1)));
        exitCode = ExitOk;
        return std::nullopt;
    }
    const QStringList positional = parser.positionalArguments(); // arguments[0] is the command
    if (!parsed || positional.size() != 1) {
        const QString problem =
            !parsed ? parser.errorText()
            : positional.isEmpty()
                ? QStringLiteral("a PREFIX is needed, like /locks/")
                : QStringLiteral("one PREFIX only, got %1").arg(positional.join(' '));
        std::fprintf(stderr, "lockscopectl: %s\nUsage: %s\n", qPrintable(problem),
                     qPrintable(usage));
        exitCode = ExitUsage;
        return std::nullopt;
    }
    return PrefixArguments{positional.first(), parser.isSet(jsonOption)};
}

} // namespace lockscope
