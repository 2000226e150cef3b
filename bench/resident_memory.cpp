#include "resident_memory.h"

#include <fstream>
#include <malloc.h>
#include <unistd.h>

namespace lockscope::bench {

double residentMb() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

double heapInUseMb() {
    const auto info = mallinfo2();
    return static_cast<double>(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
}

double heapFreeMb() {
    return static_cast<double>(mallinfo2().fordblks) / (1024.0 * 1024.0);
}

} // namespace lockscope::bench
