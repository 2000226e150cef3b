#include "app/core/connection_profiles.h"

#include <QCommandLineParser>
#include <QProcessEnvironment>
#include <QSettings>

namespace lockscope {

QList<ConnectionProfile> loadProfiles(QSettings& settings) {
    QList<ConnectionProfile> profiles;
    const int count = settings.beginReadArray("profiles");
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        profiles.append({settings.value("name").toString(), settings.value("endpoints").toString(),
                         settings.value("cacert").toString(), settings.value("cert").toString(),
                         settings.value("key").toString(), settings.value("user").toString(),
                         settings.value("readOnly").toBool()});
    }
    settings.endArray();
    return profiles;
}

void saveProfiles(QSettings& settings, const QList<ConnectionProfile>& profiles) {
    settings.beginWriteArray("profiles", static_cast<int>(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        const auto& p = profiles[i];
        settings.setArrayIndex(i);
        settings.setValue("name", p.name);
        settings.setValue("endpoints", p.endpoints);
        settings.setValue("cacert", p.caFile);
        settings.setValue("cert", p.certFile);
        settings.setValue("key", p.keyFile);
        settings.setValue("user", p.user);
        settings.setValue("readOnly", p.readOnly);
    }
    settings.endArray();
}

std::optional<ConnectionOptions> toConnectionOptions(const ConnectionProfile& profile,
                                                     QString& error) {
    if (profile.endpoints.isEmpty()) {
        error = QObject::tr("give at least one endpoint, like 127.0.0.1:2379");
        return std::nullopt;
    }
    if (profile.user.contains(':')) {
        error = QObject::tr("give the user name alone, without ':': the password is asked when "
                            "connecting and never saved with the profile");
        return std::nullopt;
    }
    QStringList arguments = {"lockscope", "--endpoints", profile.endpoints};
    for (const auto& [flag, value] : {std::pair{"--cacert", profile.caFile},
                                      {"--cert", profile.certFile},
                                      {"--key", profile.keyFile},
                                      {"--user", profile.user}})
        if (!value.isEmpty())
            arguments << flag << value;
    QCommandLineParser parser;
    ConnectionOptions::addFlags(parser);
    if (!parser.parse(arguments)) {
        error = parser.errorText();
        return std::nullopt;
    }
    return ConnectionOptions::read(parser, QProcessEnvironment(), nullptr, error);
}

ConnectionProfile profileOf(const etcd::ClientOptions& options) {
    QStringList endpoints;
    for (const auto& e : options.endpoints)
        endpoints << QString::fromStdString(e);
    return {{},
            endpoints.join(','),
            QString::fromStdString(options.caFile),
            QString::fromStdString(options.certFile),
            QString::fromStdString(options.keyFile),
            QString::fromStdString(options.username),
            false};
}

} // namespace lockscope
