#pragma once

#include "etcdclient/error.h"

#include <cassert>
#include <optional>
#include <utility>

namespace etcd {

// A value or the Error that prevented it.
template <class T> class Result {
public:
    Result(T value)
        : value_(std::move(value)) {}
    Result(Error error)
        : error_(std::move(error)) {
        assert(!error_.ok());
    }

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T* operator->() const { return &*value_; }
    T* operator->() { return &*value_; }
    const T& operator*() const { return *value_; }

    const Error& error() const { return error_; }

private:
    std::optional<T> value_;
    Error error_;
};

} // namespace etcd
