// The replay window on a real SQLite recording: the scrubber goes through its events, each
// moment shows the locks and the selected queue as they stood, play reaches the end, and a
// file that is no recording says why. Nothing in it acts on a cluster: it has no connection.
#include "app/core/blockers_model.h"
#include "app/core/json_writer.h"
#include "app/core/lock_history_store.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/gui/history_replay_window.h"
#include "app/gui/history_report_dialog.h"
#include "app/gui/history_span_dialog.h"
#include "etcdclient/clock.h"
#include "main_window_probes.h"
#include "support/qtest_registry.h"
#include "widgets/elided_label.h"
#include "widgets/holder_timeline.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;
using namespace std::chrono_literals;
using Kind = etcd::LockEventKind;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);
const std::string lock = "/locks/job";

etcd::LockEvent lockEvent(Kind kind, const std::string& lease, int64_t revision,
                          int64_t createRevision) {
    etcd::LockEvent e{};
    e.kind = kind;
    e.lock = lock;
    e.key = lock + "/" + lease;
    e.lease = std::stoll(lease, nullptr, 16);
    e.revision = revision;
    e.createRevision = createRevision;
    e.observedAt = t0 + std::chrono::seconds(revision);
    return e;
}

// A recording of `lock` at `file`: its start, then 1a enqueued and acquired, 2b enqueued behind
// it (revisions 2 and 3); open for more.
std::unique_ptr<LockHistoryStore> recordingOf1aHolding2bWaiting(const QString& file) {
    QString problem;
    auto store = LockHistoryStore::openForWriting(file, "127.0.0.1:2379", "/locks/", problem);
    if (!store) {
        qWarning() << problem;
        return store;
    }
    etcd::LockEvent acquired = lockEvent(Kind::Acquired, "1a", 2, 2);
    acquired.waited = 0ms;
    store->write(HistoryCheckpoint{1, t0 + 1s, "start", {}});
    for (const auto& e :
         {lockEvent(Kind::Enqueued, "1a", 2, 2), acquired, lockEvent(Kind::Enqueued, "2b", 3, 3)})
        store->write(e);
    return store;
}

// The moment `after` the recording's t0, as the timeline counts time.
double at(std::chrono::milliseconds after) {
    return etcd::unixSeconds(t0 + after);
}

} // namespace

class HistoryReplayWindowIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        path = dir.filePath("locks.db");
        QString problem;
        auto store = LockHistoryStore::openForWriting(path, "127.0.0.1:2379", "/locks/", problem);
        QVERIFY2(store, qPrintable(problem));
        QVERIFY(store->write(HistoryCheckpoint{1, t0 + 1s, "start", {}}));
        // 1a holds, 2b waits behind it, 1a releases and 2b holds, 2b's lease expires.
        etcd::LockEvent acquired = lockEvent(Kind::Acquired, "1a", 2, 2);
        acquired.waited = 0ms;
        etcd::LockEvent handedOn = lockEvent(Kind::Acquired, "2b", 4, 3);
        handedOn.waited = 1000ms;
        etcd::LockEvent released = lockEvent(Kind::Released, "1a", 4, 2);
        released.held = 2000ms;
        etcd::LockEvent expired = lockEvent(Kind::Expired, "2b", 5, 3);
        expired.held = 1000ms;
        for (const auto& e : {lockEvent(Kind::Enqueued, "1a", 2, 2), acquired,
                              lockEvent(Kind::Enqueued, "2b", 3, 3), released, handedOn, expired})
            QVERIFY(store->write(e));
        QVERIFY2(store->commit(), qPrintable(store->error()));
    }

    void scrubsThroughTheLocksAsTheyStood() {
        auto* window = new HistoryReplayWindow(path);
        QPointer<HistoryReplayWindow> guard(window);
        QSignalSpy opened(window, &HistoryReplayWindow::opened);
        QSignalSpy shown(window, &HistoryReplayWindow::momentShown);
        window->show();
        QVERIFY(opened.wait(10000));
        // All of it on the screen (the offscreen one is 800 x 600), every control within reach.
        QVERIFY(window->screen()->availableGeometry().contains(window->frameGeometry()));
        // The start (the first checkpoint), then each event.
        QCOMPARE(window->momentCount(), std::size_t{7});
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));

        // Moment 3: 2b enqueued behind 1a.
        window->showMoment(3);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(3));
        QCOMPARE(window->lockModel()->rowCount(), 1);
        const QModelIndex waiting = window->lockModel()->index(0, LockListModel::Waiters);
        QCOMPARE(window->lockModel()->data(waiting).toString(), QString("1"));
        window->selectLock(lock);
        QCOMPARE(window->queueModel()->rowCount(), 2);
        QCOMPARE(window->queueModel()->entryAt(0).key, lock + "/1a");
        QCOMPARE(window->queueModel()->entryAt(1).key, lock + "/2b");
        // Blockers: 1a's session blocked 2b's.
        QCOMPARE(window->blockersModel()->rootCount(), std::size_t{1});
        QCOMPARE(window->blockersModel()->roots().front().session.lease, int64_t{0x1a});

        // Moment 5: 2b holds alone; its hold is as old as the recording says, not as the clock.
        window->showMoment(5);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(5));
        QCOMPARE(window->queueModel()->rowCount(), 1);
        QCOMPARE(window->queueModel()->entryAt(0).key, lock + "/2b");
        QVERIFY(window->queueModel()->ageOf(0) < 1s);
        QCOMPARE(window->blockersModel()->rootCount(), std::size_t{0}); // nobody waits

        // The last: the lock is gone.
        window->showMoment(6);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(6));
        QCOMPARE(window->lockModel()->rowCount(), 0);

        // Played at 100x from the start, it reaches the end (4 s recorded: 40 ms) and stops.
        window->showMoment(0);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));
        window->play(100);
        QTRY_COMPARE_WITH_TIMEOUT(window->shownMoment(), std::optional<std::size_t>(6), 10000);
        QTRY_VERIFY(!window->playing());

        // The report of a span, from the marked event to the one shown: 1a and 2b each took
        // the lock once; 2b waited 1000 ms behind 1a. Exported to PDF.
        window->showMoment(1);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(1));
        window->markSpanStart();
        window->showMoment(6);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(6));
        QSignalSpy reported(window, &HistoryReplayWindow::reportShown);
        window->reportSpan();
        QVERIFY(reported.wait(10000));
        auto* dialog = window->findChild<HistoryReportDialog*>();
        QVERIFY(dialog);
        const QString html = dialog->html();
        QVERIFY2(html.contains(QString::fromStdString(lock)), qPrintable(html));
        QVERIFY2(html.contains(">2<"), qPrintable(html)); // acquisitions
        QVERIFY2(html.contains("1000 ms"), qPrintable(html));
        QString error;
        const QString pdf = dir.filePath("report.pdf");
        QVERIFY2(dialog->exportPdf(pdf, error), qPrintable(error));
        QFile written(pdf);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.read(4), QByteArray("%PDF"));
        dialog->close();

        // No button of the window acts on a lock: it moves through the recording only.
        for (const auto* button : window->findChildren<QPushButton*>())
            QVERIFY2(!button->text().contains("Release") && !button->text().contains("Acquire"),
                     qPrintable(button->text()));

        // Closed while a replay is on its way: the late answer is dropped.
        window->showMoment(4);
        window->close();
        QTRY_VERIFY(guard.isNull());
        QTest::qWait(200);
    }

    // The timeline of holds shares its time axis with the scrubber: its line is the moment
    // shown, and a click on the lanes or the line dragged goes to the last moment at that time.
    void theTimelineShowsWhoHeldWhenAndScrubsByTime() {
        auto* window = new HistoryReplayWindow(path);
        QSignalSpy opened(window, &HistoryReplayWindow::opened);
        QSignalSpy drawn(window, &HistoryReplayWindow::timelineDrawn);
        window->show();
        QVERIFY(opened.wait(10000));
        QVERIFY(drawn.count() == 1 || drawn.wait(10000));
        HolderTimeline* timeline = window->timeline();
        QVERIFY(timeline->isVisible());
        const QString lane = QString::fromStdString(lock);
        QCOMPARE(timeline->lanes(), QStringList{lane});
        QCOMPARE(timeline->intervalCount(), 2); // 1a from 2 s to 4 s, 2b from 4 s to 5 s
        QVERIFY2(
            timeline->toolTipAt(timeline->pointOf(lane, at(3s))).contains("Key: " + lane + "/1a"),
            qPrintable(timeline->toolTipAt(timeline->pointOf(lane, at(3s)))));
        // How each hold ended, as the scrubber's kinds are named.
        const QString second = timeline->toolTipAt(timeline->pointOf(lane, at(4500ms)));
        QVERIFY2(second.contains("/2b") && second.contains("(expired)"), qPrintable(second));
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));
        QCOMPARE(timeline->marker(), std::optional<double>(at(1s)));

        window->showMoment(3); // 2b enqueued, at 3 s
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(3));
        QCOMPARE(timeline->marker(), std::optional<double>(at(3s)));

        // A click at 4.5 s: the last moment by then is 2b's acquisition (moment 5, at 4 s).
        QWidget* plot = timeline->childAt(timeline->pointOf(lane, at(4500ms)));
        QVERIFY(plot);
        const auto onPlot = [&](std::chrono::milliseconds time) {
            return plot->mapFrom(timeline, timeline->pointOf(lane, at(time)));
        };
        QTest::mouseClick(plot, Qt::LeftButton, {}, onPlot(4500ms));
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(5));
        QCOMPARE(timeline->marker(), std::optional<double>(at(4s)));

        // The line dragged back to 2.5 s: 1a's acquisition (moment 2, at 2 s).
        QTest::mousePress(plot, Qt::LeftButton, {}, onPlot(4000ms));
        QMouseEvent move(QEvent::MouseMove, onPlot(2500ms), plot->mapToGlobal(onPlot(2500ms)),
                         Qt::NoButton, Qt::LeftButton, {});
        QApplication::sendEvent(plot, &move);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(2));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, onPlot(2500ms));
        QCOMPARE(window->shownMoment(), std::optional<std::size_t>(2));
        QCOMPARE(timeline->marker(), std::optional<double>(at(2s)));
        // The view was not dragged with it: 1 s to 5 s is still in sight.
        QVERIFY(plot->rect().contains(onPlot(1000ms)));
        QVERIFY(plot->rect().contains(onPlot(5000ms)));
        QVERIFY(test::saveScreenshot(*window, "replay_timeline.png"));
        window->close();
    }

    // "Next" of the kind "anomaly appeared" goes to the moment a key began to block its queue
    // and shows the anomaly there, with the key's lease recorded gone.
    void jumpsToTheNextAnomalyAppearing() {
        const QString anomalies = dir.filePath("anomalies.db");
        {
            auto store = recordingOf1aHolding2bWaiting(anomalies);
            QVERIFY(store);
            QVERIFY(store->write(HistoryAnomaly{
                {true, lock, {lock + "/1a", etcd::AnomalyKind::ExpiredLease, "lease 1a is gone"}},
                3,
                t0 + 4s}));
            QVERIFY(store->write(lockEvent(Kind::Expired, "1a", 4, 2)));
            QVERIFY2(store->commit(), qPrintable(store->error()));
        }
        auto* window = new HistoryReplayWindow(anomalies);
        QSignalSpy opened(window, &HistoryReplayWindow::opened);
        window->show();
        QVERIFY(opened.wait(10000));
        // Each kind counted apart: the anomaly is no event.
        const QString banner = window->findChild<QLabel*>()->text();
        QVERIFY2(banner.contains("4 event(s), 0 gap(s) and 1 anomaly change(s)"),
                 qPrintable(banner));
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));
        auto* kinds = window->findChild<QComboBox*>("momentKind");
        QVERIFY(kinds);
        kinds->setCurrentIndex(kinds->count() - 1);
        QPushButton* next = nullptr;
        for (auto* button : window->findChildren<QPushButton*>())
            if (button->text() == "Next")
                next = button;
        QVERIFY(next);
        next->click();
        // The start, three events, then the anomaly.
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(4));
        const QModelIndex badge = window->lockModel()->index(0, LockListModel::Anomalies);
        QVERIFY2(window->lockModel()->data(badge).toString().contains("expired"),
                 qPrintable(window->lockModel()->data(badge).toString()));
        window->close();
    }

    void aFileThatIsNoRecordingSaysWhy() {
        const QString other = dir.filePath("notes.txt");
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a database");
        file.close();
        auto* window = new HistoryReplayWindow(other);
        QSignalSpy failed(window, &HistoryReplayWindow::openFailed);
        window->show();
        QVERIFY(failed.wait(10000));
        QVERIFY(!failed.at(0).at(0).toString().isEmpty());
        QCOMPARE(window->momentCount(), std::size_t{0});
        window->close();
    }

    void aStoreOfSeveralPrefixesOpensTheOneAskedForOrAsksWhich() {
        const QString shared = dir.filePath("cluster.db");
        // Two prefixes of one cluster, as the window records them into the cluster's file:
        // /a/ with one event, /b/ with two.
        for (const auto& [prefix, events] :
             {std::pair{std::string("/a/"), 1}, std::pair{std::string("/b/"), 2}}) {
            QString problem;
            auto store =
                LockHistoryStore::openForWriting(shared, "127.0.0.1:2379", prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(HistoryCheckpoint{1, t0 + 1s, "start", {}}));
            for (int i = 0; i < events; ++i)
                QVERIFY(store->write(lockEvent(Kind::Enqueued, "1a", 2 + i, 2 + i)));
            QVERIFY(store->commit());
        }

        auto* given = new HistoryReplayWindow(shared, nullptr, "/b/");
        QSignalSpy givenOpened(given, &HistoryReplayWindow::opened);
        QVERIFY(givenOpened.wait(10000));
        QCOMPARE(given->momentCount(), std::size_t{3}); // the start and /b/'s two events
        given->close();

        auto* asking = new HistoryReplayWindow(shared);
        QSignalSpy asked(asking, &HistoryReplayWindow::sourceChoiceAsked);
        QSignalSpy opened(asking, &HistoryReplayWindow::opened);
        asking->show();
        QVERIFY(asked.wait(10000));
        auto* choice = asking->findChild<QInputDialog*>();
        QVERIFY(choice);
        QCOMPARE(choice->comboBoxItems().size(), 2);
        choice->setTextValue(choice->comboBoxItems().at(0));
        choice->accept();
        QVERIFY(opened.wait(10000));
        QCOMPARE(asking->momentCount(), std::size_t{2}); // the start and /a/'s event
        asking->close();
    }

    // A recording longer than the window may hold opens its last part, from a checkpoint, and
    // says so; Span… then opens another part (here the first) of the same recording.
    void aRecordingTooLongToOpenWholeOpensItsLastPartThenAnother() {
        const QString longer = dir.filePath("longer.db");
        {
            auto store = recordingOf1aHolding2bWaiting(longer);
            QVERIFY(store);
            // 1a holds and 2b waits: the state the last part starts from.
            HistoryKey holder{lock, lock + "/1a", 0x1a, 2, 2};
            holder.holds = true;
            holder.enqueuedAt = holder.acquiredAt = t0 + 2s;
            HistoryKey waiter{lock, lock + "/2b", 0x2b, 3, 3};
            waiter.enqueuedAt = t0 + 3s;
            QVERIFY(store->write(HistoryCheckpoint{3, t0 + 3s, "periodic", {holder, waiter}}));
            etcd::LockEvent handedOn = lockEvent(Kind::Acquired, "2b", 4, 3);
            handedOn.waited = 1000ms;
            for (const auto& e : {lockEvent(Kind::Released, "1a", 4, 2), handedOn})
                QVERIFY(store->write(e));
            QVERIFY2(store->commit(), qPrintable(store->error()));
        }
        // Three entries at most: not the first checkpoint's interval and what follows.
        auto* window = new HistoryReplayWindow(longer, nullptr, {}, {}, 3);
        QSignalSpy opened(window, &HistoryReplayWindow::opened);
        window->show();
        QVERIFY(opened.wait(10000));
        auto* banner = window->findChild<QLabel*>();
        QVERIFY(banner);
        QVERIFY2(banner->text().contains("Too long to open at once"), qPrintable(banner->text()));
        auto* span = window->findChild<QPushButton*>("spanButton");
        QVERIFY(span && span->isEnabled());
        // The checkpoint of revision 3, then 1a's release and 2b's acquiring.
        QCOMPARE(window->momentCount(), std::size_t{3});
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));
        // The moment line says what the first moment is: not the recording's start here.
        const auto momentLine = [&] {
            for (auto* label : window->findChildren<ElidedLabel*>())
                if (label->text().startsWith("1 of "))
                    return label->text();
            return QString();
        };
        QVERIFY2(momentLine().contains("the checkpoint the span starts from"),
                 qPrintable(momentLine()));
        window->selectLock(lock);
        QCOMPARE(window->queueModel()->rowCount(), 2);
        QCOMPARE(window->queueModel()->entryAt(0).key, lock + "/1a");

        // Span… asks which part, each end a time or a revision, as a user types them: a wrong
        // end is said so and the dialog stays; the first revisions then open whole.
        span->click();
        auto* ask = window->findChild<HistorySpanDialog*>();
        QVERIFY(ask && ask->isVisible());
        auto* from = ask->findChild<QLineEdit*>("spanFrom");
        auto* to = ask->findChild<QLineEdit*>("spanTo");
        auto* problem = ask->findChild<QLabel*>("spanProblem");
        QVERIFY(from && to && problem);
        // The part read now: from its checkpoint (3 s) to its last event (4 s).
        const auto iso = [](std::chrono::system_clock::time_point at) {
            return QString::fromStdString(isoTime(at));
        };
        QCOMPARE(from->text(), iso(t0 + 3s));
        QCOMPARE(to->text(), iso(t0 + 4s));
        auto* open = ask->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open);
        from->setText("yesterday");
        open->click();
        QVERIFY(ask->isVisible() && problem->isVisible());
        QVERIFY2(problem->text().contains("\"yesterday\""), qPrintable(problem->text()));
        from->setText("");
        to->setText("2"); // a revision
        open->click();
        QVERIFY(opened.wait(10000));
        QVERIFY2(!banner->text().contains("Too long"), qPrintable(banner->text()));
        // The start, 1a enqueued and acquired, 2b enqueued (up to the checkpoint after the span).
        QCOMPARE(window->momentCount(), std::size_t{4});
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(0));
        QVERIFY2(momentLine().contains("the start: the locks as first read"),
                 qPrintable(momentLine()));
        window->showMoment(3);
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(3));
        window->selectLock(lock); // it was not there at the start
        QCOMPARE(window->queueModel()->rowCount(), 2);
        QCOMPARE(window->queueModel()->entryAt(1).key, lock + "/2b");

        // From a time within: the locks then come first, read by their checkpoint's interval,
        // then the span opens at the moment that time names (1a acquired at 2 s), not before.
        QSignalSpy previewed(window, &HistoryReplayWindow::momentPreviewed);
        const auto openings = opened.count();
        LockHistoryStore::Filter within;
        within.since = t0 + 2500ms;
        within.until = t0 + 2900ms;
        window->openSpan(within);
        QVERIFY(previewed.wait(10000));
        QCOMPARE(window->queueModel()->rowCount(), 1);
        QCOMPARE(window->queueModel()->entryAt(0).key, lock + "/1a");
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), openings + 1, 10000);
        QCOMPARE(window->momentCount(), std::size_t{4});
        QTRY_COMPARE(window->shownMoment(), std::optional<std::size_t>(2));
        QCOMPARE(window->queueModel()->rowCount(), 1);

        // A span that cannot be read (the file gone meanwhile): said so, nothing left to scrub
        // but Span… to ask again.
        QSignalSpy failed(window, &HistoryReplayWindow::openFailed);
        QVERIFY(QFile::remove(longer));
        window->openSpan(within);
        QVERIFY(failed.wait(10000));
        QVERIFY2(banner->text().startsWith("This part of the recording cannot be read"),
                 qPrintable(banner->text()));
        QVERIFY(span->isEnabled());
        for (auto* button : window->findChildren<QPushButton*>())
            if (button != span)
                QVERIFY2(!button->isEnabled(), qPrintable(button->text()));
        window->close();
    }

private:
    QTemporaryDir dir;
    QString path;
};

LOCKSCOPE_QTEST_MAIN(HistoryReplayWindowIntegrationTest)
#include "history_replay_window_integration_test.moc"
