#include "lab_window.h"

#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "run_events.h"

namespace lockscope::bench {

void showLive(MainWindow& window, const etcd::ClientOptions& options, const std::string& prefix) {
    window.setPrefix(QString::fromStdString(prefix));
    window.connectTo(options);
    window.resize(1600, 1000);
    window.show();
    const LockWatch* watch = window.lockWatch();
    runEventsUntil([watch] { return watch->live(); }, std::chrono::seconds(10));
}

lab::LabOptions labOn(const std::string& prefix, int workers, int locks) {
    lab::LabOptions lab;
    lab.workers = workers;
    lab.locks.clear();
    for (int i = 0; i < locks; ++i)
        lab.locks.push_back(prefix + "lock-" + std::to_string(i));
    return lab;
}

} // namespace lockscope::bench
