#include "app/ctl/prefix_arguments.h"

#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>

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
    if (const auto done = parseCommandLine(parser, arguments, helpOption, usage)) {
        exitCode = *done;
        return std::nullopt;
    }
    const QStringList positional = parser.positionalArguments(); // arguments[0] is the command
    std::string problem;
    std::optional<std::string> prefix;
    if (positional.isEmpty())
        problem = "a PREFIX is needed, like /locks/";
    else if (positional.size() > 1) {
        problem = "one PREFIX only, got";
        for (const QString& argument : positional)
            problem += " " + displayKey(argumentBytes(argument));
    } else if (prefix = parseKeyText(argumentBytes(positional.first()), problem); !prefix)
        problem = "PREFIX: " + problem;
    if (!problem.empty()) {
        exitCode = usageProblem(arguments.constFirst(), QString::fromStdString(problem));
        return std::nullopt;
    }
    PrefixArguments result{*prefix, parser.isSet(jsonOption), {}};
    for (const QCommandLineOption& option : options)
        result.values[option.names().first()] = parser.value(option);
    return result;
}

} // namespace lockscope
