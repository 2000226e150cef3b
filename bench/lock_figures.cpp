#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "figures.h"
#include "put_to_watch_probe.h"

#include <future>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

// `waiters` contenders queue behind a holder; each, once it holds, lets go after a pause. A
// sample is one handoff: from the holder's unlock() call to the next contender's lock
// completing.
// Each handoff follows one put-to-watch sample into `floor`, taken beside it in the same state
// (the same sessions open, the same keepalives): its p99 is what the handoff's is held to.
Samples handoff(etcd::Client& client, int waiters, int rounds, PutToWatchProbe& probe,
                Samples& floor) {
    Samples samples{"ours: handoff, " + std::to_string(waiters) + " waiting", {}};
    const std::string name = "/bench/handoff/" + std::to_string(waiters);
    std::vector<std::shared_ptr<etcd::Session>> sessions;
    std::vector<std::shared_ptr<etcd::Mutex>> mutexes;
    for (int i = 0; i <= waiters; ++i) {
        sessions.push_back(etcd::createSession(client, sessionTtlSeconds));
        mutexes.push_back(etcd::Mutex::create(client, sessions.back(), name));
    }
    const int handoffsPerRound = waiters;
    for (int round = 0; round * handoffsPerRound < rounds; ++round) {
        etcd::lockNow(*mutexes[0]);
        std::vector<std::promise<Clock::time_point>> acquired(waiters + 1);
        for (int i = 1; i <= waiters; ++i) {
            mutexes[i]->lock(
                [&acquired, i](const etcd::Error&) { acquired[i].set_value(Clock::now()); });
            while (mutexes[i]->state() != etcd::Mutex::State::Waiting)
                std::this_thread::yield(); // queue in a known order
        }
        // Let every waiter's watch be established, so a handoff measures only the handoff; the
        // floor's put-to-watch samples get the same pause.
        std::this_thread::sleep_for(pause);
        for (int i = 0; i < waiters; ++i) {
            // The same pause before each handoff as before each put-to-watch sample: back to
            // back, a handoff also met the previous one's trailing traffic (its delete's answer,
            // the new holder's callbacks), which the floor never does.
            floor.add(probe.sample());
            std::this_thread::sleep_for(pause);
            const auto start = Clock::now();
            mutexes[i]->unlock();
            samples.add(acquired[i + 1].get_future().get() - start);
        }
        etcd::unlockNow(*mutexes[waiters]);
    }
    return samples;
}

} // namespace

std::string putToWatchBeside(int waiters) {
    return waiters == 1
               ? "floor: put to watch event"
               : "floor: put to watch event, beside " + std::to_string(waiters) + " waiting";
}

std::vector<Samples> measureLocks(etcd::Client& client, const Scale& scale) {
    Samples bareTxn{"floor: bare Txn (an acquire's own Txn)", {}};
    Samples acquire{"ours: uncontended acquire, open session", {}};
    Samples withSession{"ours: acquire with session creation", {}};
    Samples release{"ours: release", {}};
    auto session = etcd::createSession(client, sessionTtlSeconds);
    auto mutex = etcd::Mutex::create(client, session, "/bench/uncontended");
    // The floor for acquire is the very Txn it sends, sent bare under another prefix; taking
    // the two samples in turn exposes both to the same noise on a shared machine.
    const std::string barePrefix = "/bench/bare/";
    const std::string bareKey = barePrefix + etcd::leaseHex(session->leaseId());
    const auto bare = etcd::acquireTxn(barePrefix, bareKey, session->leaseId());
    etcd::pb::DeleteRangeRequest bareDelete;
    bareDelete.set_key(bareKey);
    for (int i = 0; i < scale.rounds; ++i) {
        auto start = Clock::now();
        etcd::call(client, &etcd::Client::txn, bare);
        bareTxn.add(Clock::now() - start);
        etcd::call(client, &etcd::Client::deleteRange, bareDelete);

        start = Clock::now();
        etcd::lockNow(*mutex);
        acquire.add(Clock::now() - start);
        start = Clock::now();
        etcd::unlockNow(*mutex);
        release.add(Clock::now() - start);
    }
    // In a loop of its own: a session's grant, keepalive stream and revoke would otherwise
    // disturb the acquire figure above.
    for (int i = 0; i < scale.rounds; ++i) {
        const auto start = Clock::now();
        auto fresh = etcd::createSession(client, sessionTtlSeconds);
        auto m = etcd::Mutex::create(client, fresh, "/bench/with-session");
        etcd::lockNow(*m);
        withSession.add(Clock::now() - start);
        etcd::unlockNow(*m);
        std::promise<void> closed;
        fresh->close([&](const etcd::Error&) { closed.set_value(); });
        closed.get_future().wait();
    }
    std::vector<Samples> out = {bareTxn, acquire, withSession, release};
    std::vector<Samples> floors;
    PutToWatchProbe probe(client, "/bench/floor/watched");
    for (int waiters : scale.waiters) {
        floors.push_back({putToWatchBeside(waiters), {}});
        out.push_back(handoff(client, waiters, scale.rounds, probe, floors.back()));
    }
    out.insert(out.begin(), floors.begin(), floors.end());
    return out;
}

} // namespace lockscope::bench
