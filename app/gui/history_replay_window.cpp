#include "app/gui/history_replay_window.h"

#include "app/core/blockers_model.h"
#include "app/core/event_words.h"
#include "app/core/guarded_post.h"
#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/gui/blockers_page.h"
#include "app/gui/history_report_dialog.h"
#include "app/gui/history_span_dialog.h"
#include "app/gui/screen_fit.h"
#include "app/gui/stage_page.h"
#include "app/gui/stage_scene_builder.h"
#include "app/gui/timeline_hold.h"
#include "etcdclient/clock.h"
#include "widgets/elided_label.h"
#include "widgets/holder_timeline.h"
#include "widgets/plain_text_delegate.h"
#include "widgets/stage_view.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace lockscope {

namespace {

// The kind list's entry for an anomaly appearing: no event kind has it.
constexpr int anomalyAppeared = -1;

QString timeText(std::chrono::system_clock::time_point at) {
    return QString::fromStdString(isoTime(at));
}

QTableView* tableOf(QAbstractItemModel* model, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setItemDelegate(new PlainTextDelegate(table));
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace

HistoryReplayWindow::HistoryReplayWindow(const QString& location, QWidget* parent,
                                         const std::string& prefix,
                                         const LockHistoryStore::Filter& span,
                                         std::size_t maxEntries)
    : HistoryReplayWindow(
          tr("Recorded history: %1").arg(location),
          [&](RecordedHistory::Callbacks callbacks) {
              return new RecordedHistory(location, std::move(callbacks), prefix, span, maxEntries);
          },
          parent) {}

HistoryReplayWindow::HistoryReplayWindow(EtcdHistory history, const QString& source,
                                         const QString& prefix, QWidget* parent)
    : HistoryReplayWindow(
          tr("etcd's history from revision %1: %2").arg(history.from).arg(source),
          [&](RecordedHistory::Callbacks callbacks) {
              return new RecordedHistory(std::move(history), source, prefix, std::move(callbacks));
          },
          parent) {}

HistoryReplayWindow::HistoryReplayWindow(
    const QString& title,
    const std::function<RecordedHistory*(RecordedHistory::Callbacks)>& history, QWidget* parent)
    : QMainWindow(parent)
    , locks_(new LockListModel(this))
    , queue_(new LockQueueModel(this))
    , blockers_(new BlockersModel(this)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(title);

    banner_ = new QLabel(tr("Reading the recording…"), this);
    banner_->setWordWrap(true);
    banner_->setMargin(6);
    // Amber, as every "this is not live" sign in LockScope: nothing here acts on a cluster.
    banner_->setStyleSheet("background: #ffe7a8; color: #3d2c00;");
    // Beside the banner, which says what part of the recording is read.
    spanButton_ = new QPushButton(tr("Span…"), this);
    spanButton_->setObjectName("spanButton");
    spanButton_->setToolTip(tr("Open another part of the recording, between two times or "
                               "revisions"));
    spanButton_->setEnabled(false);
    connect(spanButton_, &QPushButton::clicked, this, &HistoryReplayWindow::askSpan);

    lockTable_ = tableOf(locks_, this);
    // A recording keeps no lease's TTL, and the locks were no one's here.
    lockTable_->setColumnHidden(LockListModel::Ttl, true);
    lockTable_->setColumnHidden(LockListModel::Ours, true);
    // Lock names and holder keys are long: wider than the default at first.
    lockTable_->setColumnWidth(LockListModel::Name, 150);
    lockTable_->setColumnWidth(LockListModel::Holder, 150);
    queueTable_ = tableOf(queue_, this);
    for (const int column : {LockQueueModel::Ttl, LockQueueModel::GrantedTtl, LockQueueModel::Lock,
                             LockQueueModel::Kind, LockQueueModel::Value})
        queueTable_->setColumnHidden(column, true);
    stage_ = new StageView(this);

    auto* tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(lockTable_);
    tables->addWidget(queueTable_);
    auto* body = new QSplitter(Qt::Vertical, this);
    body->addWidget(tables);
    body->addWidget(createTimeline());
    // Scrolled, as on the Stage page: a stage of many lanes is taller than any screen.
    auto* stageScroll = new QScrollArea(this);
    stageScroll->setWidgetResizable(true);
    stageScroll->setWidget(stage_);
    // Who waited for whom then, as the Blockers page tells it live.
    blockersView_ = new QTreeView(this);
    blockersView_->setModel(blockers_);
    blockersView_->setItemDelegate(new PlainTextDelegate(blockersView_));
    blockersView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    blockersView_->header()->setDefaultSectionSize(220); // leases, keys and lock names
    connect(blockers_, &QAbstractItemModel::modelReset, blockersView_, &QTreeView::expandAll);
    connect(blockers_, &QAbstractItemModel::modelReset, blockersView_,
            [this] { BlockersPage::spanUnlistedRows(*blockersView_, *blockers_); });
    auto* views = new QTabWidget(this);
    views->addTab(stageScroll, tr("Stage"));
    views->addTab(blockersView_, tr("Blockers"));
    body->addWidget(views);
    // The timeline about as tall as the tables: a hundred lanes a pixel each read as one.
    body->setSizes({240, 220, 340});

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    auto* top = new QHBoxLayout;
    top->addWidget(banner_, 1);
    top->addWidget(spanButton_);
    layout->addLayout(top);
    layout->addWidget(createScrubberBar());
    layout->addWidget(body, 1);
    setCentralWidget(central);
    resize(1200, 800);
    fitToScreen(*this); // on a small screen, all of it within reach

    connect(lockTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                selectedLock_ = current.isValid() ? locks_->lockNameAt(current.row()) : "";
                showSelectedQueue();
            });
    holdsTimer_.setInterval(0);
    connect(&holdsTimer_, &QTimer::timeout, this, &HistoryReplayWindow::drawHolds);
    playTimer_.setInterval(33);
    connect(&playTimer_, &QTimer::timeout, this, &HistoryReplayWindow::playStep);

    // Callbacks on the history's thread; each posts to this window, dropped once it is closed.
    QPointer<HistoryReplayWindow> self(this);
    RecordedHistory::Callbacks callbacks{
        [self](std::shared_ptr<const RecordedHistorySummary> summary) {
            postGuarded(self, [summary](HistoryReplayWindow* w) { w->showSummary(summary); });
        },
        [self](const QString& problem) {
            postGuarded(self, [problem](HistoryReplayWindow* w) { w->showFailure(problem); });
        },
        [self](std::shared_ptr<const ReplayedMoment> moment) {
            postGuarded(self, [moment](HistoryReplayWindow* w) { w->showReplayed(moment); });
        },
        [self](std::shared_ptr<const LockHistoryReport> report, std::size_t from, std::size_t to) {
            postGuarded(self, [report, from, to](HistoryReplayWindow* w) {
                w->showReport(report, from, to);
            });
        },
        [self](const std::vector<LockHistoryStore::Source>& sources) {
            postGuarded(self, [sources](HistoryReplayWindow* w) { w->askSource(sources); });
        },
        [self](std::shared_ptr<const ReplayedMoment> moment,
               std::chrono::system_clock::time_point at) {
            postGuarded(self, [moment, at](HistoryReplayWindow* w) { w->showPreview(moment, at); });
        }};
    thread_ = new QThread; // ends itself after quit(): closing never waits on a read
    thread_->setObjectName("recorded history");
    history_ = history(std::move(callbacks));
    history_->moveToThread(thread_);
    connect(thread_, &QThread::finished, history_, &QObject::deleteLater);
    connect(thread_, &QThread::finished, thread_, &QObject::deleteLater);
    thread_->start();
    postToOwnThread(history_, [](RecordedHistory* history) { history->open(); });
}

HistoryReplayWindow::~HistoryReplayWindow() {
    thread_->quit();
}

QWidget* HistoryReplayWindow::createTimeline() {
    auto* column = new QWidget(this);
    timeline_ = new HolderTimeline(column);
    timeline_->setObjectName("replayTimeline");
    timeline_->setWindowTitle(tr("Holders over time")); // the name its exports are offered
    timeline_->setDurationFormat(holdDurationText);
    // One line, so the window still fits a small screen; pointing at it shows it whole.
    timelineNote_ = new ElidedLabel(column);
    auto* stack = new QVBoxLayout(column);
    stack->setContentsMargins(0, 0, 0, 0);
    stack->addWidget(timelineNote_);
    stack->addWidget(timeline_, 1);
    // Its line is the moment shown: a time chosen on it is the last moment at or before it.
    connect(timeline_, &HolderTimeline::timeChosen, this, [this](double time) {
        if (!summary_)
            return;
        const auto at = std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::system_clock::duration>(
                std::chrono::duration<double>(time)));
        if (const auto moment = momentAt(summary_->moments, at))
            showMoment(*moment);
    });
    return column;
}

