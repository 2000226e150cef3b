#pragma once

#include <QObject>
#include <QTimer>
#include <mutex>
#include <string>
#include <vector>

namespace etcd {
class LatencyRecorder;
}

namespace lockscope {

// Carries a LatencyRecorder's samples from the client's thread to this object's thread. The
// recorder's listener only appends under a mutex; a timer here drains the batch, so the GUI
// gets a few batches a second instead of one queued call per RPC.
class LatencyFeed : public QObject {
    Q_OBJECT
public:
    static constexpr int DrainIntervalMs = 200;

    // `recorder` must outlive this object (destroy the feed before its client).
    explicit LatencyFeed(etcd::LatencyRecorder& recorder, QObject* parent = nullptr);
    ~LatencyFeed() override;

signals:
    // One successful call: `unixSeconds` is when it finished.
    void sampled(const QString& method, double unixSeconds, double milliseconds);

private:
    struct Sample {
        std::string method;
        double unixSeconds;
        double milliseconds;
    };
    void drain();

    etcd::LatencyRecorder& recorder_;
    int listenerId_ = 0;
    std::mutex mutex_;
    std::vector<Sample> pending_;
    QTimer drainTimer_;
};

} // namespace lockscope
