#pragma once
// A test on a real etcd that runs lockscopectl (LOCKSCOPECTL, the built binary) and real
// `etcdctl lock` processes against it.

#include "process/child_process.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"

#include <QByteArray>
#include <QProcess>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockscope::test {

// The HTTP status and body (trimmed) of a GET, whatever the status; -1 when curl failed.
inline std::pair<int, QByteArray> httpGet(const std::string& url) {
    QProcess curl;
    curl.setProcessChannelMode(QProcess::MergedChannels);
    curl.start("curl",
               {"-s", "-S", "-m", "5", "-w", "\n%{http_code}", QString::fromStdString(url)});
    if (!curl.waitForFinished(10000) || curl.exitCode() != 0)
        return {-1, curl.readAll()};
    const QByteArray out = curl.readAll();
    const qsizetype cut = out.lastIndexOf('\n');
    return {out.mid(cut + 1).toInt(), out.left(cut).trimmed()};
}

class LockscopectlTest : public EtcdTest {
protected:
    // `lockscopectl --endpoints <this etcd> args...`, running, with `environment` (NAME=value)
    // added to ours.
    std::unique_ptr<process::ChildProcess> lockscopectl(std::vector<std::string> args,
                                                        std::vector<std::string> environment = {}) {
        return lockscopectlOn(cluster().endpointList(), std::move(args), std::move(environment));
    }
    // The same on another etcd (one started with flags of its own).
    static std::unique_ptr<process::ChildProcess>
    lockscopectlOn(const std::string& endpoints, std::vector<std::string> args,
                   std::vector<std::string> environment = {}) {
        std::vector<std::string> argv = {LOCKSCOPECTL, "--endpoints", endpoints};
        argv.insert(argv.end(), args.begin(), args.end());
        return std::make_unique<process::ChildProcess>(argv, std::move(environment));
    }
    // Runs lockscopectl to its end: its exit code and every line it printed.
    std::pair<std::optional<int>, std::vector<std::string>>
    runToEnd(const std::vector<std::string>& args) {
        auto child = lockscopectl(args);
        std::vector<std::string> lines;
        while (auto line = child->readLine(std::chrono::seconds(15)))
            lines.push_back(*line);
        return {child->wait(std::chrono::seconds(15)), lines};
    }
    std::unique_ptr<process::ChildProcess> etcdctlLock(const std::string& name) {
        return lockscope::test::etcdctlLock(cluster().endpointList(), name);
    }
};

} // namespace lockscope::test
