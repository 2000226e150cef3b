#include "widgets/wait_graph_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

namespace lockscope {

namespace {

// The alarm colour, never a holder's: a deadlock never ends by itself.
const QColor deadlockColour(0xc6, 0x28, 0x28);

void drawArrowHead(QPainter& painter, QPointF tip, QPointF from) {
    const QPointF along = tip - from;
    const double length = std::hypot(along.x(), along.y());
    if (length < 1)
        return;
    const QPointF unit = along / length;
    const QPointF normal(-unit.y(), unit.x());
    const QPointF base = tip - unit * 8;
    painter.drawPolygon(QPolygonF({tip, base + normal * 4, base - normal * 4}));
}

} // namespace

WaitGraphView::WaitGraphView(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

void WaitGraphView::setGraph(std::vector<Node> nodes, std::vector<Edge> edges) {
    nodes_ = std::move(nodes);
    edges_ = std::move(edges);
    // Rows column by column: a session as near the row of the one it waits on as the column
    // allows, so a chain reads along a line and a tree opens downwards.
    rects_.assign(nodes_.size(), QRect());
    int columns = 0;
    for (const Node& node : nodes_)
        columns = std::max(columns, std::max(0, node.column) + 1);
    std::vector<int> rowOf(nodes_.size(), 0);
    for (int column = 0; column < columns; ++column) {
        std::vector<std::pair<int, int>> placing; // (the row it would like, node)
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            if (std::max(0, nodes_[i].column) != column)
                continue;
            int wanted = column == 0 ? 0 : std::numeric_limits<int>::max();
            for (const Edge& edge : edges_)
                if (edge.from == static_cast<int>(i) && edge.to >= 0 && edge.to < nodeCount() &&
                    nodes_[static_cast<std::size_t>(edge.to)].column == column - 1)
                    wanted = std::min(wanted, rowOf[static_cast<std::size_t>(edge.to)]);
            placing.emplace_back(wanted == std::numeric_limits<int>::max() ? 0 : wanted,
                                 static_cast<int>(i));
        }
        std::stable_sort(placing.begin(), placing.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        int nextFree = 0;
        for (const auto& [wanted, index] : placing) {
            const int row = std::max(nextFree, wanted);
            nextFree = row + 1;
            rowOf[static_cast<std::size_t>(index)] = row;
            rects_[static_cast<std::size_t>(index)] =
                QRect(Margin + column * (NodeWidth + ColumnGap),
                      Margin / 2 + row * (NodeHeight + RowGap), NodeWidth, NodeHeight);
        }
    }
    int width = 0, height = 0;
    for (const QRect& rect : rects_) {
        width = std::max(width, rect.right());
        height = std::max(height, rect.bottom());
    }
    extent_ = QSize(width + Margin, height + Margin);
    setMinimumSize(extent_);
    updateGeometry();
    update();
}

QRect WaitGraphView::nodeRect(int index) const {
    return rects_.at(static_cast<std::size_t>(index));
}

QSize WaitGraphView::sizeHint() const {
    return extent_.isValid() ? extent_ : QSize(400, 200);
}

void WaitGraphView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    const QColor ink = palette().text().color();
    for (const Edge& edge : edges_) {
        if (edge.from < 0 || edge.to < 0 || edge.from >= nodeCount() || edge.to >= nodeCount())
            continue;
        const QRect from = rects_[static_cast<std::size_t>(edge.from)];
        const QRect to = rects_[static_cast<std::size_t>(edge.to)];
        const bool alarm = nodes_[static_cast<std::size_t>(edge.from)].deadlock &&
                           nodes_[static_cast<std::size_t>(edge.to)].deadlock;
        const QColor colour = alarm ? deadlockColour : ink;
        painter.setPen(QPen(colour, alarm ? 2 : 1));
        painter.setBrush(colour);
        if (from.left() == to.left()) {
            // In one column (a deadlock's waits): an arc out on the left, so it crosses no box.
            const QPointF start(from.left(), from.center().y());
            const QPointF end(to.left(), to.center().y());
            const double bow = 12 + std::abs(end.y() - start.y()) / 4;
            QPainterPath arc(start);
            const QPointF control(start.x() - bow, (start.y() + end.y()) / 2);
            arc.quadTo(control, end);
            painter.setBrush(Qt::NoBrush);
            painter.drawPath(arc);
            painter.setBrush(colour);
            drawArrowHead(painter, end, control);
            continue;
        }
        const QPointF start(from.left(), from.center().y());
        const QPointF end(to.right(), to.center().y());
        painter.drawLine(start, end);
        drawArrowHead(painter, end, start);
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        const Node& node = nodes_[i];
        const QRect box = rects_[i];
        painter.setPen(
            QPen(node.deadlock ? deadlockColour : palette().mid().color(), node.deadlock ? 2 : 1));
        painter.setBrush(palette().window());
        painter.drawRoundedRect(box, 4, 4);
        painter.setPen(node.deadlock ? deadlockColour : ink);
        const QString text =
            fontMetrics().elidedText(node.label, Qt::ElideMiddle, box.width() - 10);
        painter.drawText(box.adjusted(5, 0, -5, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
}

int WaitGraphView::nodeAt(const QPoint& point) const {
    for (std::size_t i = 0; i < rects_.size(); ++i)
        if (rects_[i].contains(point))
            return static_cast<int>(i);
    return -1;
}

void WaitGraphView::mousePressEvent(QMouseEvent* event) {
    const int index = nodeAt(event->position().toPoint());
    if (index >= 0)
        emit nodeClicked(nodes_[static_cast<std::size_t>(index)].id);
    QWidget::mousePressEvent(event);
}

bool WaitGraphView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int index = nodeAt(help->pos());
    if (index < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    QStringList waits;
    for (const Edge& edge : edges_)
        if (edge.from == index)
            waits << tr("waits in %1 for %2")
                         .arg(edge.lock, nodes_[static_cast<std::size_t>(edge.to)].label);
    QToolTip::showText(
        help->globalPos(),
        (QStringList{nodes_[static_cast<std::size_t>(index)].label} + waits).join('\n'), this);
    return true;
}

} // namespace lockscope
