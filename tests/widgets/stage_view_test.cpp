#include "support/qtest_registry.h"
#include "widgets/series_palette.h"
#include "widgets/stage_view.h"

#include <QSignalSpy>
#include <QtTest>

using lockscope::StageDeparture;
using lockscope::StageLane;
using lockscope::StageScene;
using lockscope::StageToken;
using lockscope::StageView;
using Clock = StageView::Clock;

namespace {

// A token of /locks/a whose TTL of 10 s ends `secondsLeft` after `now`.
StageToken token(const QString& key, qint64 fencingToken, Clock::time_point now,
                 double secondsLeft = 10) {
    StageToken t;
    t.key = key;
    t.leaseShort = "…" + key.right(4);
    t.fencingToken = fencingToken;
    t.ttlEndsAt = now + std::chrono::milliseconds(static_cast<int>(secondsLeft * 1000));
    t.grantedSeconds = 10;
    return t;
}

StageScene sceneOf(std::vector<StageToken> tokens) {
    return {{StageLane{"/locks/a", std::move(tokens)}}, 0};
}

} // namespace

class StageViewTest : public QObject {
    Q_OBJECT

    Clock::time_point now_ = Clock::now();

    // A view on a fake clock, shown and painted once.
    void prepare(StageView& view) {
        view.setClock([this] { return now_; });
        view.resize(1000, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
    }

    void paint(StageView& view) { view.repaint(); }

private slots:
    void tokensLineUpInCreateRevisionOrder() {
        StageView view;
        prepare(view);
        // Given out of order: the holder is the oldest key, whatever came first.
        view.setScene(sceneOf({token("/locks/a/c", 30, now_), token("/locks/a/a", 10, now_),
                               token("/locks/a/b", 20, now_)}));
        QCOMPARE(view.keysOf("/locks/a"), (QStringList{"/locks/a/a", "/locks/a/b", "/locks/a/c"}));
        const auto a = view.centreOf("/locks/a", "/locks/a/a");
        const auto b = view.centreOf("/locks/a", "/locks/a/b");
        const auto c = view.centreOf("/locks/a", "/locks/a/c");
        QVERIFY(a && b && c);
        QVERIFY(a->x() < b->x());
        QVERIFY(b->x() < c->x());
        QCOMPARE(a->y(), c->y());
    }

    void theRingIsTheShareOfTheTtlLeftAndOrangeWhenLow() {
        StageView view;
        prepare(view);
        view.setScene(
            sceneOf({token("/locks/a/a", 10, now_, 8), token("/locks/a/b", 11, now_, 2)}));
        QCOMPARE(*view.ringFraction("/locks/a", "/locks/a/a"), 0.8);
        QVERIFY(!view.ringLow("/locks/a", "/locks/a/a"));
        QCOMPARE(*view.ringFraction("/locks/a", "/locks/a/b"), 0.2);
        QVERIFY(view.ringLow("/locks/a", "/locks/a/b"));
        // It shrinks with the clock, without a new scene.
        now_ += std::chrono::seconds(6);
        QCOMPARE(*view.ringFraction("/locks/a", "/locks/a/a"), 0.2);
        QVERIFY(view.ringLow("/locks/a", "/locks/a/a"));
        QCOMPARE(*view.ringFraction("/locks/a", "/locks/a/b"), 0.0);
        // Unknown TTL: no ring to speak of.
        StageToken unknown = token("/locks/a/c", 12, now_);
        unknown.ttlEndsAt.reset();
        view.setScene(sceneOf({unknown}));
        QVERIFY(!view.ringFraction("/locks/a", "/locks/a/c"));
        QVERIFY(!view.ringLow("/locks/a", "/locks/a/c"));
    }

    void aHandoffMovesTheQueueForwardWithinTheAnimation() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_), token("/locks/a/b", 11, now_)}));
        paint(view);
        const QPointF front = *view.centreOf("/locks/a", "/locks/a/a");
        const QPointF behind = *view.centreOf("/locks/a", "/locks/a/b");
        view.setScene(sceneOf({token("/locks/a/b", 11, now_)})); // a released
        QVERIFY(view.animating("/locks/a"));
        QCOMPARE(*view.centreOf("/locks/a", "/locks/a/b"), behind); // starts where it stood
        now_ += std::chrono::milliseconds(StageView::AnimationMs / 2);
        const QPointF midway = *view.centreOf("/locks/a", "/locks/a/b");
        QVERIFY(midway.x() < behind.x());
        QVERIFY(midway.x() > front.x());
        now_ += std::chrono::milliseconds(StageView::AnimationMs / 2);
        QVERIFY(!view.animating("/locks/a"));
        QCOMPARE(*view.centreOf("/locks/a", "/locks/a/b"), front);
    }

    void changesFasterThanFramesSnap() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_), token("/locks/a/b", 11, now_),
                               token("/locks/a/c", 12, now_)}));
        paint(view);
        const QPointF front = *view.centreOf("/locks/a", "/locks/a/a");
        const QPointF second = *view.centreOf("/locks/a", "/locks/a/b");
        view.setScene(sceneOf({token("/locks/a/b", 11, now_), token("/locks/a/c", 12, now_)}));
        QVERIFY(view.animating("/locks/a"));
        // No frame yet, and the next handoff already: the lane jumps to it.
        view.setScene(sceneOf({token("/locks/a/c", 12, now_)}));
        QVERIFY(!view.animating("/locks/a"));
        QCOMPARE(*view.centreOf("/locks/a", "/locks/a/c"), front);

        // A frame showed the move, but it is still under way: the next state is shown at once.
        view.setScene(sceneOf({token("/locks/a/c", 12, now_), token("/locks/a/d", 13, now_),
                               token("/locks/a/e", 14, now_)}));
        paint(view);
        view.setScene(sceneOf({token("/locks/a/d", 13, now_), token("/locks/a/e", 14, now_)}));
        QVERIFY(view.animating("/locks/a"));
        paint(view);
        now_ += std::chrono::milliseconds(StageView::AnimationMs / 3);
        view.setScene(sceneOf({token("/locks/a/e", 14, now_)}));
        QVERIFY(!view.animating("/locks/a"));
        QCOMPARE(*view.centreOf("/locks/a", "/locks/a/e"), front);
        QVERIFY(second.x() > front.x());
    }

    void aRightClickOnATokenNamesIt() {
        StageView view;
        prepare(view);
        view.setScene({{StageLane{"/locks/a", {token("/locks/a/a", 10, now_)}},
                        StageLane{"/locks/b",
                                  {token("/locks/b/x", 20, now_), token("/locks/b/y", 21, now_)}}},
                       0});
        paint(view);
        const QPoint waiter = view.centreOf("/locks/b", "/locks/b/y")->toPoint();
        const auto hit = view.tokenAt(waiter);
        QVERIFY(hit);
        QCOMPARE(hit->lock, QString("/locks/b"));
        QCOMPARE(hit->token.key, QString("/locks/b/y"));
        QCOMPARE(hit->token.fencingToken, qint64(21));
        QCOMPARE(hit->position, 1);
        QVERIFY(!view.tokenAt(QPoint(2, 2))); // the label column
        QVERIFY(!view.tokenAt(QPoint(waiter.x(), waiter.y() + view.height())));

        QSignalSpy menu(&view, &StageView::tokenMenuRequested);
        QContextMenuEvent click(QContextMenuEvent::Mouse, waiter, view.mapToGlobal(waiter));
        QApplication::sendEvent(&view, &click);
        QCOMPARE(menu.size(), 1);
        QCOMPARE(menu.at(0).at(0).toString(), QString("/locks/b"));
        QCOMPARE(menu.at(0).at(1).value<StageToken>().key, QString("/locks/b/y"));
    }

    void anExpiryWithNobodyWaitingStaysShownAsSuch() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_)}));
        paint(view);
        view.showDeparture("/locks/a", "/locks/a/a", 10, StageDeparture::Expired);
        view.setScene({}); // the lock has no key left
        QCOMPARE(view.lanes(), QStringList{"/locks/a"});
        QVERIFY(view.keysOf("/locks/a").isEmpty());
        const QImage shot = view.grab().toImage();
        QVERIFY(shot.save(QDir(QDir::tempPath()).filePath("stage_view_expired.png")));
        // An orange ghost where the holder stood.
        const QColor expired(0xef, 0x6c, 0x00);
        bool orange = false;
        for (int x = 0; x < shot.width() && !orange; ++x)
            for (int y = 0; y < shot.height() / 3 && !orange; ++y)
                orange = shot.pixelColor(x, y) == expired;
        QVERIFY(orange);
        // Gone once its departure has been shown.
        now_ += std::chrono::milliseconds(StageView::DepartureShownMs + 100);
        QTRY_VERIFY(view.lanes().isEmpty());
    }

    void aPlainReleaseWithNobodyWaitingFadesAway() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_)}));
        view.setScene({});
        QCOMPARE(view.lanes(), QStringList{"/locks/a"});
        now_ += std::chrono::milliseconds(StageView::AnimationMs + 50);
        QTRY_VERIFY(view.lanes().isEmpty());
        // Told how it went just after the scene without it: named, and shown longer.
        view.setScene(sceneOf({token("/locks/a/b", 11, now_)}));
        view.setScene({});
        view.showDeparture("/locks/a", "/locks/a/b", 11, StageDeparture::ForceReleased);
        now_ += std::chrono::milliseconds(StageView::AnimationMs + 50);
        QTest::qWait(3 * StageView::FrameMs);
        QCOMPARE(view.lanes(), QStringList{"/locks/a"});
    }

    void aSplitBrainFlashesBothTokensRed() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_), token("/locks/a/b", 11, now_)}));
        view.showSplitBrain("/locks/a", 10, 11);
        QCOMPARE(view.splitBrainOf("/locks/a"), std::optional(std::pair<qint64, qint64>(10, 11)));
        const QImage shot = view.grab().toImage();
        const QPoint a = view.centreOf("/locks/a", "/locks/a/a")->toPoint();
        const QPoint b = view.centreOf("/locks/a", "/locks/a/b")->toPoint();
        // Beside the number written in the middle: the token's fill.
        const int side = 12;
        // The alarm's red: a split brain is what it means, and nothing else.
        QCOMPARE(shot.pixelColor(a + QPoint(0, side)), lockscope::alarmColor());
        QCOMPARE(shot.pixelColor(b + QPoint(0, side)), lockscope::alarmColor());
        // The flash ends.
        now_ += std::chrono::milliseconds(StageView::SplitBrainShownMs + 100);
        QTRY_VERIFY(view.grab().toImage().pixelColor(a + QPoint(0, side)) !=
                    lockscope::alarmColor());
        QVERIFY(!view.splitBrainOf("/locks/a"));
    }

    void presentationModeHasLargeType() {
        StageView view;
        prepare(view);
        view.setScene(sceneOf({token("/locks/a/a", 10, now_), token("/locks/a/b", 11, now_)}));
        const QPointF small = *view.centreOf("/locks/a", "/locks/a/b");
        const int smallHeight = view.minimumSizeHint().height();
        view.setPresentation(true);
        const QPointF large = *view.centreOf("/locks/a", "/locks/a/b");
        QVERIFY(large.x() > small.x() * 1.5);
        QVERIFY(view.minimumSizeHint().height() > smallHeight * 2);
    }
};

LOCKSCOPE_QTEST_MAIN(StageViewTest)
#include "stage_view_test.moc"
