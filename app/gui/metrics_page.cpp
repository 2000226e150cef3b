#include "app/gui/metrics_page.h"

#include "app/core/endpoint_status_model.h"
#include "app/core/workspace.h"
#include "app/gui/metrics_scraper.h"
#include "widgets/latency_plot.h"
#include "widgets/titled_box.h"

#include <QDateTime>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace lockscope {

namespace {

constexpr double PlotWindowSeconds = 300;

QString count(double value) {
    return QString::number(value, 'f', 0);
}

QString milliseconds(const std::optional<double>& seconds) {
    return seconds ? MetricsPage::tr("%1 ms").arg(*seconds * 1000.0, 0, 'f', 1)
                   : MetricsPage::tr("none");
}

QString role(const EtcdMemberMetrics& metrics) {
    if (metrics.isLeader)
        return MetricsPage::tr("leader");
    return metrics.hasLeader ? MetricsPage::tr("follower") : MetricsPage::tr("no leader");
}

} // namespace

MetricsPage::MetricsPage(QWidget* parent)
    : QWidget(parent)
    , intervalMs_(MetricsScraper::DefaultIntervalMs)
    , summary_(new QLabel)
    , problems_(new QLabel)
    , table_(new QTableWidget(0, ColumnCount))
    , leadership_(new LatencyPlot)
    , leases_(new LatencyPlot)
    , watchers_(new LatencyPlot)
    , disk_(new LatencyPlot) {
    summary_->setObjectName("metricsSummary");
    summary_->setWordWrap(true);
    summary_->setText(tr("etcd's own metrics, read from each member's /metrics."));
    problems_->setObjectName("metricsProblems");
    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->setStyleSheet("color: #b00020;");
    problems_->hide();
    table_->setObjectName("memberMetricsTable");
    table_->setHorizontalHeaderLabels(
        {tr("Member"), tr("Role"), tr("Leader changes"), tr("Leases expired"), tr("Revision"),
         tr("Compacted"), tr("Database of quota"), tr("Slow watchers"), tr("Pending events"),
         tr("Proposals pending"), tr("Proposals failed"), tr("WAL fsync p99"), tr("Commit p99"),
         tr("Read")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false); // a longer value later elides rather than doubling the row
    table_->horizontalHeaderItem(PendingEventsColumn)
        ->setToolTip(tr("etcd's etcd_debugging_mvcc_pending_events_total. etcd 3.4 counts every "
                        "event a filtered watch drops as pending and never takes it back, and "
                        "lock waiters (Go's, etcdctl's and ours) watch without PUT events: so it "
                        "climbs with lock traffic on the member they watch. Read a jump, not "
                        "the level."));

    leadership_->setObjectName("leadershipPlot");
    leases_->setObjectName("leasePlot");
    watchers_->setObjectName("watcherPlot");
    disk_->setObjectName("diskPlot");
    leadership_->setValueLabel(tr("members"));
    leases_->setValueLabel(tr("per second"));
    watchers_->setValueLabel(tr("count"));
    disk_->setValueLabel(tr("milliseconds"));
    auto* plots = new QWidget;
    auto* grid = new QGridLayout(plots);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(titledBox(tr("Leadership"), leadership_), 0, 0);
    grid->addWidget(titledBox(tr("Leases (the leader's counts)"), leases_), 0, 1);
    grid->addWidget(titledBox(tr("Watchers and proposals (all members)"), watchers_), 1, 0);
    grid->addWidget(titledBox(tr("Disk latency (slowest member)"), disk_), 1, 1);
    for (LatencyPlot* plot : {leadership_, leases_, watchers_, disk_})
        plot->setWindowSeconds(PlotWindowSeconds);

    auto* members = new QWidget;
    auto* membersLayout = new QVBoxLayout(members);
    membersLayout->setContentsMargins(0, 0, 0, 0);
    membersLayout->addWidget(table_, 1);
    membersLayout->addWidget(problems_);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(members);
    splitter->addWidget(plots);
    splitter->setSizes({140, 460});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(splitter, 1);
}

void MetricsPage::setWorkspace(Workspace* workspace) {
    delete scraper_; // aborts its requests: no answer for the last connection arrives
    scraper_ = nullptr;
    workspace_ = workspace;
    if (!workspace || workspace->ending())
        return;
    scraper_ = new MetricsScraper(workspace->options(), this);
    members_.assign(scraper_->urls().size(), Member{});
    showProblems();
    table_->setRowCount(static_cast<int>(members_.size()));
    for (int member = 0; member < table_->rowCount(); ++member) {
        for (int column = 0; column < ColumnCount; ++column)
            table_->setItem(member, column, new QTableWidgetItem);
        table_->item(member, MemberColumn)->setText(scraper_->urls()[member].authority());
        table_->item(member, ReadColumn)->setText(tr("reading…"));
    }
    summary_->setText(tr("etcd's own metrics, read from each member's /metrics every %1 s.")
                          .arg(intervalMs_ / 1000.0));
    connect(scraper_, &MetricsScraper::scraped, this, &MetricsPage::onScraped);
    connect(scraper_, &MetricsScraper::failed, this, &MetricsPage::onFailed);
    scraper_->start(intervalMs_);
}

void MetricsPage::onScraped(int member, const EtcdMemberMetrics& metrics, double unixSeconds) {
    Member& m = members_.at(member);
    const bool first = !m.last;
    if (m.last)
        m.rates = ratesBetween(*m.last, metrics, unixSeconds - m.lastAt);
    m.last = metrics;
    m.lastAt = unixSeconds;
    m.problem.clear();
    showRow(member);
    if (first) // once: sizing to every new value would make the columns jitter
        table_->resizeColumnsToContents();
    // A value that outgrows its column (the database grows, a header shorter than its values
    // in another language) widens it; columns never narrow, so they do not jitter.
    for (int column = 0; column < table_->columnCount(); ++column) {
        const int width = table_->columnWidth(column);
        table_->resizeColumnToContents(column);
        table_->setColumnWidth(column, std::max(width, table_->columnWidth(column)));
    }
    QTableWidgetItem* read = table_->item(member, ReadColumn);
    read->setText(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(unixSeconds * 1000))
                      .toString("HH:mm:ss"));
    read->setToolTip(metrics.missing.empty()
                         ? QString()
                         : tr("Not served by this etcd: %1")
                               .arg(QString::fromStdString(metrics.missing.front())));
    read->setForeground(palette().text());
    plotCluster(unixSeconds);
    showProblems();
}

