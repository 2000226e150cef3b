#include "widgets/clock_ticker.h"

#include <cmath>

namespace lockscope {

double ClockTicker::getTickStep(const QCPRange& range) {
    double step = QCPAxisTickerDateTime::getTickStep(range);
    if (step > 1)
        step = std::ceil(step);
    // Asked for each time the axis is laid out, before the labels: they follow the step.
    setDateTimeFormat(step < 1 ? "hh:mm:ss.zzz" : "hh:mm:ss");
    return step;
}

} // namespace lockscope