void HistoryReplayWindow::showTimeline() {
    holdsTimer_.stop();
    holdsDrawn_ = 0;
    endWords_.clear(); // the language may have changed since
    timeline_->clear();
    if (!summary_->timesKnown) {
        timelineNote_->setText(tr("etcd keeps no times: its history has no timeline of holds."));
        timeline_->hide();
        return;
    }
    timeline_->show();
    QString note = tr("Holders over time, a lane per lock. The black line is the moment shown: "
                      "click the lanes or drag the line to go to a time; drag elsewhere or scroll "
                      "to move and zoom.");
    const HoldSpans& holds = summary_->holds;
    if (holds.locksLeftOut > 0)
        note += tr(" %n more lock(s) held in this part have no lane.", nullptr,
                   static_cast<int>(holds.locksLeftOut));
    if (holds.leftOutFrom)
        note += tr(" %n hold(s) from %1 on are not drawn.", nullptr,
                   static_cast<int>(holds.spansLeftOut))
                    .arg(timeText(*holds.leftOutFrom));
    timelineNote_->setText(note);
    if (summary_->moments.empty())
        return;
    // A little room each side: the line at the first or the last moment is not on the axis.
    const double from = etcd::unixSeconds(summary_->moments.front().at);
    const double to = etcd::unixSeconds(summary_->moments.back().at);
    const double room = std::max((to - from) / 50, 0.05);
    timeline_->showTimes(from - room, to + room);
    holdsTimer_.start();
}

