#include "app/core/background_disposal.h"

#include <QThreadPool>
#include <atomic>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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

std::atomic<int> pendingDisposals{0};

// glibc keeps the pages of freed memory below the heap's last allocation resident. With every
// thread in one arena (process/huge_page_heap.h) nothing is returned as a thread's arena was, and
// the bench held 1.3 GB after its windows on a million keys had gone. malloc_trim gives them
// back: 54 ms for 1.25 GB free on huge pages (0.9 s on small ones), the arena locked meanwhile.
void returnFreedPages() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

} // namespace

void runDisposal(std::function<void()> free) {
    ++pendingDisposals;
    disposalPool().start([free = std::move(free)]() mutable {
        free();
        free = nullptr;
        if (--pendingDisposals == 0) // the last of a view's frees: once, not after each
            returnFreedPages();
    });
}

void waitForDisposals() {
    disposalPool().waitForDone();
}

} // namespace lockscope
