#pragma once
// What the desktop tests read off a live MainWindow, and where they save its screenshots:
// $LOCKSCOPE_ARTIFACTS_DIR, or the test's build directory (LOCKSCOPE_TEST_BUILD_DIR).

#include "app/core/endpoint_status_model.h"
#include "app/core/event_log_model.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/core/problem_log_model.h"
#include "app/gui/main_window.h"
#include "widgets/elided_label.h"
#include "widgets/latency_plot.h"
#include "widgets/problem_list.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTest>
#include <QWidget>
#include <string>

namespace lockscope::test {

inline bool saveScreenshot(QWidget& window, const QString& name) {
    const QString directory =
        qEnvironmentVariable("LOCKSCOPE_ARTIFACTS_DIR", LOCKSCOPE_TEST_BUILD_DIR);
    QDir().mkpath(directory);
    const QString path = QDir(directory).filePath(name);
    QTest::qWait(3 * LatencyPlot::ReplotIntervalMs); // let a pending coalesced redraw land
    qInfo("screenshot: %s", qPrintable(path));
    return window.grab().save(path);
}

// How many wait for `lock` in the window's lock list; -1 while it is not listed (or there is
// no connection yet).
inline int waitersShown(MainWindow& window, const std::string& lock) {
    if (!window.lockWatch())
        return -1;
    const LockListModel* locks = window.lockWatch()->locks();
    const int row = locks->rowOfLock(lock);
    return row < 0 ? -1 : locks->data(locks->index(row, LockListModel::Waiters)).toInt();
}

// The Cluster tab's table of members.
inline const EndpointStatusModel* statusModel(MainWindow& window) {
    auto* table = window.findChild<QTableView*>("endpointStatusTable");
    return table ? qobject_cast<const EndpointStatusModel*>(table->model()) : nullptr;
}

inline QString labelText(MainWindow& window, const char* name) {
    auto* label = window.findChild<QLabel*>(name);
    return label ? label->text() : QString();
}

// The problems area's newest problem; empty while there is none.
inline QString newestProblem(MainWindow& window) {
    auto* list = window.findChild<ProblemList*>();
    const auto* problems = list ? qobject_cast<const ProblemLogModel*>(list->model()) : nullptr;
    return problems && problems->rowCount() > 0 ? problems->problemAt(0).text : QString();
}

// Whether any problem listed contains `part`.
inline bool problemListed(MainWindow& window, const QString& part) {
    auto* list = window.findChild<ProblemList*>();
    const auto* problems = list ? qobject_cast<const ProblemLogModel*>(list->model()) : nullptr;
    for (int row = 0; problems && row < problems->rowCount(); ++row)
        if (problems->problemAt(row).text.contains(part))
            return true;
    return false;
}

// How many events of `cause` the event log shows, for `key` or any key.
inline int eventCount(MainWindow& window, EventCause cause, const std::string& key = {}) {
    const EventLogModel* events = window.lockWatch()->events();
    int count = 0;
    for (int row = 0; row < events->rowCount(); ++row)
        if (events->causeAt(row) == cause && (key.empty() || events->eventAt(row).key == key))
            ++count;
    return count;
}

// How many events of `kind` (of its cause: eventCause()) the event log shows.
inline int eventCount(MainWindow& window, etcd::LockEventKind kind, const std::string& key = {}) {
    return eventCount(window, eventCause(kind), key);
}

// The Event column's words for `key`, oldest first.
inline QStringList eventWordsOf(MainWindow& window, const std::string& key) {
    const EventLogModel* events = window.lockWatch()->events();
    QStringList words;
    for (int row = 0; row < events->rowCount(); ++row)
        if (events->eventAt(row).key == key)
            words << events->index(row, EventLogModel::Kind).data().toString();
    return words;
}

inline bool eventLogHas(MainWindow& window, etcd::LockEventKind kind, const std::string& key) {
    return eventCount(window, kind, key) > 0;
}

// Selects `lock` in the window's lock list, as a click on its row would.
inline bool selectLock(MainWindow& window, const std::string& lock) {
    auto* table = window.findChild<QTableView*>("lockTable");
    auto* proxy = qobject_cast<QAbstractProxyModel*>(table->model());
    const LockListModel* locks = window.lockWatch()->locks();
    const int row = locks->rowOfLock(lock);
    if (row < 0)
        return false;
    table->setCurrentIndex(proxy->mapFromSource(locks->index(row, 0)));
    return window.lockWatch()->selectedLock() == lock;
}

// The holder card's line about our own lock (or candidacy), empty when it shows none.
inline QString ownState(MainWindow& window) {
    auto* label = window.findChild<ElidedLabel*>("ownLockState");
    return label && label->isVisible() ? label->text() : QString();
}

// The pointer comes to rest over `widget` at `at` (its own coordinates): what asks it for a
// tooltip.
inline void restPointer(QWidget* widget, QPoint at) {
    QHelpEvent rest(QEvent::ToolTip, at, widget->mapToGlobal(at));
    QApplication::sendEvent(widget, &rest);
}

// A dialog's button by its text as shown (without the '&' of its mnemonic).
inline QPushButton* buttonNamed(QWidget& dialog, const QString& text) {
    for (auto* button : dialog.findChildren<QPushButton*>())
        if (button->text().remove('&') == text)
            return button;
    return nullptr;
}

} // namespace lockscope::test