void HistoryReplayWindow::drawHolds() {
    // Half a million bars at once would hold the GUI thread for seconds: a share per turn (an
    // hour's 20,000 took 35 ms).
    constexpr std::size_t perTurn = 10'000;
    const auto& spans = summary_->holds.spans;
    const std::size_t until = std::min(spans.size(), holdsDrawn_ + perTurn);
    for (; holdsDrawn_ < until; ++holdsDrawn_) {
        const HoldSpan& span = spans[holdsDrawn_];
        QString how;
        if (span.endedBy) {
            const int word = static_cast<int>(span.recipe) * 16 + static_cast<int>(*span.endedBy);
            auto found = endWords_.constFind(word);
            if (found == endWords_.constEnd())
                found = endWords_.insert(word, eventWord(span.recipe, eventCause(*span.endedBy)));
            how = *found;
        }
        drawHoldSpan(*timeline_, span, how);
    }
    if (holdsDrawn_ < spans.size())
        return;
    holdsTimer_.stop();
    emit timelineDrawn();
}

QWidget* HistoryReplayWindow::createScrubberBar() {
    // The scrubber on a row of its own, the window's width: the finer it is, the fewer events
    // share a pixel of a long recording.
    auto* column = new QWidget(this);
    auto* bar = new QWidget(column);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    auto* previous = new QPushButton(tr("◀"), bar);
    previous->setToolTip(tr("The event before"));
    auto* next = new QPushButton(tr("▶"), bar);
    next->setToolTip(tr("The event after"));
    playButton_ = new QPushButton(tr("Play"), bar);
    speed_ = new QComboBox(bar);
    for (const int speed : {1, 10, 100})
        speed_->addItem(tr("%1×").arg(speed), speed);
    scrubber_ = new QSlider(Qt::Horizontal, column);
    scrubber_->setEnabled(false);
    // Elided: a long key or anomaly must not widen the window; pointing shows it whole.
    momentText_ = new ElidedLabel(column);
    auto* nextOfLock = new QPushButton(tr("Next of this lock"), bar);
    kind_ = new QComboBox(bar);
    kind_->setObjectName("momentKind");
    using Kind = etcd::LockEventKind;
    for (const Kind kind : {Kind::Expired, Kind::Lost, Kind::ForceReleased, Kind::Acquired})
        kind_->addItem(eventWord(etcd::QueueKind::Mutex, eventCause(kind)), static_cast<int>(kind));
    kind_->addItem(tr("anomaly appeared"), anomalyAppeared);
    auto* nextOfKind = new QPushButton(tr("Next"), bar);
    auto* longestWait = new QPushButton(tr("Longest wait"), bar);
    auto* markStart = new QPushButton(tr("Mark start"), bar);
    markStart->setToolTip(tr("The span a report covers begins at the event shown"));
    auto* report = new QPushButton(tr("Report…"), bar);
    report->setToolTip(tr("Per lock, from the marked event (or the first) to the one shown: "
                          "acquisitions, hold and wait times, expiries, the longest waits"));

    row->addWidget(previous);
    row->addWidget(playButton_);
    row->addWidget(speed_);
    row->addWidget(next);
    row->addStretch(1);
    row->addWidget(nextOfLock);
    row->addWidget(kind_);
    row->addWidget(nextOfKind);
    row->addWidget(longestWait);
    row->addWidget(markStart);
    row->addWidget(report);
    auto* stack = new QVBoxLayout(column);
    stack->setContentsMargins(0, 0, 0, 0);
    stack->addWidget(scrubber_);
    stack->addWidget(bar);
    stack->addWidget(momentText_);

    connect(scrubber_, &QSlider::valueChanged, this, [this](int value) {
        describeMoment(static_cast<std::size_t>(value));
        askFor(static_cast<std::size_t>(value));
    });
    connect(previous, &QPushButton::clicked, this,
            [this] { scrubber_->setValue(scrubber_->value() - 1); });
    connect(next, &QPushButton::clicked, this,
            [this] { scrubber_->setValue(scrubber_->value() + 1); });
    connect(playButton_, &QPushButton::clicked, this, [this] {
        if (playing())
            pause();
        else
            play(speed_->currentData().toInt());
    });
    connect(speed_, &QComboBox::currentIndexChanged, this, [this] {
        if (playing())
            play(speed_->currentData().toInt());
    });
    connect(nextOfLock, &QPushButton::clicked, this, [this] {
        jumpTo([lock = selectedLock_](const RecordedMoment& m) { return m.lock == lock; });
    });
    connect(nextOfKind, &QPushButton::clicked, this, [this] {
        const int wanted = kind_->currentData().toInt();
        jumpTo([wanted](const RecordedMoment& m) {
            return wanted == anomalyAppeared ? m.anomaly && m.anomaly->appeared
                                             : m.kind == static_cast<etcd::LockEventKind>(wanted);
        });
    });
    connect(longestWait, &QPushButton::clicked, this, [this] {
        if (!summary_)
            return;
        if (const auto longest = longestWaitMoment(summary_->moments))
            showMoment(*longest);
        else
            momentText_->setText(tr("No wait was recorded."));
    });
    connect(markStart, &QPushButton::clicked, this, &HistoryReplayWindow::markSpanStart);
    connect(report, &QPushButton::clicked, this, &HistoryReplayWindow::reportSpan);
    for (auto* control : bar->findChildren<QWidget*>())
        control->setEnabled(false);
    return column;
}

