#include "widgets/latency_plot.h"

#include "widgets/clock_ticker.h"
#include "widgets/plot_export.h"
#include "widgets/series_palette.h"
#include "widgets/shared_time_axis.h"

#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace lockscope {

namespace {

// Above this many milliseconds in view, a duration axis reads seconds.
constexpr double secondsAboveMs = 10000;

// A series with more points in view than one per this many pixels is drawn as a plain line:
// its markers would only overlap. Through thousands of points, the markers and a pen wider
// than one pixel (which Qt strokes as a path) cost seconds a replot, and antialiasing doubles
// what is left: 8 series of an hour at 10 Hz took 4.5 s a replot, and take 8 ms plain.
constexpr double pixelsPerSparsePoint = 4;

void styleSeries(QCPGraph* graph, bool dense) {
    QPen pen = graph->pen();
    pen.setWidthF(dense ? 1.0 : 1.5); // QCustomPlot draws 1.0 with Qt's fast cosmetic pen
    graph->setPen(pen);
    graph->setScatterStyle(dense ? QCPScatterStyle(QCPScatterStyle::ssNone)
                                 : QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    graph->setAntialiased(!dense);
}

} // namespace

LatencyPlot::LatencyPlot(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
    , emptyNote_(new QCPItemText(plot_)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setMinimumHeight(160);

    plot_->xAxis->setTicker(QSharedPointer<ClockTicker>::create());
    label_ = tr("round trip");
    showValueLabel();
    plot_->legend->setVisible(false); // shown with the first series, above the plotted area

    emptyNote_->position->setType(QCPItemPosition::ptAxisRectRatio);
    emptyNote_->position->setCoords(0.5, 0.5);
    emptyNote_->setText(tr("No answers yet"));
    emptyNote_->setColor(Qt::gray);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom); // used while paused
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(ReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, &LatencyPlot::redraw);
    // Every replot, whatever asked for it: new points, a drag or zoom while paused, a resize.
    connect(plot_, &QCustomPlot::beforeReplot, this, &LatencyPlot::showView);
    addPlotExportActions(
        this, plot_, [this](const QString& path, QString& error) { return exportTo(path, error); });
    redraw();
}

bool LatencyPlot::exportTo(const QString& path, QString& error) {
    followNewest();
    showView();
    return exportPlot(*plot_, path, error);
}

void LatencyPlot::addPoint(const QString& series, double time, double value) {
    SeriesHistory& history = seriesFor(series).history;
    history.append(time, value);
    history.removeBefore(time - historySeconds_);
    earliestTime_ = earliestTime_ > 0 ? std::min(earliestTime_, time) : time;
    latestTime_ = std::max(latestTime_, time);
    if (sharedAxis_)
        sharedAxis_->noteData(time);
    // A single-shot timer that is not restarted while pending: at most one redraw per interval.
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LatencyPlot::setWindowSeconds(double seconds) {
    windowSeconds_ = seconds;
    redraw();
}

void LatencyPlot::setHistorySeconds(double seconds) {
    historySeconds_ = seconds;
    for (auto& [name, series] : series_)
        series.history.removeBefore(latestTime_ - historySeconds_);
    redraw();
}

void LatencyPlot::setValueLabel(const QString& label) {
    label_ = label;
    durations_ = false;
    valueScale_ = 1;
    showValueLabel();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LatencyPlot::setEmptyText(const QString& text) {
    emptyNote_->setText(text);
}

void LatencyPlot::setDurationLabel(const QString& quantity) {
    label_ = quantity;
    durations_ = true;
    showValueLabel();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LatencyPlot::showValueLabel() {
    if (!durations_)
        plot_->yAxis->setLabel(label_);
    else if (valueScale_ == 1)
        plot_->yAxis->setLabel(tr("%1 (ms)").arg(label_));
    else
        plot_->yAxis->setLabel(tr("%1 (s)").arg(label_));
}

QString LatencyPlot::valueAxisLabel() const {
    return plot_->yAxis->label();
}

void LatencyPlot::setSeriesColor(const QString& series, const QColor& color) {
    colors_[series] = color;
    if (auto it = series_.find(series); it != series_.end()) {
        QPen pen = it->second.graph->pen();
        pen.setColor(color);
        it->second.graph->setPen(pen);
    }
}

QColor LatencyPlot::seriesColor(const QString& series) const {
    const auto it = series_.find(series);
    return it == series_.end() ? QColor() : it->second.graph->pen().color();
}

void LatencyPlot::setSharedTimeAxis(SharedTimeAxis* axis) {
    sharedAxis_ = axis;
    axis->attach(plot_->xAxis, earliestTime_);
    redraw();
}

QStringList LatencyPlot::seriesNames() const {
    QStringList names;
    for (const auto& [name, series] : series_)
        names.append(name);
    return names;
}

int LatencyPlot::pointCount(const QString& series) const {
    const auto it = series_.find(series);
    return it == series_.end() ? 0 : static_cast<int>(it->second.history.size());
}

std::size_t LatencyPlot::memoryBytes() const {
    std::size_t bytes = 0;
    for (const auto& [name, series] : series_)
        bytes += series.history.memoryBytes();
    return bytes;
}

LatencyPlot::Series& LatencyPlot::seriesFor(const QString& name) {
    if (auto it = series_.find(name); it != series_.end())
        return it->second;
    QCPGraph* graph = plot_->addGraph();
    graph->setName(name);
    const auto chosen = colors_.find(name);
    graph->setPen(chosen != colors_.end() ? QPen(chosen->second)
                                          : seriesPen(static_cast<int>(series_.size())));
    styleSeries(graph, false);
    if (!plot_->legend->visible()) {
        // In a row of its own above the plotted area, so it never covers a line. Only once
        // there is a series: an empty legend in the layout would squeeze the plotted area.
        plot_->axisRect()->insetLayout()->take(plot_->legend);
        plot_->plotLayout()->insertRow(0);
        plot_->plotLayout()->addElement(0, 0, plot_->legend);
        plot_->plotLayout()->setRowStretchFactor(0, 0.001);
        plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot_->legend->setBorderPen(Qt::NoPen);
        plot_->legend->setMargins(QMargins(4, 2, 4, 0));
        plot_->legend->setVisible(true);
    }
    emptyNote_->setVisible(false);
    const auto capacity = static_cast<std::size_t>(DaySeconds * MaxPointsPerSecond);
    return series_.emplace(name, Series{graph, SeriesHistory(capacity)}).first->second;
}

void LatencyPlot::setPaused(bool paused) {
    paused_ = paused;
    if (!paused)
        redraw();
}

void LatencyPlot::wrapLegend() {
    QCPLegend* legend = plot_->legend;
    if (!legend->visible() || legend->itemCount() == 0)
        return;
    int widest = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i)) // a wrapped grid has empty cells
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const QMargins margins = legend->margins();
    const int room = plot_->width() - margins.left() - margins.right();
    const int spacing = legend->columnSpacing();
    const int perRow = std::clamp((room + spacing) / (widest + spacing), 1, legend->itemCount());
    if (perRow == legend->wrap())
        return;
    legend->setWrap(perRow);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // again, in rows of perRow
}

void LatencyPlot::showView() {
    wrapLegend();
    const QCPRange shown = plot_->xAxis->range();
    const int columns = std::max(1, plot_->axisRect()->width());
    QVector<QCPGraphData> data;
    for (auto& [name, series] : series_) {
        const auto view = series.history.view(shown.lower, shown.upper, columns);
        data.clear();
        for (const auto& span : view.spans) {
            // A column's lowest and highest, both at its time, whichever first is nearer
            // where the line stands: one vertical stroke a column, not a zigzag through it
            // (half the pixels to fill). A filled band instead took ten times as long to paint.
            const bool highFirst =
                !data.isEmpty() && data.back().value - span.low * valueScale_ >
                                       span.high * valueScale_ - data.back().value;
            data.append(QCPGraphData(span.time, (highFirst ? span.high : span.low) * valueScale_));
            if (span.low != span.high)
                data.append(
                    QCPGraphData(span.time, (highFirst ? span.low : span.high) * valueScale_));
        }
        series.graph->data()->set(data, true);
        styleSeries(series.graph, static_cast<double>(data.size()) * pixelsPerSparsePoint >
                                      static_cast<double>(columns));
    }
}

void LatencyPlot::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    redraw();
}

void LatencyPlot::redraw() {
    // On a tab not shown there is nothing to draw; showEvent catches up.
    if (!isVisibleTo(window()))
        return;
    followNewest();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LatencyPlot::followNewest() {
    if (paused_)
        return;
    // The axis grows with the data up to the window, so the first seconds are not a sliver at
    // the right edge; before any data it shows the window up to now. A small margin on the
    // right keeps the newest point off the border. A shared axis shows up to now, as the
    // other plots of its page.
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    if (sharedAxis_) {
        const auto [lower, upper] = sharedAxis_->liveRange(now);
        plot_->xAxis->setRange(lower, upper);
    } else {
        const double end = latestTime_ > 0 ? latestTime_ : now;
        const double span =
            latestTime_ > 0 ? std::min(std::max(latestTime_ - earliestTime_, 10.0), windowSeconds_)
                            : windowSeconds_;
        plot_->xAxis->setRange(end - span, end + span * 0.02);
    }
    const QCPRange shown = plot_->xAxis->range();
    double highest = 0;
    for (const auto& [name, series] : series_) {
        double low = 0, high = 0;
        if (series.history.valueRange(shown.lower, shown.upper, low, high))
            highest = std::max(highest, high);
    }
    valueScale_ = durations_ && highest > secondsAboveMs ? 0.001 : 1;
    showValueLabel();
    plot_->yAxis->setRange(0, highest > 0 ? highest * valueScale_ * 1.15 : 1);
}

} // namespace lockscope
