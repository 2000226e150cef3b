// `lockscopectl record` as its user runs it: a child process recording a prefix that a writer
// changes at a steady rate, beside the bench's own monitor of that prefix (the live path).
#include "app/core/lock_history_store.h"
#include "etcdclient/locks/lock_monitor.h"
#include "figures.h"
#include "lock_event_writer.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

// The CPU time `pid` has used so far, user and system, every thread: /proc/<pid>/stat.
double cpuSeconds(qint64 pid) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(file, stat);
    // The command (field 2) may hold spaces and parentheses: fields are counted after its last
    // ')'; utime and stime are fields 14 and 15, in clock ticks.
    std::istringstream fields(stat.substr(std::min(stat.size(), stat.rfind(')') + 1)));
    std::string field;
    double ticks = 0;
    for (int number = 3; number <= 15 && fields >> field; ++number)
        if (number >= 14)
            ticks += std::stod(field);
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// The lock events (not recovered) and gaps `location` holds up to `untilRevision`.
std::pair<int64_t, int64_t> recordedUpTo(const QString& location, int64_t untilRevision) {
    QString problem;
    const auto store = LockHistoryStore::openForReading(location, problem);
    LockHistoryStore::Filter filter;
    filter.untilRevision = untilRevision;
    const auto entries = store ? store->entries(filter) : std::nullopt;
    if (!entries) {
        std::fprintf(stderr, "lockscope-bench: record: %s\n",
                     qPrintable(store ? store->error() : problem));
        return {0, 0};
    }
    int64_t events = 0, gaps = 0;
    for (const auto& entry : *entries)
        if (const auto* event = std::get_if<etcd::LockEvent>(&entry))
            events += event->recovered ? 0 : 1;
        else if (std::holds_alternative<HistoryGap>(entry))
            ++gaps;
    return {events, gaps};
}

// Whether `location` holds an event at `revision` yet: what the recorder has committed.
bool recordedAt(const QString& location, int64_t revision) {
    QString problem;
    const auto store = LockHistoryStore::openForReading(location, problem);
    LockHistoryStore::Filter filter;
    filter.sinceRevision = revision;
    const auto entries = store ? store->entries(filter) : std::nullopt;
    return entries && std::any_of(entries->begin(), entries->end(), [](const auto& entry) {
               return std::holds_alternative<etcd::LockEvent>(entry);
           });
}

} // namespace

RecorderFigure measureRecorder(etcd::Client& client, const std::vector<std::string>& endpoints,
                               int eventsPerSecond, Clock::duration duration) {
    RecorderFigure figure;
    figure.eventsPerSecond = eventsPerSecond;
    const std::string prefix = "/bench/record/";
    // Its leases first: their grants are no events, and the writer outlives both watchers.
    LockEventWriter writer(client, prefix);

    QTemporaryDir dir;
    const QString file = dir.filePath("record.db");
    QStringList endpointList;
    for (const auto& endpoint : endpoints)
        endpointList << QString::fromStdString(endpoint);
    QProcess recorder;
    // Its messages, read until it says it records (live): nothing is written before that.
    recorder.setProcessChannelMode(QProcess::MergedChannels);
    recorder.start(LOCKSCOPECTL, {"--endpoints", endpointList.join(','), "record",
                                  QString::fromStdString(prefix), "--to", file});
    QByteArray said;
    while (!said.contains("recording the locks under") && recorder.waitForReadyRead(10000))
        said += recorder.readAll();
    if (!said.contains("recording the locks under")) {
        std::fprintf(stderr, "lockscope-bench: record: lockscopectl did not go live: %s\n",
                     said.constData());
        return figure;
    }

    std::atomic<int64_t> liveEvents = 0, liveRevision = 0;
    auto live = etcd::LockMonitor::create(
        client, {.prefix = prefix}, [&](const std::vector<etcd::LockEvent>& events) {
            for (const auto& event : events)
                if (!event.recovered) {
                    ++liveEvents;
                    liveRevision = std::max(liveRevision.load(), event.revision);
                }
        });
    live->start();
    while (!live->liveness().first)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));

    const double cpuBefore = cpuSeconds(recorder.processId());
    const auto began = Clock::now();
    writer.run(eventsPerSecond, duration);
    figure.cpuPercent = 100 * (cpuSeconds(recorder.processId()) - cpuBefore) /
                        std::chrono::duration<double>(Clock::now() - began).count();
    figure.achievedPerSecond = writer.achievedPerSecond();
    figure.etcdEvents = static_cast<int64_t>(writer.committed().size());

    // Both watchers are given until the last write is seen (the recorder commits every 200 ms),
    // so what one lacks then is lost, not late.
    const int64_t last = writer.lastRevision();
    const auto wrote = Clock::now();
    while (Clock::now() - wrote < std::chrono::seconds(10) &&
           (liveRevision < last || !recordedAt(file, last)))
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    figure.catchUpSeconds = std::chrono::duration<double>(Clock::now() - wrote).count();
    live.reset();
    figure.liveEvents = liveEvents;

    recorder.terminate(); // SIGTERM: it commits what waits and exits 0
    figure.exitedCleanly = recorder.waitForFinished(30000) &&
                           recorder.exitStatus() == QProcess::NormalExit &&
                           recorder.exitCode() == 0;
    if (!figure.exitedCleanly)
        std::fprintf(stderr, "lockscope-bench: record: lockscopectl did not exit cleanly: %s\n",
                     (said + recorder.readAll()).constData());
    std::tie(figure.recordedEvents, figure.gaps) = recordedUpTo(file, last);
    // After the recorder closed it the WAL is folded into the file; a -wal left is counted too.
    const qint64 bytes = QFileInfo(file).size() + QFileInfo(file + "-wal").size();
    figure.bytesPerEvent =
        figure.recordedEvents > 0
            ? static_cast<double>(bytes) / static_cast<double>(figure.recordedEvents)
            : 0;
    figure.ran = true;
    return figure;
}

} // namespace lockscope::bench
