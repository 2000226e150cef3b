#pragma once

#include "app/core/connection_options.h"
#include "app/ctl/lock_metrics.h"
#include "app/ctl/lock_recording.h"
#include "etcdclient/client.h"
#include "etcdclient/locks/lock_monitor.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <QObject>
#include <QTimer>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace lockscope {

class LockRecording;

// One cluster that `lockscopectl exporter` serves: its client, the lock monitor over the
// prefix, the metrics its events feed (labelled with the profile's name, when it has one),
// etcd's alarms asked every second, and the recording, when one is asked for. Lives on the
// application's thread, where scrapes read it; the monitor's events are posted there, and a
// post arriving after the cluster is gone is dropped.
class ExportedCluster : public QObject {
public:
    struct Settings {
        std::string prefix;
        etcd::RecipeOverride recipe = etcd::RecipeOverride::Auto;
        std::size_t maxLocks = 1000;
        QString recordTo; // empty: no recording
        RecordingOptions recording;
    };

    // Null, once said why (the exit code in `exitCode`), when the recording cannot be opened or
    // the client cannot be set up.
    static std::unique_ptr<ExportedCluster> create(const ConnectionOptions& connection,
                                                   const Settings& settings, int& exitCode);
    ~ExportedCluster() override;

    void start();
    // Stops the monitor; then commits what the recording holds (false when that failed, said).
    bool stop();

    // The name its series carry (the profile's), empty for a cluster given by its endpoints.
    const QString& name() const { return name_; }
    // Its series now (LockMetrics::families).
    std::vector<prometheus::MetricFamily> families();
    // Why it cannot be vouched for now (not watching, or an etcd alarm raised), or nothing.
    std::optional<std::string> unhealthy() const;

private:
    ExportedCluster(const ConnectionOptions& connection, const Settings& settings,
                    std::unique_ptr<etcd::Client> client, std::unique_ptr<LockRecording> recording);
    void askAlarms();

    const QString name_;
    std::unique_ptr<LockRecording> recording_;
    std::unique_ptr<etcd::Client> client_;
    LockMetrics metrics_;
    std::shared_ptr<etcd::LockMonitor> monitor_;
    etcd::LockMonitorState state_;
    etcd::WaitForGraph graph_; // kept from what each scrape's update copied
    QTimer alarmPoll_;
    bool askingAlarms_ = false; // one call at a time
};

} // namespace lockscope