void MetricsPage::onFailed(int member, const QString& reason) {
    members_.at(member).problem = reason;
    QTableWidgetItem* read = table_->item(member, ReadColumn);
    read->setText(tr("not read: %1").arg(reason));
    read->setToolTip(reason);
    read->setForeground(Qt::red);
    // What was read before stays, greyed; the role is unknown now.
    for (int column = RoleColumn; column < ReadColumn; ++column)
        table_->item(member, column)->setForeground(palette().placeholderText());
    table_->item(member, RoleColumn)->setText(tr("not answering"));
    table_->item(member, RoleColumn)->setForeground(Qt::red);
    table_->resizeColumnToContents(RoleColumn);
    plotCluster(static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
    showProblems();
}

void MetricsPage::showProblems() {
    QStringList lines;
    for (const Member& m : members_)
        if (m.failed())
            lines << m.problem;
    problems_->setText(lines.join('\n'));
    problems_->setVisible(!lines.isEmpty());
}

void MetricsPage::showRow(int member) {
    const Member& m = members_.at(member);
    const EtcdMemberMetrics& metrics = *m.last;
    auto set = [&](int column, const QString& text) {
        QTableWidgetItem* item = table_->item(member, column);
        item->setText(text);
        item->setForeground(palette().text());
    };
    set(RoleColumn, role(metrics));
    if (!metrics.hasLeader)
        table_->item(member, RoleColumn)->setForeground(Qt::red);
    set(LeaderChangesColumn, count(metrics.leaderChanges));
    set(LeasesExpiredColumn, count(metrics.leasesExpired));
    set(RevisionColumn, count(metrics.currentRevision));
    // etcd serves -1 until the first compaction.
    set(CompactedColumn,
        metrics.compactRevision < 0 ? tr("never") : count(metrics.compactRevision));
    const double used =
        metrics.quotaBytes > 0 ? 100.0 * metrics.dbSizeBytes / metrics.quotaBytes : 0;
    set(DatabaseColumn, tr("%1 of %2 (%3%)")
                            .arg(EndpointStatusModel::formatByteSize(metrics.dbSizeBytes),
                                 EndpointStatusModel::formatByteSize(metrics.quotaBytes))
                            .arg(used, 0, 'f', 1));
    table_->item(member, DatabaseColumn)
        ->setToolTip(
            tr("%1 in use").arg(EndpointStatusModel::formatByteSize(metrics.dbSizeInUseBytes)));
    set(SlowWatchersColumn, count(metrics.slowWatchers));
    set(PendingEventsColumn, count(metrics.pendingEvents));
    set(ProposalsPendingColumn, count(metrics.proposalsPending));
    set(ProposalsFailedColumn, count(metrics.proposalsFailed));
    set(WalFsyncColumn, m.rates ? milliseconds(m.rates->walFsyncP99Seconds) : tr("…"));
    set(BackendCommitColumn, m.rates ? milliseconds(m.rates->backendCommitP99Seconds) : tr("…"));
}

// What each plot draws follows the metric's type in etcd's documentation (etcd.io/docs, "etcd
// metrics"): a gauge (slow watchers, proposals pending) as its level, a counter (proposals
// failed, lease grants, revokes, renewals, expiries) as a rate. Leader changes are a counter too,
// rare enough that a rate says nothing: the table counts them. etcd documents pending events as
// a gauge, but 3.4 never takes back what filtered watches drop, so its level only climbs with
// lock traffic: it is not drawn, the table shows it with that warning.
void MetricsPage::plotCluster(double unixSeconds) {
    double withoutLeader = 0;
    double notAnswering = 0;
    double slowWatchers = 0;
    double proposalsPending = 0;
    double proposalsFailed = 0;
    std::optional<double> walFsync;
    std::optional<double> backendCommit;
    const Member* leader = nullptr;
    for (const Member& m : members_) {
        notAnswering += m.failed() ? 1 : 0;
        if (m.failed() || !m.last)
            continue;
        withoutLeader += m.last->hasLeader ? 0 : 1;
        slowWatchers += m.last->slowWatchers;
        proposalsPending += m.last->proposalsPending;
        if (m.last->isLeader)
            leader = &m;
        if (!m.rates)
            continue;
        proposalsFailed += m.rates->proposalsFailedPerSecond;
        for (auto [slowest, p99] : {std::pair{&walFsync, m.rates->walFsyncP99Seconds},
                                    std::pair{&backendCommit, m.rates->backendCommitP99Seconds}})
            if (p99)
                *slowest = std::max(slowest->value_or(0), *p99);
    }
    leadership_->addPoint(tr("members without a leader"), unixSeconds, withoutLeader);
    leadership_->addPoint(tr("members not answering"), unixSeconds, notAnswering);
    if (leader && leader->rates) {
        leases_->addPoint(tr("expired"), unixSeconds, leader->rates->leasesExpiredPerSecond);
        leases_->addPoint(tr("granted"), unixSeconds, leader->rates->leasesGrantedPerSecond);
        leases_->addPoint(tr("revoked"), unixSeconds, leader->rates->leasesRevokedPerSecond);
        leases_->addPoint(tr("renewed"), unixSeconds, leader->rates->leasesRenewedPerSecond);
    }
    watchers_->addPoint(tr("slow watchers"), unixSeconds, slowWatchers);
    watchers_->addPoint(tr("proposals pending"), unixSeconds, proposalsPending);
    watchers_->addPoint(tr("proposals failed per second"), unixSeconds, proposalsFailed);
    if (walFsync)
        disk_->addPoint(tr("WAL fsync p99"), unixSeconds, *walFsync * 1000.0);
    if (backendCommit)
        disk_->addPoint(tr("backend commit p99"), unixSeconds, *backendCommit * 1000.0);
}

} // namespace lockscope
