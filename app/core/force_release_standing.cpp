#include "app/core/force_release_standing.h"

#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_queue_model.h"
#include "etcdclient/hex_id.h"

#include <QCoreApplication>

namespace lockscope {

namespace {

// The text's translation context.
struct ForceReleaseConfirmation {
    Q_DECLARE_TR_FUNCTIONS(ForceReleaseConfirmation)
};

QString whereItStands(const QString& key, const ForceReleaseStanding& standing) {
    if (standing.holds)
        return ForceReleaseConfirmation::tr("%1 holds the lock now.").arg(key);
    return ForceReleaseConfirmation::tr("%1 waits now, number %2 in the queue; %3 holds the lock.")
        .arg(key)
        .arg(standing.row)
        .arg(standing.holder);
}

QString whatFollows(const ForceReleaseStanding& standing) {
    if (!standing.holds)
        return ForceReleaseConfirmation::tr(
            "The holder keeps the lock; the waiters behind it move up.");
    return standing.nextHolder.isEmpty()
               ? ForceReleaseConfirmation::tr("Nobody is waiting, so the lock becomes free.")
               : ForceReleaseConfirmation::tr("The next waiter, %1, becomes the holder.")
                     .arg(standing.nextHolder);
}

} // namespace

ForceReleaseStanding standingOf(const ForceReleasePlan& plan, const LockQueueModel& queue) {
    ForceReleaseStanding standing;
    for (int row = 0; row < queue.rowCount(); ++row) {
        const LockQueueModel::Entry& entry = queue.entryAt(row);
        if (entry.key != plan.key.toStdString() || entry.createRevision != plan.createRevision)
            continue;
        standing.row = row;
        standing.holds = entry.holds;
        if (row > 0)
            standing.holder = queue.entryAt(0).keyText;
        else if (queue.rowCount() > 1 && !queue.entryAt(1).holds)
            standing.nextHolder = queue.entryAt(1).keyText;
        break;
    }
    return standing;
}

QString forceReleaseText(const ForceReleasePlan& plan, const ForceReleaseStanding& standing) {
    const QString key = displayKeyText(plan.key.toStdString());
    if (standing.gone())
        return ForceReleaseConfirmation::tr(
                   "%1 is no longer in the queue (released, expired, or taken away since "
                   "you asked): there is nothing to force release.")
            .arg(key);
    const QString does =
        plan.lease == 0
            ? ForceReleaseConfirmation::tr(
                  "Delete the key %1 (it has no lease). Whoever created it is not told.")
                  .arg(key)
            : ForceReleaseConfirmation::tr(
                  "Revoke lease %1. etcd deletes %2 and every other key attached to that "
                  "lease; its holder loses the lock and learns it only when its own "
                  "keepalive fails.")
                  .arg(QString::fromStdString(etcd::leaseHex(plan.lease)), key);
    return whereItStands(key, standing) + "\n\n" + does + " " + whatFollows(standing);
}

} // namespace lockscope
