#pragma once
// What the desktop tests read off a live MainWindow, and where they save its screenshots:
// $LOCKSCOPE_ARTIFACTS_DIR, or the test's build directory (LOCKSCOPE_TEST_BUILD_DIR).

#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "widgets/latency_plot.h"

#include <QDir>
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

} // namespace lockscope::test
