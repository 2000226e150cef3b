// lockscopectl snapshot (--json, and text) beside etcdctl get (-w json, and text), as whole
// processes on one prefix.
#include "figures.h"
#include "lock_key_fill.h"
#include "session_leases.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace lockscope::bench {

namespace {

struct ProcessRun {
    double seconds = 0, cpuSeconds = 0, peakMb = 0;
    bool ok = false;
};

// Runs `argv` with its output thrown away, through lockscope-command-usage (so that its peak is
// its own, not this process's copied by fork): its wall time, CPU time and peak resident set.
ProcessRun runProcess(const std::vector<std::string>& argv) {
    std::vector<char*> args = {const_cast<char*>(COMMAND_USAGE)};
    for (const auto& arg : argv)
        args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) // no other child keeps it open
        return {};
    const auto began = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(report[1], STDOUT_FILENO);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(report[1]);
    std::string line;
    char buffer[128];
    for (ssize_t got; (got = ::read(report[0], buffer, sizeof buffer)) > 0;)
        line.append(buffer, static_cast<std::size_t>(got));
    ::close(report[0]);
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
        return {};
    ProcessRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    int exitCode = -1;
    long long cpuMicroseconds = 0;
    long peakKb = 0;
    if (std::sscanf(line.c_str(), "%d %lld %ld", &exitCode, &cpuMicroseconds, &peakKb) != 3)
        return {};
    run.cpuSeconds = static_cast<double>(cpuMicroseconds) / 1e6;
    run.peakMb = static_cast<double>(peakKb) / 1024.0;
    run.ok = exitCode == 0;
    return run;
}

// The median of one figure of `runs`.
double median(const std::vector<ProcessRun>& runs, double ProcessRun::*figure) {
    std::vector<double> values;
    for (const ProcessRun& run : runs)
        values.push_back(run.*figure);
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

} // namespace

SnapshotCommandFigure measureSnapshotCommand(etcd::Client& client,
                                             const std::vector<std::string>& endpoints,
                                             const MonitorShape& shape, int runs) {
    SnapshotCommandFigure figure;
    figure.shape = shape;
    const std::string prefix = "/bench-snapshot/";
    // A session per contender of a lock, as Go's clients hold them: few leases to look up.
    SessionLeases sessions(client, shape.keysPerLock, 600);
    figure.leases = static_cast<int>(sessions.ids().size());
    fillLockKeys(client, prefix, shape, sessions.ids());
    std::string endpointList;
    for (const auto& endpoint : endpoints)
        endpointList += (endpointList.empty() ? "" : ",") + endpoint;
    const std::vector<std::string> oursJson = {LOCKSCOPECTL, "--endpoints", endpointList,
                                               "snapshot",   prefix,        "--json"};
    const std::vector<std::string> theirsJson = {"etcdctl",  "--endpoints", endpointList, "get",
                                                 "--prefix", prefix,        "-w",         "json"};
    const std::vector<std::string> oursText = {LOCKSCOPECTL, "--endpoints", endpointList,
                                               "snapshot", prefix};
    const std::vector<std::string> theirsText = {"etcdctl", "--endpoints", endpointList,
                                                 "get",     "--prefix",    prefix};
    // Ours and etcdctl's runs of one form, alternately, so a busy moment of the machine falls on
    // both alike; false when either could not be run.
    auto measure = [&](const std::vector<std::string>& ours, const std::vector<std::string>& theirs,
                       SnapshotCommandFigure::Pair& pair) {
        std::vector<ProcessRun> oursRuns, theirRuns;
        for (int i = 0; i < runs; ++i) {
            oursRuns.push_back(runProcess(ours));
            theirRuns.push_back(runProcess(theirs));
            if (!oursRuns.back().ok || !theirRuns.back().ok) {
                std::fprintf(stderr, "lockscope-bench: snapshot: %s could not be run\n",
                             oursRuns.back().ok ? "etcdctl" : "lockscopectl");
                return false;
            }
        }
        pair.oursSeconds = median(oursRuns, &ProcessRun::seconds);
        pair.oursCpuSeconds = median(oursRuns, &ProcessRun::cpuSeconds);
        pair.oursPeakMb = median(oursRuns, &ProcessRun::peakMb);
        pair.etcdctlSeconds = median(theirRuns, &ProcessRun::seconds);
        pair.etcdctlCpuSeconds = median(theirRuns, &ProcessRun::cpuSeconds);
        pair.etcdctlPeakMb = median(theirRuns, &ProcessRun::peakMb);
        return true;
    };
    if (!measure(oursJson, theirsJson, figure.json) || !measure(oursText, theirsText, figure.text))
        return figure;
    figure.ran = true;
    return figure;
}

} // namespace lockscope::bench
