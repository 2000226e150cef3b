#pragma once

#include "widgets/series_history.h"

#include <QColor>
#include <QTimer>
#include <QWidget>
#include <map>

class QCPGraph;
class QCPItemText;
class QCustomPlot;

namespace lockscope {

class SharedTimeAxis;

// A live graph of round trips (or any values over time), one line per named series. Shows the
// last `window` seconds while live; keeps a day of each series (at most 10 points a second), so
// memory stays bounded however long it runs, and paused, the user can drag and zoom back through
// it. Each replot draws per pixel column only the lowest and highest point of the view (every
// point when zoomed in that far), and it redraws at most ~30 times a second however fast points
// arrive, and not at all on a tab not shown: it catches up when shown.
class LatencyPlot : public QWidget {
    Q_OBJECT
public:
    static constexpr int ReplotIntervalMs = 33;
    static constexpr double DaySeconds = 24 * 3600;
    static constexpr double MaxPointsPerSecond = 10;

    explicit LatencyPlot(QWidget* parent = nullptr);

    // `time` is seconds since the Unix epoch; points of one series must come in time order.
    void addPoint(const QString& series, double time, double value);
    // The span shown while live.
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return windowSeconds_; }
    // The span kept (a day unless set): older points go.
    void setHistorySeconds(double seconds);
    // Values of any unit, named by `label` on the value axis.
    void setValueLabel(const QString& label);
    // Values in milliseconds of `quantity` (the default: "round trip"): the axis reads
    // "quantity (ms)", or "quantity (s)" in seconds while the view passes 10 s.
    void setDurationLabel(const QString& quantity);
    // What the plot says before its first point (by default: no answers yet).
    void setEmptyText(const QString& text);
    // A series' line colour, also before its first point (otherwise the next of a palette).
    void setSeriesColor(const QString& series, const QColor& color);
    // Its time axis moves with the others of `axis` (which must outlive the plot), and while
    // live shows what `axis` says.
    void setSharedTimeAxis(SharedTimeAxis* axis);
    // Paused, the axes stop following new points (which are still kept) so the user can drag
    // and zoom; resumed, the view jumps back to the newest window.
    void setPaused(bool paused);
    bool paused() const { return paused_; }

    // Writes the graph to `path`, PDF or PNG (see exportPlot()), also from a tab never shown;
    // also offered on its context menu. False with `error` saying why.
    bool exportTo(const QString& path, QString& error);

    QStringList seriesNames() const;
    QColor seriesColor(const QString& series) const; // invalid for none
    // What the value axis reads now, for tests.
    QString valueAxisLabel() const;
    int pointCount(const QString& series) const; // kept, not only shown
    std::size_t memoryBytes() const;             // of the points kept

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Series {
        QCPGraph* graph;
        SeriesHistory history;
    };
    Series& seriesFor(const QString& name);
    // Before every replot: hands each graph what the view shows of its history, decimated to
    // the axis's pixels; dense series as plain thin lines, sparse ones with a marker per point.
    void showView();
    // As many legend entries a row as the plot's width shows whole; the others wrap below.
    void wrapLegend();
    void redraw();
    // The axes over the newest window of points (unless paused).
    void followNewest();

    void showValueLabel();

    QCustomPlot* plot_;
    QCPItemText* emptyNote_;
    std::map<QString, Series> series_;
    std::map<QString, QColor> colors_; // set before the series' first point
    SharedTimeAxis* sharedAxis_ = nullptr;
    QString label_;         // the value axis: a unit, or for durations the quantity
    bool durations_ = true; // values are milliseconds
    double valueScale_ = 1; // what shown values are multiplied by: 0.001 to show seconds
    QTimer replotTimer_;
    double windowSeconds_ = 60;
    double historySeconds_ = DaySeconds;
    bool paused_ = false;
    double earliestTime_ = 0; // of any point added, 0 before the first
    double latestTime_ = 0;
};

} // namespace lockscope
