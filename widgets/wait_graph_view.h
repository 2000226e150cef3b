#pragma once

#include <QString>
#include <QWidget>
#include <vector>

namespace lockscope {

// Sessions as boxes and waits as arrows, laid out for this shape of graph: in columns by how
// far a session is from what it waits for in the end. Column 0 holds the root blockers and the
// sessions of deadlocks (in the alarm colour, their waits on each other drawn as arcs on the
// left of the column); a session that waits goes one column right of the one it waits on, so
// every arrow but a deadlock's points left, towards who must let go first. At 200 sessions the
// columns stay readable: the widget grows to fit them, inside a scroll area.
class WaitGraphView : public QWidget {
    Q_OBJECT
public:
    struct Node {
        QString id;    // what nodeClicked gives back
        QString label; // shown, elided in the middle when long
        int column = 0;
        bool deadlock = false;
    };
    struct Edge {
        int from = 0; // the waiter's index in the nodes
        int to = 0;   // the index of the one it waits on
        QString lock; // the tooltip's
    };

    static constexpr int NodeWidth = 190;
    static constexpr int NodeHeight = 26;
    static constexpr int ColumnGap = 70;
    static constexpr int RowGap = 10;
    static constexpr int Margin = 40; // room on the left for a deadlock's arcs

    explicit WaitGraphView(QWidget* parent = nullptr);

    void setGraph(std::vector<Node> nodes, std::vector<Edge> edges);
    // Where node `index` is drawn.
    QRect nodeRect(int index) const;
    int nodeCount() const { return static_cast<int>(nodes_.size()); }
    const std::vector<Edge>& edges() const { return edges_; }
    QSize sizeHint() const override;

signals:
    void nodeClicked(const QString& id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override; // tooltips

private:
    int nodeAt(const QPoint& point) const;

    std::vector<Node> nodes_;
    std::vector<Edge> edges_;
    std::vector<QRect> rects_;
    QSize extent_;
};

} // namespace lockscope
