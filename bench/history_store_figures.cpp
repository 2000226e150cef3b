// A recording's cost beside the live path's (no etcd): the same lock events applied to the lock
// table in memory, then written to a LockHistoryStore file as the recorder writes them (WAL,
// one transaction every 200 ms or 5000 rows), and to PostgreSQL when given a URL, on this
// thread, one after the other.
#include "app/core/lock_history_store.h"
#include "etcdclient/locks/lock_table.h"
#include "figures.h"
#include "handoff_watch.h"

#include <QTemporaryDir>
#include <cstdio>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration span) {
    return std::chrono::duration<double>(span).count();
}

// `events` written into a store at `location` as LockRecorder writes them: a commit every
// 200 ms (and at the store's batch limit).
HistoryWriteFigure writeHistory(const QString& location,
                                const std::vector<etcd::LockEvent>& events) {
    HistoryWriteFigure figure;
    QString problem;
    auto store = LockHistoryStore::openForWriting(location, "bench", "/bench/history/", problem);
    const auto before = store ? store->storedBytes() : std::nullopt;
    if (!before) {
        std::fprintf(stderr, "lockscope-bench: history: %s\n",
                     qPrintable(store ? store->error() : problem));
        figure.failed = true;
        return figure;
    }
    const auto began = Clock::now();
    auto committed = began;
    for (const auto& event : events) {
        store->write(event);
        if (const auto now = Clock::now(); now - committed >= std::chrono::milliseconds(200)) {
            store->commit();
            committed = now;
        }
    }
    store->commit();
    figure.perSecond = static_cast<double>(events.size()) / seconds(Clock::now() - began);
    const auto after = store->storedBytes();
    figure.failed = !store->error().isEmpty() || !after;
    figure.bytesPerEvent =
        static_cast<double>(after.value_or(*before) - *before) / static_cast<double>(events.size());
    return figure;
}

} // namespace

HistoryStoreFigure measureHistoryStore(int rounds, const std::string& postgresUrl) {
    HistoryStoreFigure figure;
    const std::vector<mvccpb::Event> watch = handoffWatch("/bench/history/", rounds);
    etcd::LockTable table;
    table.load({}, 1, std::chrono::system_clock::now());
    std::vector<etcd::LockEvent> events;
    events.reserve(watch.size() * 2);
    auto began = Clock::now();
    for (const auto& event : watch) {
        const auto applied =
            table.apply(event, event.kv().mod_revision(), std::chrono::system_clock::now());
        events.insert(events.end(), applied.begin(), applied.end());
    }
    figure.events = static_cast<int64_t>(events.size());
    figure.applyPerSecond = static_cast<double>(events.size()) / seconds(Clock::now() - began);

    QTemporaryDir dir;
    figure.file = writeHistory(dir.filePath("history.db"), events);
    if (!postgresUrl.empty())
        figure.postgres = writeHistory(QString::fromStdString(postgresUrl), events);
    return figure;
}

} // namespace lockscope::bench