void HistoryReplayWindow::enableControls(bool enabled) {
    for (auto* control : scrubber_->parentWidget()->findChildren<QWidget*>())
        control->setEnabled(enabled);
    // Only a recording has times to choose a span between: etcd's own history has none.
    spanButton_->setEnabled(enabled && summary_ && summary_->recordedFrom);
}

void HistoryReplayWindow::showSummary(std::shared_ptr<const RecordedHistorySummary> summary) {
    summary_ = std::move(summary);
    shown_.reset();
    spanStart_.reset();
    reopening_ = false;
    const auto asked = std::exchange(askedSpan_, std::nullopt);
    // The start is no event.
    const int moments = static_cast<int>(summary_->moments.size()) -
                        (!summary_->moments.empty() && summary_->moments.front().start ? 1 : 0);
    const int events = moments - summary_->gaps - summary_->anomalyChanges;
    QString banner = tr("Recorded, not live: the locks under %1 of %2, in %3.")
                         .arg(summary_->prefix, summary_->source, summary_->location) +
                     tr(" %n event(s),", nullptr, events) +
                     tr(" %n gap(s)", nullptr, summary_->gaps) +
                     tr(" and %n anomaly change(s); nothing here acts on a cluster.", nullptr,
                        summary_->anomalyChanges);
    if (summary_->cutBefore)
        banner += tr(" Too long to open at once: only the part from %1 on is read (the recording "
                     "begins %2). Span… opens another part.")
                      .arg(timeText(*summary_->cutBefore),
                           summary_->recordedFrom ? timeText(*summary_->recordedFrom) : QString());
    else if (summary_->cutAfter)
        banner += tr(" Too long to open at once: only the part up to %1 is read. Span… opens "
                     "another part.")
                      .arg(timeText(*summary_->cutAfter));
    else if (summary_->partial)
        banner += tr(" Only the span asked for is read (from the checkpoint before it).");
    banner_->setText(banner);
    // Without times (etcd's own history), how long a key waited or held is unknown.
    queueTable_->setColumnHidden(LockQueueModel::Waiting, !summary_->timesKnown);
    showTimeline();
    if (summary_->moments.empty()) {
        enableControls(false);
        momentText_->setText(tr("The recording holds no event yet."));
        emit opened();
        return;
    }
    enableControls(true);
    // Span… asked from a time or revision: the moment it names (the last one at or before it),
    // not the checkpoint the span is read from.
    std::size_t first = 0;
    const auto reached = [&](const RecordedMoment& moment) {
        return (!asked->since || moment.at <= *asked->since) &&
               (!asked->sinceRevision || moment.revision <= *asked->sinceRevision);
    };
    if (asked && asked->namesStart())
        while (first + 1 < summary_->moments.size() && reached(summary_->moments[first + 1]))
            ++first;
    // Set without signals: a value of the old range must not ask the new one for it.
    scrubber_->blockSignals(true);
    scrubber_->setRange(0, static_cast<int>(summary_->moments.size()) - 1);
    scrubber_->setValue(static_cast<int>(first));
    scrubber_->blockSignals(false);
    emit opened();
    describeMoment(first);
    askFor(first);
}

