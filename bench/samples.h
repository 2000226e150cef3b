#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace lockscope::bench {

// Durations of one figure, in milliseconds.
struct Samples {
    std::string name;
    std::vector<double> ms;

    void add(std::chrono::steady_clock::duration d) {
        ms.push_back(std::chrono::duration<double, std::milli>(d).count());
    }
    double p(double percent) const; // nearest rank
};

} // namespace lockscope::bench
