#pragma once

namespace lockscope::bench {

// This process's resident set in MB, from /proc/self/statm.
double residentMb();

} // namespace lockscope::bench
