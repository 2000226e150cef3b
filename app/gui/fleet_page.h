#pragma once

#include <QWidget>

class QSortFilterProxyModel;
class QTableView;

namespace lockscope {

class FleetModel;

// The fleet overview: one row per open cluster (FleetModel), sortable by any column; a click
// on a row opens that cluster.
class FleetPage : public QWidget {
    Q_OBJECT
public:
    explicit FleetPage(FleetModel* model, QWidget* parent = nullptr);

signals:
    void clusterChosen(quintptr id);

private:
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
};

} // namespace lockscope
