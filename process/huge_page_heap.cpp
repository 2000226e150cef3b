#include "process/huge_page_heap.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <sys/auxv.h>
#include <unistd.h>

namespace lockscope::process {

namespace {

constexpr const char* Tunables = "GLIBC_TUNABLES";
// Set only between the exec and the program run again: "=" and the caller's GLIBC_TUNABLES, or
// "-" when the caller had none.
constexpr const char* CallerTunables = "LOCKSCOPE_CALLER_GLIBC_TUNABLES";
// The heap on huge pages (the main arena's: glibc 2.36 leaves the other arenas' heaps on small
// pages), and every thread's allocations in that one arena.
constexpr std::string_view Asked[] = {"glibc.malloc.hugetlb=1", "glibc.malloc.arena_max=1"};

// Whether the tunables (name=value pairs, separated by colons) name the tunable of `setting`.
bool names(std::string_view tunables, std::string_view setting) {
    const std::string_view name = setting.substr(0, setting.find('='));
    for (std::size_t at = 0; at < tunables.size();) {
        const std::size_t end = std::min(tunables.find(':', at), tunables.size());
        const std::string_view tunable = tunables.substr(at, end - at);
        if (tunable.substr(0, tunable.find('=')) == name)
            return true;
        at = end + 1;
    }
    return false;
}

// Valgrind runs its tools' helpers in us through LD_PRELOAD (vgpreload_<tool>-<platform>.so);
// its own header is not among our dependencies.
bool underValgrind() {
    const char* preload = std::getenv("LD_PRELOAD");
    return preload && std::string_view(preload).find("/vgpreload_") != std::string_view::npos;
}

void setOrUnset(const char* name, const std::optional<std::string>& value) {
    if (value)
        setenv(name, value->c_str(), 1);
    else
        unsetenv(name);
}

} // namespace

std::optional<std::string> tunablesAskingForHugePages(const char* current,
                                                      const char* mallocArenaMax) {
    const std::string_view now = current ? current : "";
    std::string tunables(now);
    for (std::string_view setting : Asked)
        if (!names(now, setting) &&
            !(mallocArenaMax && setting.starts_with("glibc.malloc.arena_max=")))
            tunables.append(tunables.empty() ? "" : ":").append(setting);
    if (tunables == now)
        return std::nullopt;
    return tunables;
}

bool transparentHugePagesUsable(const std::string& enabledFile) {
    return enabledFile.find("[always]") != std::string::npos ||
           enabledFile.find("[madvise]") != std::string::npos;
}

bool kernelAllowsHugePages() {
    std::string enabled;
    std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), enabled);
    return transparentHugePagesUsable(enabled);
}

void restartWithHugePageHeap(char** argv) {
#ifdef __GLIBC__
    if (const char* caller = std::getenv(CallerTunables)) { // the program run again
        setOrUnset(Tunables,
                   *caller == '=' ? std::optional<std::string>(caller + 1) : std::nullopt);
        unsetenv(CallerTunables);
        return;
    }
    const char* now = std::getenv(Tunables);
    const std::optional<std::string> current = now ? std::optional<std::string>(now) : std::nullopt;
    const std::optional<std::string> asked =
        tunablesAskingForHugePages(now, std::getenv("MALLOC_ARENA_MAX"));
    const bool byTheLoader = getauxval(AT_BASE) == 0; // no interpreter: ld.so runs us
    if (!asked || !kernelAllowsHugePages() || byTheLoader || getauxval(AT_SECURE) ||
        underValgrind())
        return;
    setenv(CallerTunables, current ? ("=" + *current).c_str() : "-", 1);
    setenv(Tunables, asked->c_str(), 1);
    // Not /proc/self/exe itself: the process would be named "exe" (ps, pkill).
    char self[4096];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length > 0 && static_cast<std::size_t>(length) < sizeof self - 1) { // not cut short
        self[length] = '\0';
        execv(self, argv);
    }
    // Not run again: on as we are, with the environment as it was.
    unsetenv(CallerTunables);
    setOrUnset(Tunables, current);
#else
    (void)argv;
#endif
}

} // namespace lockscope::process
