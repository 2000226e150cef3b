#include "machine_speed.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace lockscope::bench {

namespace {

// Hashes, map inserts and lookups over 200,000 short strings: about 20 ms on this 2-core machine.
uint64_t referenceWork() {
    std::unordered_map<std::string, uint64_t> table;
    uint64_t state = 0x9E3779B97F4A7C15ull, sum = 0;
    for (int i = 0; i < 200000; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        std::string key = "/locks/" + std::to_string(state % 50000);
        sum += table[key] += state & 0xff;
    }
    return sum + table.size();
}

} // namespace

double referenceLoopMs() {
    std::vector<double> runs;
    volatile uint64_t sink = 0; // the work must happen
    for (int run = 0; run < 5; ++run) {
        const auto began = std::chrono::steady_clock::now();
        sink = sink + referenceWork();
        runs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began)
                .count());
    }
    std::nth_element(runs.begin(), runs.begin() + 2, runs.end());
    return runs[2];
}

} // namespace lockscope::bench
