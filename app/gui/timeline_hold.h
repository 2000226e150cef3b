#pragma once

#include "app/core/hold_spans.h"
#include "widgets/holder_timeline.h"

#include <cstdint>
#include <string>

namespace lockscope {

// A holder as the Timeline's bar shows it: its key as text, its lease in hex.
HolderTimeline::Hold timelineHold(const std::string& key, int64_t lease, int64_t fencingToken,
                                  bool startUnknown);
// How long a hold lasted, as a Timeline's tooltip says it (its DurationFormat).
QString holdDurationText(double seconds);
// A recorded hold drawn on `timeline`: begun, and ended (`how`: by what, as its tooltip says)
// unless it was still held.
void drawHoldSpan(HolderTimeline& timeline, const HoldSpan& span, const QString& how);

} // namespace lockscope
