#include "app/core/latency_feed.h"

#include "etcdclient/clock.h"
#include "etcdclient/latency_recorder.h"

#include <QString>
#include <chrono>

namespace lockscope {

namespace {

// If this thread stalls, samples beyond this are dropped rather than piling up.
constexpr std::size_t maxPending = 10000;

} // namespace

LatencyFeed::LatencyFeed(etcd::LatencyRecorder& recorder, QObject* parent)
    : QObject(parent)
    , recorder_(recorder) {
    listenerId_ = recorder_.addListener([this](const etcd::LatencySample& sample) {
        // A failed call's time is a timeout or a refusal, not a server round trip.
        if (!sample.ok)
            return;
        const std::lock_guard lock(mutex_);
        if (pending_.size() < maxPending)
            pending_.push_back(
                {sample.method, etcd::unixSeconds(sample.finishedAt),
                 std::chrono::duration<double, std::milli>(sample.roundTrip).count()});
    });
    connect(&drainTimer_, &QTimer::timeout, this, &LatencyFeed::drain);
    drainTimer_.start(DrainIntervalMs);
}

LatencyFeed::~LatencyFeed() {
    // Once removeListener returns the listener is not running and never runs again.
    recorder_.removeListener(listenerId_);
}

void LatencyFeed::drain() {
    std::vector<Sample> batch;
    {
        const std::lock_guard lock(mutex_);
        batch.swap(pending_);
    }
    for (const Sample& sample : batch)
        emit sampled(QString::fromStdString(sample.method), sample.unixSeconds,
                     sample.milliseconds);
}

} // namespace lockscope
