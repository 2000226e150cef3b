#pragma once

#include <QString>

namespace lockscope {

struct ForceReleasePlan;
class LockQueueModel;

// Where the key a force release names stands in its lock's queue now. The confirmation follows
// it while it is open, so that what it says is true when the user answers; a key that is gone
// (or was deleted and put again: another create revision) leaves nothing to force release.
struct ForceReleaseStanding {
    int row = -1;       // its queue row now; -1: gone
    bool holds = false; // it holds (the first key, or one of an RWMutex's leading readers)
    QString holder;     // the first key now, when that is not the named one
    QString nextHolder; // who holds once it goes, when it holds; empty when nobody waits

    bool gone() const { return row < 0; }
};

ForceReleaseStanding standingOf(const ForceReleasePlan& plan, const LockQueueModel& queue);

// The confirmation's text: where the named key stands now, and what the force release does.
QString forceReleaseText(const ForceReleasePlan& plan, const ForceReleaseStanding& standing);

} // namespace lockscope
