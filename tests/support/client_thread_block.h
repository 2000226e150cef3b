#pragma once

#include "etcdclient/client.h"

#include <future>
#include <memory>

namespace lockscope::test {

// Keeps a client's thread busy until release() (or destruction): replies that arrive meanwhile
// wait behind it, so a test can act between a reply's arrival and its handling.
class ClientThreadBlock {
public:
    // Returns once the client's thread is blocked.
    explicit ClientThreadBlock(etcd::Client& client) {
        auto blocked = std::make_shared<std::promise<void>>();
        auto isBlocked = blocked->get_future();
        client.schedule(std::chrono::milliseconds(0),
                        [blocked, released = released_->get_future().share()] {
                            blocked->set_value();
                            released.wait();
                        });
        isBlocked.wait();
    }
    ~ClientThreadBlock() { release(); }
    ClientThreadBlock(const ClientThreadBlock&) = delete;
    ClientThreadBlock& operator=(const ClientThreadBlock&) = delete;

    void release() {
        if (!done_) {
            done_ = true;
            released_->set_value();
        }
    }

private:
    std::shared_ptr<std::promise<void>> released_ = std::make_shared<std::promise<void>>();
    bool done_ = false;
};

} // namespace lockscope::test
