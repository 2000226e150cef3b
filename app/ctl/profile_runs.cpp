#include "app/ctl/profile_runs.h"

#include "app/core/connection_profiles.h"
#include "app/core/json_writer.h"
#include "app/core/terminal_password_prompt.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSettings>
#include <algorithm>
#include <cstdio>

namespace lockscope {

namespace {

// The commands whose one run reads one moment of a cluster: their sections side by side make
// sense. A watch or a lock runs until stopped: one cluster each. The exporter serves several
// in one run (runOnClusters).
bool readsOneMomentOfEach(const CtlCommand& command) {
    return QLatin1String(command.name) == QLatin1String("status") ||
           QLatin1String(command.name) == QLatin1String("snapshot");
}

void printSection(const ConnectionProfile& profile, bool json) {
    if (json) {
        JsonWriter line;
        line.beginObject()
            .key("profile")
            .value(profile.name.toStdString())
            .key("endpoints")
            .value(profile.endpoints.toStdString())
            .endObject();
        std::printf("%s\n", line.text().c_str());
    } else {
        std::printf("== %s (%s)\n", qPrintable(profile.name), qPrintable(profile.endpoints));
    }
    std::fflush(stdout);
}

} // namespace

QCommandLineOption profileOption() {
    return QCommandLineOption(
        "profile",
        QCoreApplication::translate(
            "lockscopectl",
            "Connect as the desktop's saved connection profile NAME (File > Connect… in "
            "LockScope) instead of connection flags; a profile with a user has its password "
            "asked on the terminal. Repeat it to run status or snapshot on several clusters, "
            "one section each, or to serve several clusters from one exporter."),
        "NAME");
}

int runOnProfiles(const CtlCommand& command, const QStringList& arguments,
                  const QCommandLineParser& parser) {
    const QString name = arguments.constFirst();
    // A command's --help needs no connection, nor a saved profile.
    if (arguments.contains("--help") || arguments.contains("-h"))
        return command.run(arguments, ConnectionOptions{});
    for (const char* flag : {"endpoints", "cacert", "cert", "key", "user", "password"})
        if (parser.isSet(flag))
            return usageProblem(
                name, QCoreApplication::translate("lockscopectl",
                                                  "--profile names the connection: leave out --%1")
                          .arg(flag));
    const QStringList names = parser.values("profile");
    if (names.size() > 1 && !readsOneMomentOfEach(command) && !command.runOnClusters)
        return usageProblem(
            name, QCoreApplication::translate("lockscopectl",
                                              "%1 runs on one cluster: give one --profile "
                                              "(several go with status, snapshot and exporter)")
                      .arg(name));
    // The desktop's settings, where its connection dialog saves the profiles.
    QSettings settings(QSettings::NativeFormat, QSettings::UserScope, "LockScope", "LockScope");
    const QList<ConnectionProfile> saved = loadProfiles(settings);
    QList<std::pair<ConnectionProfile, ConnectionOptions>> runs;
    for (const QString& wanted : names) {
        const auto found = std::find_if(saved.begin(), saved.end(), [&](const auto& profile) {
            return profile.name == wanted;
        });
        if (found == saved.end()) {
            QStringList known;
            for (const auto& profile : saved)
                known << profile.name;
            return usageProblem(
                name,
                QCoreApplication::translate("lockscopectl",
                                            "no saved connection profile \"%1\" (%2); LockScope's "
                                            "File > Connect… saves them")
                    .arg(wanted, known.isEmpty()
                                     ? QCoreApplication::translate("lockscopectl", "none is saved")
                                     : QCoreApplication::translate("lockscopectl", "saved: %1")
                                           .arg(known.join(", "))));
        }
        QString problem;
        auto connection = toConnectionOptions(*found, problem);
        if (connection && connection->needsPassword) {
            const auto password = askPasswordOnTerminal(found->user, problem);
            if (password) {
                connection->client.password = *password;
                connection->needsPassword = false;
            } else {
                connection.reset();
            }
        }
        if (!connection)
            return usageProblem(
                name,
                QCoreApplication::translate("lockscopectl", "profile %1: %2").arg(wanted, problem));
        connection->profile = found->name;
        runs.append({*found, *connection});
    }
    if (runs.size() > 1 && command.runOnClusters) {
        std::vector<ConnectionOptions> connections;
        for (const auto& run : runs)
            connections.push_back(run.second);
        return command.runOnClusters(arguments, connections);
    }
    const bool json = arguments.contains("--json");
    int worst = ExitOk;
    for (const auto& [profile, connection] : runs) {
        if (runs.size() > 1)
            printSection(profile, json);
        worst = std::max(worst, command.run(arguments, connection));
        std::fflush(stdout);
    }
    return worst;
}

} // namespace lockscope
