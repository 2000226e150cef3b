#include "app/gui/fleet_page.h"

#include "app/core/fleet_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace lockscope {

FleetPage::FleetPage(FleetModel* model, QWidget* parent)
    : QWidget(parent)
    , sorted_(new QSortFilterProxyModel(this))
    , table_(new QTableView) {
    sorted_->setSourceModel(model);
    sorted_->setSortRole(FleetModel::SortRole);
    table_->setObjectName("fleetTable");
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(FleetModel::Cluster, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        emit clusterChosen(index.data(FleetModel::IdRole).value<quintptr>());
    });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        emit clusterChosen(index.data(FleetModel::IdRole).value<quintptr>());
    });

    auto* heading = new QLabel(tr("Every cluster open in this window. Click one to open it."));
    heading->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(table_, 1);
}

} // namespace lockscope
