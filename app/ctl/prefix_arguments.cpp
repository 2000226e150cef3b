#include "app/ctl/prefix_arguments.h"

#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/ctl/ctl_command.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace lockscope {

std::optional<PrefixArguments> parsePrefixArguments(const QStringList& arguments,
                                                    const QString& usage, const QString& about,
                                                    JsonOutput json, int& exitCode,
                                                    const QList<QCommandLineOption>& options) {
    QCommandLineParser parser;
    parser.setApplicationDescription(about);
    const QCommandLineOption jsonOption(
        "json", QCoreApplication::translate("lockscopectl", "Print JSON instead of text."));
    const QCommandLineOption helpOption(
        {"h", "help"}, QCoreApplication::translate("lockscopectl", "Show this help."));
    const QCommandLineOption recipeOption(
        "recipe",
        QCoreApplication::translate(
            "lockscopectl",
            "How keys form locks: auto (each key's recipe from its shape and lease), or mutex, "
            "election, rwmutex or single-key for every key under PREFIX, where auto cannot "
            "decide."),
        "NAME", "auto");
    if (json == JsonOutput::Offered)
        parser.addOption(jsonOption);
    parser.addOptions({recipeOption, helpOption});
    parser.addOptions(options);
    parser.addPositionalArgument(
        "prefix", QCoreApplication::translate("lockscopectl",
                                              "The key prefix whose locks to show, e.g. /locks/. "
                                              "Any bytes; \\xNN is a byte and \\\\ a backslash."));
    if (const auto done = parseCommandLine(parser, arguments, helpOption, usage)) {
        exitCode = *done;
        return std::nullopt;
    }
    const QStringList positional = parser.positionalArguments(); // arguments[0] is the command
    QString problem;
    std::optional<std::string> prefix;
    if (positional.isEmpty())
        problem = QCoreApplication::translate("lockscopectl", "a PREFIX is needed, like /locks/");
    else if (positional.size() > 1) {
        QStringList given;
        for (const QString& argument : positional)
            given << QString::fromStdString(displayKey(argumentBytes(argument)));
        problem = QCoreApplication::translate("lockscopectl", "one PREFIX only, got %1")
                      .arg(given.join(' '));
    } else if (std::string why;
               (prefix = parseKeyText(argumentBytes(positional.first()), why), !prefix))
        problem = QCoreApplication::translate("lockscopectl", "PREFIX: %1")
                      .arg(QString::fromStdString(why));
    else if (prefix->empty()) // the whole keyspace, not one lock family
        problem = QCoreApplication::translate("lockscopectl",
                                              "a non-empty PREFIX is needed, like /locks/ (use / "
                                              "for every lock under the root)");
    const auto recipe = etcd::parseRecipeOverride(parser.value(recipeOption).toStdString());
    if (problem.isEmpty() && !recipe)
        problem = QCoreApplication::translate("lockscopectl",
                                              "--recipe: %1 is none of auto, mutex, election, "
                                              "rwmutex, single-key")
                      .arg(parser.value(recipeOption));
    if (!problem.isEmpty()) {
        exitCode = usageProblem(arguments.constFirst(), problem);
        return std::nullopt;
    }
    PrefixArguments result{
        *prefix, json == JsonOutput::Offered && parser.isSet(jsonOption), *recipe, {}};
    for (const QCommandLineOption& option : options)
        result.values[option.names().first()] = parser.value(option);
    return result;
}

} // namespace lockscope
