#pragma once

#include "app/core/recorded_history.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableView;
class QThread;
class QTreeView;

namespace lockscope {

class BlockersModel;
class HistoryReportDialog;
class HolderTimeline;
class LockListModel;
class LockQueueModel;
class StageView;

// A recorded lock history, replayed: a scrubber over its events, a timeline of who held each
// lock when (its line is the moment shown: click or drag it to scrub by time), and at each
// moment the locks, the selected lock's queue and the stage as they stood then. Marked "recorded"
// throughout and offering no action on a lock. The recording is read and replayed on a thread of
// its own (RecordedHistory); the window only shows what comes back, the latest asked for.
class HistoryReplayWindow : public QMainWindow {
    Q_OBJECT
public:
    // `location`: a file or a postgresql:// URL (LockHistoryStore). When it holds the histories
    // of several sources, the one of `prefix` if just one is, else the user chooses.
    // `span`: only the moments between its times or revisions (RecordedHistory's), and at most
    // `maxEntries` of them (its last part when it holds more; the banner says so).
    explicit HistoryReplayWindow(const QString& location, QWidget* parent = nullptr,
                                 const std::string& prefix = {},
                                 const LockHistoryStore::Filter& span = {},
                                 std::size_t maxEntries = RecordedHistory::defaultMaxEntries);
    // etcd's own history (readEtcdHistory) of the locks under `prefix` of cluster `source`.
    HistoryReplayWindow(EtcdHistory history, const QString& source, const QString& prefix,
                        QWidget* parent = nullptr);
    ~HistoryReplayWindow() override;

    // Goes to moment `index` of the recording (clamped).
    void showMoment(std::size_t index);
    // How many moments (recorded events and gaps); 0 until opened.
    std::size_t momentCount() const;
    // The moment shown, once the first has come back.
    std::optional<std::size_t> shownMoment() const;
    // Plays on from the moment shown, at `speed` times the recorded pace (1, 10 or 100).
    void play(int speed);
    void pause();
    bool playing() const { return playTimer_.isActive(); }
    LockListModel* lockModel() const { return locks_; }
    LockQueueModel* queueModel() const { return queue_; }
    BlockersModel* blockersModel() const { return blockers_; }
    StageView* stage() const { return stage_; }
    HolderTimeline* timeline() const { return timeline_; }
    // Selects `lock` (its name as etcd has it) in the list, for its queue and "next of this lock".
    void selectLock(const std::string& lock);
    // The report of the span from the marked moment (the first when none is) to the one shown.
    void markSpanStart();
    void reportSpan();
    // Reads the source `id` of the store (after a choice among several).
    void openSource(int64_t id);
    // Reads the part of the recording between `span`'s times or revisions instead (what Span…
    // asks for): the locks at its start first, then the span, shown from that start.
    void openSpan(const LockHistoryStore::Filter& span);

signals:
    // The recording was read: the scrubber is ready.
    void opened();
    // The store holds several sources: the user is asked which (a QInputDialog of the window).
    void sourceChoiceAsked();
    // It could not be read: `problem` says why (also shown in the window).
    void openFailed(const QString& problem);
    // A moment's locks are shown.
    void momentShown(std::size_t index);
    // The locks at the start of a span asked for are shown, before the span is read.
    void momentPreviewed();
    // A span's report is shown in `dialog`.
    void reportShown(HistoryReportDialog* dialog);
    // Every hold read is on the timeline.
    void timelineDrawn();

private:
    // The window around `history`, which it starts on a thread of its own.
    HistoryReplayWindow(const QString& title,
                        const std::function<RecordedHistory*(RecordedHistory::Callbacks)>& history,
                        QWidget* parent);
    QWidget* createScrubberBar();
    QWidget* createTimeline();
    // The summary's holds on the timeline, from its first moment to its last.
    void showTimeline();
    void showSummary(std::shared_ptr<const RecordedHistorySummary> summary);
    void showFailure(const QString& problem);
    void askSource(const std::vector<LockHistoryStore::Source>& sources);
    void askSpan();
    void enableControls(bool enabled);
    void showReplayed(std::shared_ptr<const ReplayedMoment> moment);
    void showPreview(std::shared_ptr<const ReplayedMoment> moment,
                     std::chrono::system_clock::time_point at);
    // The tables and the stage show `locks`, as they stood at `at`.
    void showLocks(std::shared_ptr<const ReplayedMoment> locks,
                   std::chrono::system_clock::time_point at);
    // The report of moments `from` to `to` (from <= to, as reportSpan asked).
    void showReport(std::shared_ptr<const LockHistoryReport> report, std::size_t from,
                    std::size_t to);
    void askFor(std::size_t index);
    void showSelectedQueue();
    void describeMoment(std::size_t index);
    void jumpTo(const std::function<bool(const RecordedMoment&)>& wanted);
    void playStep();
    // The timeline from the summary's holds, a share per turn of the event loop.
    void drawHolds();

    QThread* thread_ = nullptr;
    RecordedHistory* history_ = nullptr;
    std::shared_ptr<const RecordedHistorySummary> summary_;
    std::shared_ptr<const ReplayedMoment> shown_; // the moment the scrubber is at, once replayed
    // What the tables show: shown_, or a span's start read ahead of it.
    std::shared_ptr<const ReplayedMoment> lockState_;
    std::chrono::system_clock::time_point lockStateAt_;
    // One request at a time: a scrubber dragged fast asks only for where it stops.
    std::optional<std::size_t> asked_, next_;
    std::string selectedLock_;
    std::optional<std::size_t> spanStart_;
    // Another span is being read: a replay answered before it is of the old one.
    bool reopening_ = false;
    std::optional<LockHistoryStore::Filter> askedSpan_; // its start is where it goes once read

    QLabel* banner_ = nullptr;
    QLabel* momentText_ = nullptr;
    QSlider* scrubber_ = nullptr;
    QPushButton* playButton_ = nullptr;
    QComboBox* speed_ = nullptr;
    QComboBox* kind_ = nullptr;
    QPushButton* spanButton_ = nullptr;
    LockListModel* locks_ = nullptr;
    LockQueueModel* queue_ = nullptr;
    BlockersModel* blockers_ = nullptr;
    QTableView* lockTable_ = nullptr;
    QTableView* queueTable_ = nullptr;
    QTreeView* blockersView_ = nullptr;
    StageView* stage_ = nullptr;
    HolderTimeline* timeline_ = nullptr;
    QLabel* timelineNote_ = nullptr;
    QTimer holdsTimer_;
    std::size_t holdsDrawn_ = 0; // of summary_'s holds
    // How holds ended, by recipe and kind: one QString a word, not one a bar.
    QHash<int, QString> endWords_;

    QTimer playTimer_;
    int playSpeed_ = 1;
    // Where the play is, in the recording's time, and when that was on our clock.
    std::chrono::system_clock::time_point playAt_;
    std::chrono::steady_clock::time_point playClock_;
};

} // namespace lockscope
