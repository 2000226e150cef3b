// The Go anchor: the handoff our figures measure, between Go's own concurrency.Mutexes in one
// process (bench/go/main.go), and between ours and `etcdctl lock` both ways. bench/README.md
// says what each sample spans.
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "figures.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "process/go_anchor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>
#include <cstdio>
#include <future>
#include <stdexcept>
#include <thread>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;
using process::ChildProcess;

// Go's waiter watches its predecessor from the revision it read, not the one after. etcd serves
// such a watch from a catch-up pass that runs every 100 ms until the watch is current, and a
// delete meanwhile waits for that pass. After our `pause`, most samples would time that wait
// (README: about 32 ms p50), so each queue settles this long: every watch is current.
constexpr std::chrono::milliseconds settle{150};

// How long etcdctl or the Go anchor may take to start, queue, acquire or exit before the anchor
// gives up.
constexpr std::chrono::seconds patience{10};

// Why the anchor cannot be measured: Go or etcdctl missing, failing or stuck.
struct AnchorFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Go's handoff with `waiters` waiting, measured inside the Go anchor: from the holder's Unlock
// call to the next waiter's Lock returning, as ours.
Samples goHandoff(const std::string& endpoints, int waiters, int rounds) {
    Samples samples{"Go: handoff, " + std::to_string(waiters) + " waiting (in-process)", {}};
    process::GoAnchor go(endpoints,
                         {"handoff", "/bench/go-handoff/" + std::to_string(waiters), "--waiters",
                          std::to_string(waiters), "--rounds", std::to_string(rounds), "--settle",
                          std::to_string(settle.count())});
    const auto line = go.awaitLine("handoff", patience + rounds * std::chrono::seconds(1));
    if (!line || line->size() != 1)
        throw AnchorFailure("the Go anchor's handoff gave no samples: " + go.error());
    const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(line->front()));
    for (const auto value : json.object().value("samples_ms").toArray())
        samples.ms.push_back(value.toDouble());
    if (samples.ms.size() != static_cast<std::size_t>(rounds))
        throw AnchorFailure("the Go anchor's handoff printed " + line->front());
    return samples;
}

// Each sample is one handoff on a fresh queue of one holder and one waiter, under a lock name
// of its own: a key a failed sample leaves behind (until its lease expires) cannot stand in
// the next sample's queue.
class EtcdctlAnchor {
public:
    EtcdctlAnchor(etcd::Client& client, std::string endpoints)
        : client_(client)
        , session_(etcd::createSession(client, sessionTtlSeconds))
        , endpoints_(std::move(endpoints)) {
        if (!session_)
            throw AnchorFailure("no session for our side of the mixed handoffs");
    }

    // From our holder's unlock() call to the etcdctl waiter's key line.
    Samples oursToEtcdctl(int rounds) {
        Samples samples{"mixed: ours to etcdctl", {}};
        for (int i = 0; i < rounds; ++i) {
            const std::string name = freshName();
            auto ours = etcd::Mutex::create(client_, session_, name);
            etcd::lockNow(*ours);
            auto waiter = startLock(name);
            awaitQueued(name);
            std::this_thread::sleep_for(settle);
            const auto start = Clock::now();
            ours->unlock();
            awaitHolding(*waiter, name);
            samples.add(Clock::now() - start);
            release(*waiter);
        }
        return samples;
    }

