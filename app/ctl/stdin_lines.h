#pragma once

#include <string>
#include <vector>

namespace lockscope {

// The lines typed on standard input, read without blocking, for a main thread that also waits
// for signals. Nothing once stdin is closed (or is not readable at all).
class StdinLines {
public:
    // The complete lines that arrived since the last call, without their newlines; at the end
    // of input a last unterminated line too.
    std::vector<std::string> take();

private:
    std::string pending_;
    bool closed_ = false;
};

} // namespace lockscope
