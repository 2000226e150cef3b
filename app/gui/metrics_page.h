#pragma once

#include "app/core/etcd_member_metrics.h"

#include <QPointer>
#include <QWidget>
#include <optional>
#include <vector>

class QLabel;
class QTableWidget;

namespace lockscope {

class LatencyPlot;
class MetricsScraper;
class Workspace;

// The Metrics tab: etcd's own view of the cluster, from each member's /metrics (MetricsScraper).
// A table of each member now (role, leader changes, revisions, database against its quota,
// slow watchers, proposals, disk latency, or why it could not be read) above four live plots:
// leadership, leases per second (the leader's counts: it expires and renews leases), watchers and
// proposals (summed over members), and disk p99 (the slowest member).
class MetricsPage : public QWidget {
    Q_OBJECT
public:
    enum Column {
        MemberColumn,
        RoleColumn,
        LeaderChangesColumn,
        LeasesExpiredColumn,
        RevisionColumn,
        CompactedColumn,
        DatabaseColumn,
        SlowWatchersColumn,
        PendingEventsColumn,
        ProposalsPendingColumn,
        ProposalsFailedColumn,
        WalFsyncColumn,
        BackendCommitColumn,
        ReadColumn,
        ColumnCount
    };

    explicit MetricsPage(QWidget* parent = nullptr);

    void setWorkspace(Workspace* workspace); // null: stops scraping; what was shown stays
    // Scraping every `intervalMs` from the next workspace on (tests go faster).
    void setScrapeInterval(int intervalMs) { intervalMs_ = intervalMs; }

    QTableWidget* table() const { return table_; }
    LatencyPlot* leadershipPlot() const { return leadership_; }
    LatencyPlot* leasePlot() const { return leases_; }
    LatencyPlot* watcherPlot() const { return watchers_; }

private:
    struct Member {
        std::optional<EtcdMemberMetrics> last;
        double lastAt = 0;
        std::optional<EtcdMemberRates> rates;
        QString problem; // why the last read failed; empty when it worked
        bool failed() const { return !problem.isEmpty(); }
    };
    void onScraped(int member, const EtcdMemberMetrics& metrics, double unixSeconds);
    void onFailed(int member, const QString& reason);
    void showRow(int member);
    void showProblems(); // each member's reason, in full, under the table
    void plotCluster(double unixSeconds);

    QPointer<Workspace> workspace_;
    MetricsScraper* scraper_ = nullptr;
    int intervalMs_;
    std::vector<Member> members_;
    QLabel* summary_;
    QLabel* problems_;
    QTableWidget* table_;
    LatencyPlot* leadership_;
    LatencyPlot* leases_;
    LatencyPlot* watchers_;
    LatencyPlot* disk_;
};

} // namespace lockscope
