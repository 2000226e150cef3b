// A recording's cost beside the live path's (no etcd): the same lock events applied to the lock
// table in memory, then written to a LockHistoryStore file as the recorder writes them (WAL,
// one transaction every 200 ms or 5000 rows), and to PostgreSQL when given a URL, on this
// thread, one after the other.
#include "app/core/lock_history_store.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lock_table.h"
#include "figures.h"

#include <QTemporaryDir>
#include <cstdio>
#include <deque>

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
    // 100 locks, each a queue of two Go keys; a round releases a lock's holder (its waiter
    // acquires) and queues a new waiter: three events a round, as a busy prefix makes them.
    constexpr int locks = 100;
    const int64_t base = 0x694d000000000000;
    int64_t revision = 1;
    std::vector<mvccpb::Event> watch;
    std::vector<std::string> queued(locks * 2);
    const auto put = [&](int lock, int64_t lease) {
        mvccpb::Event event;
        event.set_type(mvccpb::Event::PUT);
        auto& kv = *event.mutable_kv();
        kv.set_key("/bench/history/lock" + std::to_string(lock) + "/" + etcd::leaseHex(lease));
        kv.set_lease(lease);
        kv.set_create_revision(++revision);
        kv.set_mod_revision(revision);
        watch.push_back(event);
        return kv.key();
    };
    std::vector<std::deque<std::string>> queues(locks);
    int64_t lease = base;
    for (int lock = 0; lock < locks; ++lock)
        for (int k = 0; k < 2; ++k)
            queues[lock].push_back(put(lock, ++lease));
    for (int round = 0; round < rounds; ++round) {
        const int lock = round % locks;
        mvccpb::Event del;
        del.set_type(mvccpb::Event::DELETE);
        del.mutable_kv()->set_key(queues[lock].front());
        del.mutable_kv()->set_mod_revision(++revision);
        watch.push_back(del);
        queues[lock].pop_front();
        queues[lock].push_back(put(lock, ++lease));
    }

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
