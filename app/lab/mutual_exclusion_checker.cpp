#include "app/lab/mutual_exclusion_checker.h"

#include <algorithm>
#include <map>

namespace lockscope::lab {

std::vector<Overlap> findOverlaps(std::vector<BelievedHold> holds) {
    std::map<std::string, std::vector<BelievedHold>> byLock;
    for (auto& h : holds)
        byLock[h.lock].push_back(std::move(h));
    std::vector<Overlap> overlaps;
    for (auto& [lock, list] : byLock) {
        std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.from < b.from; });
        // Sweep: compare each hold with the later-starting ones that begin before it ends.
        for (std::size_t i = 0; i < list.size(); ++i) {
            for (std::size_t j = i + 1; j < list.size() && list[j].from < list[i].to; ++j) {
                if (list[j].worker == list[i].worker)
                    continue;
                const auto end = std::min(list[i].to, list[j].to);
                overlaps.push_back(
                    {lock, list[i], list[j],
                     std::chrono::duration_cast<std::chrono::milliseconds>(end - list[j].from)});
            }
        }
    }
    std::sort(overlaps.begin(), overlaps.end(),
              [](auto& a, auto& b) { return a.lasted > b.lasted; });
    return overlaps;
}

} // namespace lockscope::lab
