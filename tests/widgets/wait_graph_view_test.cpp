// The wait-for drawing's layout, fed plain values: a chain reads along one row, nothing
// overlaps at 200 sessions, and a box gives its session back when clicked.
#include "support/qtest_registry.h"
#include "widgets/wait_graph_view.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lockscope;

class WaitGraphViewTest : public QObject {
    Q_OBJECT
private slots:
    void aChainReadsAlongOneRowEachWaiterRightOfWhatItWaitsOn() {
        WaitGraphView view;
        std::vector<WaitGraphView::Node> nodes;
        std::vector<WaitGraphView::Edge> edges;
        for (int i = 0; i < 5; ++i) {
            nodes.push_back({QString::number(i), QStringLiteral("lease %1").arg(i), i, false});
            if (i > 0)
                edges.push_back({i, i - 1, QStringLiteral("/c/%1").arg(i)});
        }
        view.setGraph(nodes, edges);
        for (int i = 1; i < 5; ++i) {
            QCOMPARE(view.nodeRect(i).top(), view.nodeRect(0).top());
            QVERIFY(view.nodeRect(i).left() > view.nodeRect(i - 1).right());
        }
    }

    void twoHundredSessionsNeverOverlapAndAllFit() {
        WaitGraphView view;
        std::vector<WaitGraphView::Node> nodes;
        std::vector<WaitGraphView::Edge> edges;
        nodes.push_back({"a", "deadlock a", 0, true}); // a deadlock of two first
        nodes.push_back({"b", "deadlock b", 0, true});
        edges.push_back({0, 1, "/d/2"});
        edges.push_back({1, 0, "/d/1"});
        for (int root = 0; root < 22; ++root) { // 22 trees of 9: a root, 4 waiters, 4 behind
            const int at = static_cast<int>(nodes.size());
            nodes.push_back({QString::number(at), "root", 0, false});
            for (int w = 0; w < 4; ++w) {
                const int waiter = static_cast<int>(nodes.size());
                nodes.push_back({QString::number(waiter), "waiter", 1, false});
                edges.push_back({waiter, at, "/r"});
                nodes.push_back({QString::number(waiter + 1), "behind", 2, false});
                edges.push_back({waiter + 1, waiter, "/w"});
            }
        }
        QVERIFY(nodes.size() >= 200);
        view.setGraph(nodes, edges);
        for (int i = 0; i < view.nodeCount(); ++i) {
            QVERIFY(QRect(QPoint(0, 0), view.minimumSize()).contains(view.nodeRect(i)));
            for (int j = i + 1; j < view.nodeCount(); ++j)
                QVERIFY2(!view.nodeRect(i).intersects(view.nodeRect(j)),
                         qPrintable(QStringLiteral("%1 and %2 overlap").arg(i).arg(j)));
        }
        // Each waiter no higher than what it waits on: the trees open downwards.
        for (const auto& edge : edges)
            if (!nodes[static_cast<std::size_t>(edge.from)].deadlock)
                QVERIFY(view.nodeRect(edge.from).top() >= view.nodeRect(edge.to).top());
        view.resize(view.minimumSize());
        QImage image(view.size(), QImage::Format_ARGB32);
        view.render(&image); // paints without a crash at this size
    }

    void aClickedBoxGivesItsSessionBack() {
        WaitGraphView view;
        view.setGraph({{"694d", "lease 694d", 0, false}, {"694e", "lease 694e", 1, false}},
                      {{1, 0, "/l"}});
        view.resize(view.minimumSize());
        QSignalSpy clicked(&view, &WaitGraphView::nodeClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(1).center());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.front().front().toString(), QString("694e"));
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2)); // between boxes: nothing
        QCOMPARE(clicked.size(), 1);
    }
};

LOCKSCOPE_QTEST_MAIN(WaitGraphViewTest)
#include "wait_graph_view_test.moc"
