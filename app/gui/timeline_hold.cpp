#include "app/gui/timeline_hold.h"

#include "app/core/duration_text.h"
#include "app/core/key_text.h"
#include "etcdclient/clock.h"
#include "etcdclient/hex_id.h"

#include <cmath>

namespace lockscope {

HolderTimeline::Hold timelineHold(const std::string& key, int64_t lease, int64_t fencingToken,
                                  bool startUnknown) {
    return {displayKeyText(key), QString::fromStdString(etcd::leaseHex(lease)), fencingToken,
            startUnknown};
}

QString holdDurationText(double seconds) {
    return durationText(std::chrono::milliseconds(std::llround(seconds * 1000)));
}

void drawHoldSpan(HolderTimeline& timeline, const HoldSpan& span, const QString& how) {
    const QString lock = displayKeyText(span.lock);
    timeline.beginHold(lock,
                       timelineHold(span.key, span.lease, span.fencingToken, span.startUnknown),
                       etcd::unixSeconds(span.start));
    if (span.end)
        timeline.endHold(lock, etcd::unixSeconds(*span.end), how);
}

} // namespace lockscope
