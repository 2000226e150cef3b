#pragma once

#include <utility>

namespace etcd {

// A callback for the client (a reply, a watch event, a timer) that calls `method` on `owner`
// with `bound` then the callback's own arguments, only while `owner` still exists: the client
// may answer after the owner's last shared_ptr is gone, and such answers are dropped.
//     client.rangeAll(request, weakCallback(this, &LeaderObserver::onRead, generation));
// Whether the answer still matters to the owner (its generation) is for `method` to check,
// under the owner's own lock.
template <class Owner, class Method, class... Bound>
auto weakCallback(Owner* owner, Method method, Bound... bound) {
    return [weak = owner->weak_from_this(), method, bound...](auto&&... args) {
        if (auto self = weak.lock())
            ((*self).*method)(bound..., std::forward<decltype(args)>(args)...);
    };
}

} // namespace etcd