void HistoryReplayWindow::showFailure(const QString& problem) {
    reopening_ = false;
    askedSpan_.reset();
    if (summary_) {
        // Another span failed: the history let go of the one read before it, so nothing is
        // left to scrub but another span to ask for.
        banner_->setText(
            tr("This part of the recording cannot be read: %1. Span… opens another.").arg(problem));
        momentText_->clear();
        holdsTimer_.stop();
        timeline_->clear();
        enableControls(false);
        spanButton_->setEnabled(summary_->recordedFrom.has_value());
    } else {
        banner_->setText(tr("This recording cannot be read: %1").arg(problem));
    }
    emit openFailed(problem);
}

void HistoryReplayWindow::askSpan() {
    if (!summary_ || !summary_->recordedFrom)
        return;
    auto* dialog = new HistorySpanDialog(*summary_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { openSpan(dialog->span()); });
    dialog->open();
}

void HistoryReplayWindow::openSpan(const LockHistoryStore::Filter& span) {
    pause();
    reopening_ = true;
    askedSpan_ = span;
    next_.reset();
    enableControls(false);
    banner_->setText(tr("Reading the recording…"));
    postToOwnThread(history_, [span](RecordedHistory* history) { history->openSpan(span); });
}

void HistoryReplayWindow::askSource(const std::vector<LockHistoryStore::Source>& sources) {
    banner_->setText(tr("This store holds the histories of several prefixes or clusters: choose "
                        "one."));
    auto* choice = new QInputDialog(this);
    choice->setAttribute(Qt::WA_DeleteOnClose);
    choice->setWindowTitle(tr("Which history?"));
    choice->setLabelText(tr("The locks under:"));
    QStringList items;
    std::vector<int64_t> ids;
    for (const auto& source : sources) {
        items << tr("%1 of %2")
                     .arg(QString::fromStdString(displayKey(source.prefix)),
                          QString::fromStdString(source.name));
        ids.push_back(source.id);
    }
    choice->setComboBoxItems(items);
    connect(choice, &QInputDialog::textValueSelected, this,
            [this, items, ids](const QString& item) {
                openSource(ids[static_cast<std::size_t>(items.indexOf(item))]);
            });
    choice->open();
    emit sourceChoiceAsked();
}

