#include "app/core/background_disposal.h"

#include <QThreadPool>

namespace lockscope {

namespace {

// Not Qt's global pool: the raster paint engine hands parts of a paint to that one and waits for
// them, so a paint would wait behind a second of freeing. One thread: frees run in order, and
// the GUI thread keeps the other core. Its destructor, at exit, waits for what is left.
class DisposalPool : public QThreadPool {
public:
    DisposalPool() { setMaxThreadCount(1); }
};

QThreadPool& disposalPool() {
    static DisposalPool pool;
    return pool;
}

} // namespace

void runDisposal(std::function<void()> free) {
    disposalPool().start(std::move(free));
}

void waitForDisposals() {
    disposalPool().waitForDone();
}

} // namespace lockscope
