#include "app/ctl/monitor_retry.h"

#include "app/core/guarded_post.h"
#include "app/core/retry_backoff.h"
#include "app/ctl/ctl_command.h"

#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

bool reportMonitorRetry(const etcd::LockMonitor::Retry& retry) {
    if (!RetryBackoff::worthRetrying(retry.error)) {
        say(retry.error.message);
        // From the client's thread: posted so that ThreadSanitizer sees the handoff, even of a
        // call still queued when the application ends.
        postGuarded(QPointer<QCoreApplication>(QCoreApplication::instance()),
                    [](QCoreApplication*) { QCoreApplication::exit(ExitFailed); });
        return false;
    }
    say(QCoreApplication::translate("lockscopectl", "reconnecting (attempt %1, next in %2 s): %3")
            .arg(retry.attempt)
            .arg(QString::fromStdString(RetryBackoff::seconds(retry.delay)),
                 QString::fromStdString(retry.error.message)));
    return true;
}

} // namespace lockscope
