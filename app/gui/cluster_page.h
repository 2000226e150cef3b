#pragma once

#include <QPointer>
#include <QWidget>

class QSettings;
class QSplitter;

namespace lockscope {

class EndpointStatusModel;
class LatencyPlot;
class Workspace;

// The Cluster tab: each endpoint's own status (from the Workspace's ClusterStatusProbe) and a
// live graph of round trips by RPC method (from its ClusterSession's client). What was shown
// stays until the next Workspace's answers replace it.
class ClusterPage : public QWidget {
    Q_OBJECT
public:
    explicit ClusterPage(QWidget* parent = nullptr);

    void setWorkspace(Workspace* workspace); // null: nothing new arrives
    void saveState(QSettings& settings) const;
    void restoreState(const QSettings& settings);

private:
    QPointer<Workspace> workspace_;
    EndpointStatusModel* statusModel_;
    LatencyPlot* latencyPlot_; // round trips
    LatencyPlot* waitPlot_;    // calls the server holds until the lock is ours or we lead
    QSplitter* splitter_;
};

} // namespace lockscope