void HistoryReplayWindow::openSource(int64_t id) {
    banner_->setText(tr("Reading the recording…"));
    postToOwnThread(history_, [id](RecordedHistory* history) { history->open(id); });
}

void HistoryReplayWindow::askFor(std::size_t index) {
    if (asked_) {
        next_ = index;
        return;
    }
    asked_ = index;
    postToOwnThread(history_, [index](RecordedHistory* history) { history->replay(index); });
}

void HistoryReplayWindow::showReplayed(std::shared_ptr<const ReplayedMoment> moment) {
    asked_.reset();
    if (reopening_ || !summary_ || moment->moment >= summary_->moments.size())
        return; // asked of the span read before
    shown_ = std::move(moment);
    showLocks(shown_, summary_->moments[shown_->moment].at);
    describeMoment(shown_->moment);
    emit momentShown(shown_->moment);
    if (next_) {
        const std::size_t index = *std::exchange(next_, std::nullopt);
        if (index != shown_->moment)
            askFor(index);
    }
}

void HistoryReplayWindow::showPreview(std::shared_ptr<const ReplayedMoment> moment,
                                      std::chrono::system_clock::time_point at) {
    if (!reopening_)
        return;
    showLocks(moment, at);
    momentText_->setText(tr("As at %1 · revision %2 · read by its checkpoint's interval alone; the "
                            "span is being read")
                             .arg(timeText(at))
                             .arg(moment->revision));
    emit momentPreviewed();
}

void HistoryReplayWindow::showLocks(std::shared_ptr<const ReplayedMoment> locks,
                                    std::chrono::system_clock::time_point at) {
    lockState_ = std::move(locks);
    lockStateAt_ = at;
    locks_->setState(lockState_->state);
    if (!selectedLock_.empty())
        if (const int row = locks_->rowOfLock(selectedLock_); row >= 0)
            lockTable_->selectRow(row);
    stage_->setScene(stageSceneOf(lockState_->state, {}, StagePage::MaxLanes));
    blockers_->refresh(lockState_->graph, at);
    showSelectedQueue();
}

void HistoryReplayWindow::showSelectedQueue() {
    const etcd::LockQueue* queue = nullptr;
    if (lockState_)
        if (const auto found = lockState_->state.locks.find(selectedLock_);
            found != lockState_->state.locks.end())
            queue = &*found->second;
    queue_->setQueue(queue, {}, std::chrono::steady_clock::now(), lockStateAt_);
}

void HistoryReplayWindow::describeMoment(std::size_t index) {
    if (!summary_ || index >= summary_->moments.size())
        return;
    const RecordedMoment& moment = summary_->moments[index];
    if (summary_->timesKnown)
        timeline_->setMarker(etcd::unixSeconds(moment.at));
    QString what;
    if (moment.start)
        // A span that begins before the recording does starts at its first checkpoint too.
        what = summary_->partial && moment.at != summary_->recordedFrom
                   ? tr("the checkpoint the span starts from: the locks then")
                   : tr("the start: the locks as first read");
    else if (moment.kind)
        what = tr("%1 %2").arg(eventWord(etcd::QueueKind::Mutex, eventCause(*moment.kind)),
                               QString::fromStdString(displayKey(moment.lock)));
    else if (moment.anomaly)
        what = (moment.anomaly->appeared ? tr("⚠ anomaly appeared: %1 on %2 (%3)")
                                         : tr("anomaly went: %1 on %2 (%3)"))
                   .arg(LockListModel::anomalyWord(moment.anomaly->anomaly.kind),
                        displayKeyText(moment.anomaly->anomaly.key),
                        QString::fromStdString(moment.anomaly->anomaly.detail));
    else
        what = tr("a gap in the recording: the locks were re-read");
    // etcd keeps no times: its history is told in revisions only.
    const QString when = summary_->timesKnown ? timeText(moment.at) : tr("time not kept by etcd");
    QString text = tr("%1 of %2 · revision %3 · %4 · %5")
                       .arg(index + 1)
                       .arg(summary_->moments.size())
                       .arg(moment.revision)
                       .arg(when, what);
    if (spanStart_)
        text += tr(" · a report starts at event %1").arg(*spanStart_ + 1);
    if (shown_ && shown_->moment == index && shown_->inGap)
        text += tr(" · in a gap (%1): the locks as last seen before it")
                    .arg(QString::fromStdString(shown_->inGap->reason));
    momentText_->setText(text);
}

