#include "app/core/connection_options.h"

#include "app/core/go_duration.h"
#include "etcdclient/endpoint.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcessEnvironment>

namespace lockscope {

namespace {

struct Setting {
    QString flag;
    QString variable;
};

const Setting endpointsSetting{"endpoints", "ETCDCTL_ENDPOINTS"};
const Setting caCertSetting{"cacert", "ETCDCTL_CACERT"};
const Setting certSetting{"cert", "ETCDCTL_CERT"};
const Setting keySetting{"key", "ETCDCTL_KEY"};
const Setting userSetting{"user", "ETCDCTL_USER"};
const Setting passwordSetting{"password", "ETCDCTL_PASSWORD"};
const Setting dialTimeoutSetting{"dial-timeout", "ETCDCTL_DIAL_TIMEOUT"};
const Setting commandTimeoutSetting{"command-timeout", "ETCDCTL_COMMAND_TIMEOUT"};

// A setting's text and where it came from ("--flag" or the variable's name), for messages.
struct Value {
    QString text;
    QString origin;
};

// The flag when given, else the variable when set and not empty (as etcdctl treats it).
std::optional<Value> lookup(const QCommandLineParser& parser,
                            const QProcessEnvironment& environment, const Setting& setting) {
    if (parser.isSet(setting.flag))
        return Value{parser.value(setting.flag), "--" + setting.flag};
    const QString fromEnvironment = environment.value(setting.variable);
    if (!fromEnvironment.isEmpty())
        return Value{fromEnvironment, setting.variable};
    return std::nullopt;
}

bool readEndpoints(const Value& value, std::vector<std::string>& out, QString& error) {
    out.clear();
    for (const QString& item : value.text.split(',')) {
        const QString text = item.trimmed();
        if (text.isEmpty()) {
            error = QCoreApplication::translate("ConnectionOptions",
                                                "%1: an endpoint is empty; give host:port or "
                                                "http(s)://host:port, several separated by commas")
                        .arg(value.origin);
            return false;
        }
        etcd::Endpoint endpoint;
        std::string why;
        if (!etcd::parseEndpoint(text.toStdString(), endpoint, why)) {
            error = QCoreApplication::translate("ConnectionOptions", "%1: %2")
                        .arg(value.origin, QString::fromStdString(why));
            return false;
        }
        out.push_back(text.toStdString());
    }
    return true;
}

bool readFile(const Value& value, std::string& out, QString& error) {
    if (const QFileInfo file(value.text); !file.isFile() || !file.isReadable()) {
        error =
            QCoreApplication::translate(
                "ConnectionOptions", "%1: cannot read \"%2\"; give the path of a readable PEM file")
                .arg(value.origin, value.text);
        return false;
    }
    out = value.text.toStdString();
    return true;
}

bool readTimeout(const Value& value, std::chrono::milliseconds& out, QString& error) {
    const auto duration = parseGoDuration(value.text);
    if (!duration || duration->count() <= 0) {
        error =
            QCoreApplication::translate(
                "ConnectionOptions", "%1: \"%2\" is not a usable timeout; give a positive duration "
                                     "with a unit, like 2s, 500ms or 1m")
                .arg(value.origin, value.text);
        return false;
    }
    out = *duration;
    return true;
}

// etcdctl's rules: a password given apart makes --user the name whole; else the name ends at
// the first ':' (a password may contain ':' itself); else the password is asked for.
bool readCredentials(const QCommandLineParser& parser, const QProcessEnvironment& environment,
                     const PasswordPrompt& askPassword, ConnectionOptions& options,
                     QString& error) {
    const auto user = lookup(parser, environment, userSetting);
    const auto password = lookup(parser, environment, passwordSetting);
    if (!user) {
        // ETCDCTL_PASSWORD alone is ignored as etcdctl does; the flag alone is a mistake.
        if (parser.isSet(passwordSetting.flag)) {
            error = QCoreApplication::translate("ConnectionOptions",
                                                "--password needs a user: add --user name");
            return false;
        }
        return true;
    }
    etcd::ClientOptions& client = options.client;
    QString name = user->text;
    if (password && !password->text.isEmpty()) {
        client.password = password->text.toStdString();
    } else if (const qsizetype colon = name.indexOf(':'); colon >= 0) {
        client.password = name.mid(colon + 1).toStdString();
        name.truncate(colon);
    } else if (askPassword) {
        auto asked = askPassword(name, error);
        if (!asked)
            return false;
        client.password = std::move(*asked);
    } else {
        options.needsPassword = true;
    }
    if (name.isEmpty()) {
        error = QCoreApplication::translate(
                    "ConnectionOptions", "%1: the user name is empty; give name or name:password")
                    .arg(user->origin);
        return false;
    }
    client.username = name.toStdString();
    return true;
}

} // namespace

void ConnectionOptions::addFlags(QCommandLineParser& parser, const QString& withoutEndpoints) {
    parser.addOptions({
        {endpointsSetting.flag,
         QCoreApplication::translate("ConnectionOptions", "etcd endpoints, comma-separated (%1).")
             .arg(withoutEndpoints.isEmpty()
                      ? QCoreApplication::translate("ConnectionOptions", "default 127.0.0.1:2379")
                      : withoutEndpoints),
         QCoreApplication::translate("ConnectionOptions", "host:port,...")},
        {caCertSetting.flag,
         QCoreApplication::translate("ConnectionOptions",
                                     "Verify the server with this CA bundle (PEM)."),
         QCoreApplication::translate("ConnectionOptions", "file")},
        {certSetting.flag,
         QCoreApplication::translate("ConnectionOptions",
                                     "Client certificate for TLS (PEM), with --key."),
         QCoreApplication::translate("ConnectionOptions", "file")},
        {keySetting.flag,
         QCoreApplication::translate("ConnectionOptions", "Client key for TLS (PEM), with --cert."),
         QCoreApplication::translate("ConnectionOptions", "file")},
        {userSetting.flag,
         QCoreApplication::translate(
             "ConnectionOptions",
             "Authenticate as this user; without :password (or --password) the password is asked "
             "on the terminal."),
         QCoreApplication::translate("ConnectionOptions", "name[:password]")},
        {passwordSetting.flag,
         QCoreApplication::translate("ConnectionOptions",
                                     "The password of --user (then --user is the name whole)."),
         QCoreApplication::translate("ConnectionOptions", "password")},
        {dialTimeoutSetting.flag,
         QCoreApplication::translate("ConnectionOptions",
                                     "Give up connecting after this long (default 2s)."),
         QCoreApplication::translate("ConnectionOptions", "duration")},
        {commandTimeoutSetting.flag,
         QCoreApplication::translate("ConnectionOptions",
                                     "Give up on a request after this long (default 5s)."),
         QCoreApplication::translate("ConnectionOptions", "duration")},
    });
}

std::optional<ConnectionOptions> ConnectionOptions::read(const QCommandLineParser& parser,
                                                         const QProcessEnvironment& environment,
                                                         const PasswordPrompt& askPassword,
                                                         QString& error) {
    ConnectionOptions options;
    etcd::ClientOptions& client = options.client;
    if (auto value = lookup(parser, environment, endpointsSetting)) {
        if (!readEndpoints(*value, client.endpoints, error))
            return std::nullopt;
        options.endpointsGiven = true;
    }
    if (auto value = lookup(parser, environment, caCertSetting);
        value && !readFile(*value, client.caFile, error))
        return std::nullopt;
    const auto cert = lookup(parser, environment, certSetting);
    const auto key = lookup(parser, environment, keySetting);
    if (cert.has_value() != key.has_value()) {
        error = QCoreApplication::translate("ConnectionOptions",
                                            "a client certificate needs both --cert and --key "
                                            "(or ETCDCTL_CERT and ETCDCTL_KEY)");
        return std::nullopt;
    }
    if (cert &&
        (!readFile(*cert, client.certFile, error) || !readFile(*key, client.keyFile, error)))
        return std::nullopt;
    if (auto value = lookup(parser, environment, dialTimeoutSetting);
        value && !readTimeout(*value, client.dialTimeout, error))
        return std::nullopt;
    if (auto value = lookup(parser, environment, commandTimeoutSetting);
        value && !readTimeout(*value, client.commandTimeout, error))
        return std::nullopt;
    // Last, so bad input elsewhere is reported before anyone is asked for a password.
    if (!readCredentials(parser, environment, askPassword, options, error))
        return std::nullopt;
    return options;
}

} // namespace lockscope
