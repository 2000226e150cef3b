#include "app/ctl/prefix_arguments.h"

#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>
#include <cstdio>

namespace lockscope {

std::optional<PrefixArguments> parsePrefixArguments(const QStringList& arguments,
                                                    const QString& usage, const QString& about,
                                                    int& exitCode,
                                                    const QList<QCommandLineOption>& options) {
    QCommandLineParser parser;
    parser.setApplicationDescription(about);
    const QCommandLineOption jsonOption("json", "Print JSON instead of text.");
    const QCommandLineOption helpOption({"h", "help"}, "Show this help.");
    parser.addOptions({jsonOption, helpOption});
    parser.addOptions(options);
    parser.addPositionalArgument("prefix", "The key prefix whose locks to show, e.g. /locks/. "
                                           "Any bytes; \\xNN is a byte and \\\\ a backslash.");
    const bool parsed = parser.parse(arguments);
    if (parsed && parser.isSet(helpOption)) {
        std::printf("Usage: %s\n%s", qPrintable(usage),
                    qPrintable(parser.helpText().section('\n', 1)));
        exitCode = ExitOk;
        return std::nullopt;
    }
    const QStringList positional = parser.positionalArguments(); // arguments[0] is the command
    std::string problem;
    std::optional<std::string> prefix;
    if (!parsed)
        problem = parser.errorText().toStdString();
    else if (positional.isEmpty())
        problem = "a PREFIX is needed, like /locks/";
    else if (positional.size() > 1) {
        problem = "one PREFIX only, got";
        for (const QString& argument : positional)
            problem += " " + displayKey(argumentBytes(argument));
    } else if (prefix = parseKeyText(argumentBytes(positional.first()), problem); !prefix)
        problem = "PREFIX: " + problem;
    if (!problem.empty()) {
        std::fprintf(stderr, "lockscopectl: %s\nUsage: %s\n", problem.c_str(), qPrintable(usage));
        exitCode = ExitUsage;
        return std::nullopt;
    }
    PrefixArguments result{*prefix, parser.isSet(jsonOption), {}};
    for (const QCommandLineOption& option : options)
        result.values[option.names().first()] = parser.value(option);
    return result;
}

} // namespace lockscope
