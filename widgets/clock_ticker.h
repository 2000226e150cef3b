#pragma once

#include <qcustomplot.h>

namespace lockscope {

// A time axis's ticks, labelled with the wall-clock time each stands for and never less: the
// date-time ticker of QCustomPlot puts ticks 2.5 s apart on a span of seconds, and labelled to
// the second they read 17:57:27 at 17:57:27.5. Here a step of more than a second is a whole
// number of seconds, and a step under a second is labelled to the millisecond.
class ClockTicker : public QCPAxisTickerDateTime {
protected:
    double getTickStep(const QCPRange& range) override;
};

} // namespace lockscope
