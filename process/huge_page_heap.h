#pragma once

#include <optional>
#include <string>

namespace lockscope::process {

// A million lock keys are a million small allocations, and each 4 KiB page of heap they first
// touch costs a page fault: 16 us a page on the 2-core VM our figures come from, so a sort's
// 76 MB of fresh buffers took 250 ms, nearly all in the kernel. glibc puts its heap on
// transparent huge pages (a fault per 2 MiB) when GLIBC_TUNABLES says glibc.malloc.hugetlb=1;
// only its main arena's heap, so glibc.malloc.arena_max=1 keeps every thread's allocations
// there. The loader reads GLIBC_TUNABLES once, before main. See docs/design.md, "The heap on
// huge pages".

// GLIBC_TUNABLES's value asking for both, from its value now and MALLOC_ARENA_MAX's (glibc's
// older name for arena_max; null: unset): each the caller names already is left as the caller
// has it (0 included); nothing when both are.
std::optional<std::string> tunablesAskingForHugePages(const char* current,
                                                      const char* mallocArenaMax = nullptr);

// The kernel's transparent_hugepage/enabled file says huge pages may be used when asked for
// ("[always]" or "[madvise]"), not "[never]".
bool transparentHugePagesUsable(const std::string& enabledFile);
// transparentHugePagesUsable() of this kernel's file.
bool kernelAllowsHugePages();

// Called in main before any thread starts and before anything is done that the run again would
// repeat or lose (a password asked for, a file written): runs this program again in the same
// process (same pid, arguments and descriptors) with the huge-page heap asked for, when the kernel
// allows it and GLIBC_TUNABLES does not say otherwise; not when run by the loader itself (ld.so
// ./lockscopectl: the loader would get our arguments), under valgrind (the run again would leave
// it) or with raised privileges (AT_SECURE). In the program run again it puts GLIBC_TUNABLES
// back as the caller had it, so what it starts (a lock command's children, etcd, etcdctl) gets
// the caller's environment, and returns. Also returns, changing nothing, when exec fails.
// The exec costs a start-up (Qt, gRPC and protobuf loaded twice: about 40 ms on our 2-core VM),
// so short-lived commands are better off without it. `argv` as main got it, before Qt took its
// own arguments out.
void restartWithHugePageHeap(char** argv);

} // namespace lockscope::process