    // From the signal to the etcdctl holder to our waiter's lock() completing.
    Samples etcdctlToOurs(int rounds) {
        Samples samples{"mixed: etcdctl to ours", {}};
        for (int i = 0; i < rounds; ++i) {
            const std::string name = freshName();
            auto holder = startLock(name);
            awaitHolding(*holder, name);
            auto ours = etcd::Mutex::create(client_, session_, name);
            // Shared with the callback, which may outlive this frame when a sample fails.
            auto acquired = std::make_shared<std::promise<Clock::time_point>>();
            auto acquiredAt = acquired->get_future();
            ours->lock([acquired](const etcd::Error&) { acquired->set_value(Clock::now()); });
            while (ours->state() == etcd::Mutex::State::Acquiring)
                std::this_thread::yield();
            if (ours->state() != etcd::Mutex::State::Waiting)
                throw AnchorFailure("our Mutex did not queue behind etcdctl on " + name);
            std::this_thread::sleep_for(settle);
            const auto start = Clock::now();
            holder->signal(SIGINT);
            if (acquiredAt.wait_for(patience) != std::future_status::ready)
                throw AnchorFailure("our Mutex did not acquire " + name +
                                    " after etcdctl's unlock");
            samples.add(acquiredAt.get() - start);
            etcd::unlockNow(*ours);
            awaitUnlocked(*holder);
        }
        return samples;
    }

private:
    std::string freshName() { return "/bench/go-anchor/" + std::to_string(names_++); }

    std::unique_ptr<ChildProcess> startLock(const std::string& name) {
        return std::make_unique<ChildProcess>(process::etcdctlArgs(endpoints_, {"lock", name}),
                                              std::vector<std::string>{"ETCDCTL_API=3"});
    }

    // etcdctl prints its key (name/lease) once it holds the lock.
    static void awaitHolding(ChildProcess& etcdctl, const std::string& name) {
        const auto line = etcdctl.readLine(patience);
        if (!line)
            throw AnchorFailure("`etcdctl lock " + name +
                                "` printed no key (is Debian's etcd-client installed?)");
        if (line->rfind(name + "/", 0) != 0)
            throw AnchorFailure("`etcdctl lock " + name + "` said: " + *line);
    }

    // Until a waiter's key stands behind the holder's.
    void awaitQueued(const std::string& name) {
        etcd::pb::RangeRequest count;
        count.set_key(name + "/");
        count.set_range_end(etcd::prefixRangeEnd(name + "/"));
        count.set_count_only(true);
        const auto deadline = Clock::now() + patience;
        while (true) {
            auto reply = etcd::call(client_, &etcd::Client::range, count);
            if (reply && reply->count() == 2)
                return;
            if (Clock::now() > deadline)
                throw AnchorFailure("no second key queued on " + name);
            // Poll gently: the waiter being started needs the CPU more than we do.
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    // A signalled etcdctl unlocks and exits 0.
    static void awaitUnlocked(ChildProcess& etcdctl) {
        const auto code = etcdctl.wait(patience);
        if (code != 0)
            throw AnchorFailure(code ? "`etcdctl lock` exited with " + std::to_string(*code)
                                     : std::string("`etcdctl lock` did not exit on SIGINT"));
    }

    static void release(ChildProcess& etcdctl) {
        etcdctl.signal(SIGINT);
        awaitUnlocked(etcdctl);
    }

    etcd::Client& client_;
    const std::shared_ptr<etcd::Session> session_;
    const std::string endpoints_; // comma-separated, as etcdctl takes them
    int names_ = 0;
};

} // namespace

std::vector<Samples> measureGoAnchor(etcd::Client& client,
                                     const std::vector<std::string>& endpoints,
                                     const Scale& scale) {
    std::vector<Samples> out;
    std::string endpointList;
    for (const auto& e : endpoints)
        endpointList += (endpointList.empty() ? "" : ",") + e;
    try {
        if (process::goAnchorPath().empty())
            throw AnchorFailure(process::goAnchorMissing);
        for (int waiters : scale.waiters)
            if (waiters <= 10) // a queue of 100 Go sessions adds nothing to the comparison
                out.push_back(goHandoff(endpointList, waiters, scale.anchorRounds));
    } catch (const AnchorFailure& failure) {
        std::fprintf(stderr, "lockscope-bench: no in-process Go figures: %s\n", failure.what());
    }
    try {
        EtcdctlAnchor anchor(client, endpointList);
        out.push_back(anchor.oursToEtcdctl(scale.anchorRounds));
        out.push_back(anchor.etcdctlToOurs(scale.anchorRounds));
    } catch (const AnchorFailure& failure) {
        std::fprintf(stderr, "lockscope-bench: no mixed etcdctl figures: %s\n", failure.what());
    }
    return out;
}

} // namespace lockscope::bench
