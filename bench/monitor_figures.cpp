#include "etcdclient/locks/lock_monitor.h"
#include "figures.h"
#include "lock_key_fill.h"
#include "resident_memory.h"

#include <thread>

namespace lockscope::bench {

std::vector<LoadFigure> measureMonitorLoad(etcd::Client& client, const Scale& scale) {
    std::vector<LoadFigure> out;
    for (const MonitorShape& shape : scale.monitorShapes) {
        const std::string prefix = "/bench/monitor/" + std::to_string(shape.locks) + "x" +
                                   std::to_string(shape.keysPerLock) + "/";
        fillLockKeys(client, prefix, shape);
        const double before = residentMb();
        const double heapBefore = heapInUseMb();
        const auto start = std::chrono::steady_clock::now();
        etcd::LockMonitor::Options options;
        options.prefix = prefix;
        auto monitor = etcd::LockMonitor::create(client, options);
        monitor->start();
        while (!monitor->liveness().first)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out.push_back({shape, seconds, residentMb() - before, heapInUseMb() - heapBefore});
        monitor.reset();
        clearPrefix(client, prefix);
    }
    return out;
}

} // namespace lockscope::bench
