#pragma once

#include <cstdint>
#include <string>

namespace etcd {

// etcd's largest lease TTL (MaxLeaseTTL in etcd's server/lease/lessor.go): LeaseGrant refuses
// more with "etcdserver: too large lease TTL".
constexpr int64_t maxLeaseTtlSeconds = 9'000'000'000;

// A lock whose holder dies without releasing it stays taken for its TTL: above a day, programs
// ask before granting that.
constexpr int64_t longLeaseTtlSeconds = 24 * 60 * 60;

// Empty when etcd grants a lease of `ttlSeconds` (it raises one below its minimum); else what
// is wrong, naming etcd's limit. For refusing a TTL before any call.
std::string leaseTtlProblem(int64_t ttlSeconds);

// Empty up to longLeaseTtlSeconds; else what such a TTL means, for asking first.
std::string longLeaseTtlWarning(int64_t ttlSeconds);

} // namespace etcd
