#include "app/gui/cluster_page.h"

#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/endpoint_status_model.h"
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

    splitter_->setObjectName("clusterSplitter");
    splitter_->addWidget(titledBox(tr("Members"), statusTable));
    splitter_->addWidget(
        titledBox(tr("Round trip by RPC method (right-click to export)"), latencyPlot_));
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 3);
    splitter_->setSizes({180, 420});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);
}

void ClusterPage::setWorkspace(Workspace* workspace) {
    if (workspace_ && workspace_->session())
        workspace_->session()->disconnect(latencyPlot_);
    if (workspace_ && workspace_->probe())
        workspace_->probe()->disconnect(statusModel_);
    workspace_ = workspace;
    if (!workspace || workspace->ending())
        return;
    connect(workspace->session(), &ClusterSession::latencySampled, latencyPlot_,
            &LatencyPlot::addPoint);
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
