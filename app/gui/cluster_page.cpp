#include "app/gui/cluster_page.h"

#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/endpoint_status_model.h"
#include "app/core/waiting_call.h"
#include "app/core/workspace.h"
#include "widgets/latency_plot.h"
#include "widgets/titled_box.h"

#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace lockscope {

ClusterPage::ClusterPage(QWidget* parent)
    : QWidget(parent)
    , statusModel_(new EndpointStatusModel(this))
    , latencyPlot_(new LatencyPlot)
    , waitPlot_(new LatencyPlot)
    , splitter_(new QSplitter(Qt::Vertical)) {
    auto* statusTable = new QTableView;
    statusTable->setObjectName("endpointStatusTable");
    statusTable->setModel(statusModel_);
    statusTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    statusTable->setAlternatingRowColors(true);
    statusTable->verticalHeader()->hide();
    statusTable->horizontalHeader()->setStretchLastSection(true);
    // Size the columns once, when the rows first appear: ResizeToContents would rescan every
    // row on every refresh.
    connect(statusModel_, &QAbstractItemModel::rowsInserted, statusTable,
            &QTableView::resizeColumnsToContents);
    statusTable->resizeColumnsToContents();

    latencyPlot_->setObjectName("latencyPlot");
    latencyPlot_->setWindowSeconds(120);
    waitPlot_->setObjectName("serverWaitPlot");
    waitPlot_->setWindowSeconds(120);
    waitPlot_->setDurationLabel(tr("wait"));
    waitPlot_->setEmptyText(tr("No Lock.Lock or Election.Campaign call yet"));

    splitter_->setObjectName("clusterSplitter");
    splitter_->addWidget(titledBox(tr("Members"), statusTable));
    splitter_->addWidget(
        titledBox(tr("Round trip by RPC method (right-click to export)"), latencyPlot_));
    splitter_->addWidget(titledBox(tr("Waits on the server: etcd's Lock and Election services "
                                      "answer once the lock is ours or we lead"),
                                   waitPlot_));
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 3);
    splitter_->setStretchFactor(2, 1);
    splitter_->setSizes({180, 300, 160});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);
}

void ClusterPage::setWorkspace(Workspace* workspace) {
    if (workspace_ && workspace_->session())
        workspace_->session()->disconnect(this);
    if (workspace_ && workspace_->probe())
        workspace_->probe()->disconnect(statusModel_);
    workspace_ = workspace;
    if (!workspace || workspace->ending())
        return;
    // A call the server holds until a lock is ours would flatten every round trip to nothing.
    connect(workspace->session(), &ClusterSession::latencySampled, this,
            [this](const QString& method, double unixSeconds, double milliseconds) {
                (waitsOnTheServer(method) ? waitPlot_ : latencyPlot_)
                    ->addPoint(method, unixSeconds, milliseconds);
            });
    connect(workspace->probe(), &ClusterStatusProbe::updated, statusModel_,
            &EndpointStatusModel::setRows);
}

void ClusterPage::saveState(QSettings& settings) const {
    settings.setValue("window/clusterSplitter", splitter_->saveState());
}

void ClusterPage::restoreState(const QSettings& settings) {
    splitter_->restoreState(settings.value("window/clusterSplitter").toByteArray());
}

} // namespace lockscope
