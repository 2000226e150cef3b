#pragma once

#include "kv.pb.h"

#include <deque>
#include <string>
#include <vector>

namespace lockscope::bench {

// The watch events of a busy prefix, made up one at a time (a day of them would not fit in
// memory): 100 locks under `prefix`, each a queue of two Go keys <lock>/<lease hex>, put first;
// then rounds, each deleting a lock's holder (its waiter acquires) and putting a new waiter, so
// each round is two watch events and three lock events. Revisions rise from 2, one per event.
class HandoffWatch {
public:
    static constexpr int locks = 100;
    explicit HandoffWatch(std::string prefix);
    const mvccpb::Event& next();

private:
    void put(int lock);

    const std::string prefix_;
    std::vector<std::deque<std::string>> queues_;
    int64_t revision_ = 1;
    int64_t lease_ = 0x694d000000000000;
    int64_t made_ = 0;
    mvccpb::Event event_;
};

// The first 2 x 100 + 2 x `rounds` of them.
std::vector<mvccpb::Event> handoffWatch(const std::string& prefix, int rounds);

} // namespace lockscope::bench
