#pragma once

#include "etcdclient/client_options.h"

#include <QString>
#include <functional>
#include <optional>
#include <string>

class QCommandLineParser;
class QProcessEnvironment;

namespace lockscope {

// Asks for `user`'s password when the command line names a user without one. std::nullopt with
// `error` set (what was wrong and what to do) when it cannot ask or the user gave up.
using PasswordPrompt =
    std::function<std::optional<std::string>(const QString& user, QString& error)>;

// Where and how to reach etcd, read from etcdctl's flags and the ETCDCTL_* environment variables
// etcdctl reads, so a shell set up for etcdctl works unchanged. A flag wins over its variable.
struct ConnectionOptions {
    etcd::ClientOptions client;
    bool endpointsGiven = false; // false: client.endpoints holds etcdctl's default, 127.0.0.1:2379
    // A user was named without a password and read() was given no prompt: the caller asks.
    bool needsPassword = false;
    // The saved connection profile these came from (lockscopectl --profile); empty for flags.
    QString profile;

    // `withoutEndpoints` says what a program does when no endpoints are given, for --help;
    // empty says etcdctl's default, 127.0.0.1:2379.
    static void addFlags(QCommandLineParser& parser, const QString& withoutEndpoints = {});
    // std::nullopt with `error` set (what was wrong and what to do about it) for bad input.
    // The password comes as etcdctl takes it: --password (or ETCDCTL_PASSWORD) when set, and
    // then --user is the name whole; else --user name:password; else `askPassword`, if any.
    static std::optional<ConnectionOptions> read(const QCommandLineParser& parser,
                                                 const QProcessEnvironment& environment,
                                                 const PasswordPrompt& askPassword, QString& error);
};

} // namespace lockscope
