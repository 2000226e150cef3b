#include "app/core/retry_backoff.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

namespace lockscope {

RetryBackoff::RetryBackoff(Random random, std::chrono::milliseconds first,
                           std::chrono::milliseconds cap)
    : random_(std::move(random))
    , first_(first)
    , cap_(std::max(first, cap)) {}

RetryBackoff::Random RetryBackoff::systemRandom() {
    auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
    return [engine] { return std::uniform_real_distribution<double>(0, 1)(*engine); };
}

std::chrono::milliseconds RetryBackoff::next() {
    // The ceiling doubles from `first` per failure; shifting stops once it passes the cap, so
    // a long outage cannot overflow it.
    std::chrono::milliseconds ceiling = first_;
    for (int i = 0; i < attempts_ && ceiling < cap_; ++i)
        ceiling *= 2;
    ceiling = std::min(ceiling, cap_);
    ++attempts_;
    const double share = std::clamp(random_(), 0.0, 1.0);
    return std::chrono::milliseconds(
        static_cast<int64_t>(share * static_cast<double>(ceiling.count())));
}

bool RetryBackoff::worthRetrying(const etcd::Error& error) {
    if (etcd::isTransient(error.code))
        return true;
    switch (error.code) {
    case etcd::ErrorCode::LockLost:
    case etcd::ErrorCode::LeaseNotFound:
    case etcd::ErrorCode::Unauthenticated:
    case etcd::ErrorCode::WatchCanceled:
    case etcd::ErrorCode::Compacted:
    case etcd::ErrorCode::ResourceExhausted:
    case etcd::ErrorCode::Internal:
    case etcd::ErrorCode::Unknown: return true;
    default: return false;
    }
}

std::string RetryBackoff::seconds(std::chrono::milliseconds delay) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", static_cast<double>(delay.count()) / 1000.0);
    return text;
}

} // namespace lockscope
