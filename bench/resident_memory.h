#pragma once

namespace lockscope::bench {

// This process's resident set in MB, from /proc/self/statm.
double residentMb();
// What malloc has handed out and not taken back, its arenas' and the large blocks it maps
// apart: beside the resident set, it tells growth of the heap from memory malloc keeps without
// using (fragmentation, per-thread arenas, and freed memory an earlier figure left that a
// later one reuses, which makes a resident set's growth read low).
double heapInUseMb();
// What malloc's arenas hold free: growing while the bytes in use stay flat, it is
// fragmentation (freed chunks between live ones), not a structure that grows.
double heapFreeMb();

} // namespace lockscope::bench