void HistoryReplayWindow::jumpTo(const std::function<bool(const RecordedMoment&)>& wanted) {
    if (!summary_)
        return;
    if (const auto found =
            nextMoment(summary_->moments, static_cast<std::size_t>(scrubber_->value()), wanted))
        showMoment(*found);
    else
        momentText_->setText(tr("No such event after this one."));
}

void HistoryReplayWindow::showMoment(std::size_t index) {
    if (!summary_ || summary_->moments.empty())
        return;
    scrubber_->setValue(static_cast<int>(std::min(index, summary_->moments.size() - 1)));
}

std::size_t HistoryReplayWindow::momentCount() const {
    return summary_ ? summary_->moments.size() : 0;
}

std::optional<std::size_t> HistoryReplayWindow::shownMoment() const {
    return shown_ ? std::optional(shown_->moment) : std::nullopt;
}

void HistoryReplayWindow::selectLock(const std::string& lock) {
    selectedLock_ = lock;
    if (const int row = locks_->rowOfLock(lock); row >= 0)
        lockTable_->selectRow(row);
    showSelectedQueue();
}

void HistoryReplayWindow::markSpanStart() {
    spanStart_ = static_cast<std::size_t>(scrubber_->value());
    describeMoment(*spanStart_);
}

void HistoryReplayWindow::reportSpan() {
    if (!summary_ || summary_->moments.empty())
        return;
    std::size_t from = spanStart_.value_or(0);
    std::size_t to = static_cast<std::size_t>(scrubber_->value());
    // Nothing marked and nothing played yet: the whole recording.
    if (!spanStart_ && to == 0)
        to = summary_->moments.size() - 1;
    if (from > to)
        std::swap(from, to);
    postToOwnThread(history_, [from, to](RecordedHistory* history) { history->report(from, to); });
}

void HistoryReplayWindow::showReport(std::shared_ptr<const LockHistoryReport> report,
                                     std::size_t from, std::size_t to) {
    if (!summary_ || to >= summary_->moments.size())
        return;
    const RecordedMoment& first = summary_->moments[from];
    const RecordedMoment& last = summary_->moments[to];
    const QString span = summary_->timesKnown
                             ? tr("revisions %1 to %2, %3 to %4")
                                   .arg(first.revision)
                                   .arg(last.revision)
                                   .arg(timeText(first.at), timeText(last.at))
                             : tr("revisions %1 to %2").arg(first.revision).arg(last.revision);
    auto* dialog = new HistoryReportDialog(std::move(report), span, this);
    dialog->show();
    emit reportShown(dialog);
}

void HistoryReplayWindow::play(int speed) {
    if (!summary_ || summary_->moments.empty())
        return;
    playSpeed_ = speed;
    playAt_ = summary_->moments[static_cast<std::size_t>(scrubber_->value())].at;
    playClock_ = std::chrono::steady_clock::now();
    playButton_->setText(tr("Pause"));
    playTimer_.start();
}

void HistoryReplayWindow::pause() {
    playTimer_.stop();
    playButton_->setText(tr("Play"));
}

void HistoryReplayWindow::playStep() {
    const auto elapsed = (std::chrono::steady_clock::now() - playClock_) * playSpeed_;
    const auto until =
        playAt_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(elapsed);
    const auto& moments = summary_->moments;
    std::size_t index = static_cast<std::size_t>(scrubber_->value());
    while (index + 1 < moments.size() && moments[index + 1].at <= until)
        ++index;
    showMoment(index);
    if (index + 1 >= moments.size())
        pause();
}

} // namespace lockscope
