#pragma once

#include <QHash>
#include <QTimer>
#include <QWidget>

class QCPGraph;
class QCPItemText;
class QCustomPlot;

namespace lockscope {

// A live graph of round trips (or any values over time), one line per named series. Keeps only
// the last `window` seconds of each series, so memory stays bounded however long it runs, and
// redraws at most ~30 times a second however fast points arrive, and not at all on a tab not
// shown: it catches up when shown.
class LatencyPlot : public QWidget {
    Q_OBJECT
public:
    static constexpr int ReplotIntervalMs = 33;

    explicit LatencyPlot(QWidget* parent = nullptr);

    // `time` is seconds since the Unix epoch; points of one series must come in time order.
    void addPoint(const QString& series, double time, double value);
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return windowSeconds_; }
    void setValueLabel(const QString& label);
    // Paused, the axes stop following new points (which are still kept) so the user can drag
    // and zoom; resumed, the view jumps back to the newest window.
    void setPaused(bool paused);
    bool paused() const { return paused_; }

    QStringList seriesNames() const;
    int pointCount(const QString& series) const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    QCPGraph* graphFor(const QString& series);
    // Dense series as plain thin lines, sparse ones with a marker per point.
    void styleByDensity();
    void redraw();

    QCustomPlot* plot_;
    QCPItemText* emptyNote_;
    QHash<QString, QCPGraph*> graphs_;
    QTimer replotTimer_;
    double windowSeconds_ = 60;
    bool paused_ = false;
    double earliestTime_ = 0; // of any point added, 0 before the first
    double latestTime_ = 0;
};

} // namespace lockscope
