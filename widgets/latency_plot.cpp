#include "widgets/latency_plot.h"

#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace lockscope {

namespace {

// Distinct, readable on white; series beyond the palette reuse it.
const QList<QColor> seriesColors = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                    QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                    QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b)};

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

    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat("hh:mm:ss");
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setLabel(tr("round trip (ms)"));
    plot_->legend->setVisible(false); // shown with the first series
    plot_->legend->setBrush(QColor(255, 255, 255, 200));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

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
    connect(plot_, &QCustomPlot::beforeReplot, this, &LatencyPlot::styleByDensity);
    redraw();
}

void LatencyPlot::addPoint(const QString& series, double time, double value) {
    QCPGraph* graph = graphFor(series);
    graph->addData(time, value);
    graph->data()->removeBefore(time - windowSeconds_);
    earliestTime_ = earliestTime_ > 0 ? std::min(earliestTime_, time) : time;
    latestTime_ = std::max(latestTime_, time);
    // A single-shot timer that is not restarted while pending: at most one redraw per interval.
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LatencyPlot::setWindowSeconds(double seconds) {
    windowSeconds_ = seconds;
    for (QCPGraph* graph : std::as_const(graphs_))
        graph->data()->removeBefore(latestTime_ - windowSeconds_);
    redraw();
}

void LatencyPlot::setValueLabel(const QString& label) {
    plot_->yAxis->setLabel(label);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QStringList LatencyPlot::seriesNames() const {
    QStringList names = graphs_.keys();
    names.sort();
    return names;
}

int LatencyPlot::pointCount(const QString& series) const {
    const QCPGraph* graph = graphs_.value(series);
    return graph ? graph->data()->size() : 0;
}

QCPGraph* LatencyPlot::graphFor(const QString& series) {
    if (QCPGraph* existing = graphs_.value(series))
        return existing;
    QCPGraph* graph = plot_->addGraph();
    graph->setName(series);
    graph->setPen(QPen(seriesColors.at(graphs_.size() % seriesColors.size())));
    styleSeries(graph, false);
    graphs_.insert(series, graph);
    plot_->legend->setVisible(true);
    emptyNote_->setVisible(false);
    return graph;
}

void LatencyPlot::setPaused(bool paused) {
    paused_ = paused;
    if (!paused)
        redraw();
}

void LatencyPlot::styleByDensity() {
    const QCPRange shown = plot_->xAxis->range();
    const double pixels = plot_->axisRect()->width();
    for (QCPGraph* graph : std::as_const(graphs_)) {
        const int inView =
            graph->findEnd(shown.upper, false) - graph->findBegin(shown.lower, false);
        styleSeries(graph, inView * pixelsPerSparsePoint > pixels);
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
    if (paused_) {
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // The axis grows with the data up to the window, so the first seconds are not a sliver at
    // the right edge; before any data it shows the window up to now. A small margin on the
    // right keeps the newest point off the border.
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    const double end = latestTime_ > 0 ? latestTime_ : now;
    const double span = latestTime_ > 0
                            ? std::min(std::max(latestTime_ - earliestTime_, 10.0), windowSeconds_)
                            : windowSeconds_;
    plot_->xAxis->setRange(end - span, end + span * 0.02);
    double highest = 0;
    for (QCPGraph* graph : std::as_const(graphs_)) {
        bool found = false;
        const QCPRange values = graph->getValueRange(found);
        if (found)
            highest = std::max(highest, values.upper);
    }
    plot_->yAxis->setRange(0, highest > 0 ? highest * 1.15 : 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace lockscope
