#pragma once

namespace lockscope::bench {

// The time of a fixed piece of work (a reference loop), the median of five, in milliseconds:
// printed beside the absolute figures at a run's start and end, so that a slower machine (or
// one busier at the time) and a slower build can be told apart. Single-threaded, integer and
// memory work of the kind the GUI thread does; the same loop in every build and version.
double referenceLoopMs();

} // namespace lockscope::bench
