#include "app/ctl/monitor_retry.h"

#include "app/core/retry_backoff.h"
#include "app/ctl/ctl_command.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <cstdio>

namespace lockscope {

bool reportMonitorRetry(const etcd::LockMonitor::Retry& retry) {
    if (!RetryBackoff::worthRetrying(retry.error)) {
        say(retry.error.message);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [] { QCoreApplication::exit(ExitFailed); },
            Qt::QueuedConnection);
        return false;
    }
    std::fprintf(stderr, "lockscopectl: reconnecting (attempt %d, next in %s s): %s\n",
                 retry.attempt, RetryBackoff::seconds(retry.delay).c_str(),
                 retry.error.message.c_str());
    return true;
}

} // namespace lockscope
