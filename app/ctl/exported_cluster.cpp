#include "app/ctl/exported_cluster.h"

#include "app/core/guarded_post.h"
#include "app/core/json_writer.h"
#include "app/ctl/ctl_command.h"
#include "app/ctl/lock_recording.h"
#include "app/ctl/monitor_retry.h"
#include "etcdclient/alarms.h"

namespace lockscope {

std::unique_ptr<ExportedCluster> ExportedCluster::create(const ConnectionOptions& connection,
                                                         const Settings& settings, int& exitCode) {
    std::unique_ptr<LockRecording> recording;
    if (!settings.recordTo.isEmpty() &&
        !(recording = LockRecording::open(settings.recordTo, connection, settings.prefix,
                                          settings.recording, LockRecording::OnFailure::GoOn))) {
        exitCode = ExitFailed;
        return nullptr;
    }
    auto client = lockscope::connect(connection, exitCode);
    if (!client)
        return nullptr;
    return std::unique_ptr<ExportedCluster>(
        new ExportedCluster(connection, settings, std::move(client), std::move(recording)));
}

ExportedCluster::ExportedCluster(const ConnectionOptions& connection, const Settings& settings,
                                 std::unique_ptr<etcd::Client> client,
                                 std::unique_ptr<LockRecording> recording)
    : name_(connection.profile)
    , recording_(std::move(recording))
    , client_(std::move(client))
    , metrics_(settings.maxLocks, connection.profile.toStdString()) {
    // Events are counted on the application's thread, where scrapes read them: no lock needed.
    const QPointer<ExportedCluster> self(this);
    LockRecordingFeed* feed = recording_ ? &recording_->feed() : nullptr;
    auto weak = std::make_shared<std::weak_ptr<etcd::LockMonitor>>();
    auto onEvents = [self, weak, feed](const std::vector<etcd::LockEvent>& events) {
        if (const auto monitor = feed ? weak->lock() : nullptr)
            feed->onEvents(*monitor, events);
        if (!events.empty())
            postGuarded(self,
                        [events](ExportedCluster* cluster) { cluster->metrics_.observe(events); });
    };
    monitor_ =
        etcd::LockMonitor::create(*client_, {.prefix = settings.prefix, .recipe = settings.recipe},
                                  onEvents, [](const auto& retry) { reportMonitorRetry(retry); });
    *weak = monitor_;
    // While NOSPACE is raised etcd refuses every write, so the locks under watch cannot change
    // hands, whatever the monitor sees.
    connect(&alarmPoll_, &QTimer::timeout, this, &ExportedCluster::askAlarms);
}

ExportedCluster::~ExportedCluster() {
    monitor_->stop();
}

void ExportedCluster::start() {
    monitor_->start();
    askAlarms();
    alarmPoll_.start(1000);
}

bool ExportedCluster::stop() {
    alarmPoll_.stop();
    monitor_->stop();
    return !recording_ || recording_->finish();
}

void ExportedCluster::askAlarms() {
    if (askingAlarms_)
        return;
    askingAlarms_ = true;
    const QPointer<ExportedCluster> self(this);
    client_->alarms({}, [self](etcd::Result<etcd::pb::AlarmResponse> reply) {
        // Unknown (no series, no verdict) while the call fails.
        std::optional<std::vector<etcd::RaisedAlarm>> raised;
        if (reply)
            raised = etcd::raisedAlarms(*reply);
        postGuarded(self, [raised](ExportedCluster* cluster) {
            cluster->askingAlarms_ = false;
            cluster->metrics_.setAlarms(raised);
        });
    });
}

std::vector<prometheus::MetricFamily> ExportedCluster::families() {
    graph_.apply(monitor_->update(state_), state_.locks);
    return metrics_.families(state_, graph_, std::chrono::steady_clock::now());
}

std::optional<std::string> ExportedCluster::unhealthy() const {
    if (const auto [live, status] = monitor_->liveness(); !live) {
        // Since the last word heard from etcd, when it was watching before.
        const auto outage = monitor_->outage();
        const std::string since =
            outage && !outage->until ? " since " + isoTime(outage->since) : std::string();
        return "not watching" + since + ": " + status;
    }
    if (const auto& alarms = metrics_.alarms(); alarms && !alarms->empty())
        return "etcd alarm: " + etcd::describeAlarms(*alarms);
    return std::nullopt;
}

} // namespace lockscope
