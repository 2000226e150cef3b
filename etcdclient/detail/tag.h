#pragma once

#include "etcdclient/detail/queue_handoff.h"

namespace etcd::detail {

// Everything put on the completion queue is a Tag; the queue thread calls proceed() once per
// completed operation with the operation's ok flag.
struct Tag {
    virtual ~Tag() = default;
    virtual void proceed(bool ok) = 0;
};

// A Tag that forwards to a member function, for objects with several operations in flight.
template <class Owner> struct MemberTag final : Tag {
    MemberTag(Owner* o, void (Owner::*f)(bool))
        : owner(o)
        , fn(f) {}
    void proceed(bool ok) override { (owner->*fn)(ok); }
    Owner* owner;
    void (Owner::*fn)(bool);
};

} // namespace etcd::detail
