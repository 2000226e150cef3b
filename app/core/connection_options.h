#pragma once

#include "etcdclient/client_options.h"

#include <QString>
#include <optional>

class QCommandLineParser;
class QProcessEnvironment;

namespace lockscope {

// Where and how to reach etcd, read from etcdctl's flags and the ETCDCTL_* environment variables
// etcdctl reads, so a shell set up for etcdctl works unchanged. A flag wins over its variable.
struct ConnectionOptions {
    etcd::ClientOptions client;
    bool endpointsGiven = false; // false: client.endpoints holds etcdctl's default, 127.0.0.1:2379

    static void addFlags(QCommandLineParser& parser);
    // std::nullopt with `error` set (what was wrong and what to do about it) for bad input.
    static std::optional<ConnectionOptions>
    read(const QCommandLineParser& parser, const QProcessEnvironment& environment, QString& error);
};

} // namespace lockscope
