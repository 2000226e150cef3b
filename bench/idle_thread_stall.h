#pragma once

#include "stall_probe.h"

#include <QThread>
#include <chrono>

namespace lockscope::bench {

// A StallProbe on a thread of its own that does nothing else: how late its timer fires is how
// long this machine left a ready thread waiting for a core. The floor under the GUI thread's
// longest stall, measured beside it under the same load. Runs from construction until
// longest() (or destruction).
class IdleThreadStall : public QThread {
public:
    IdleThreadStall() { start(); }
    ~IdleThreadStall() override;
    // Stops the probe: its longest stall since construction.
    std::chrono::steady_clock::duration longest();

protected:
    void run() override;

private:
    std::chrono::steady_clock::duration longest_{}; // written by run(), read after wait()
};

} // namespace lockscope::bench
