#pragma once

#include "etcdclient/client.h"

#include <cstdint>
#include <string>

namespace etcd {

// How many keys a prefix holds and how many of them look like lock keys, asked before loading
// it: a Kubernetes etcd keeps millions of keys under /registry/, and "/" is all of them.
struct PrefixSurvey {
    int64_t keys = 0;       // under the prefix
    int64_t sampled = 0;    // of the first keys in key order, read to see their shape
    int64_t lockShaped = 0; // of those: <prefix><name>/<lease id in hex>
    int64_t revision = 0;

    // The keys under the prefix that are likely not lock keys, from the sample's share.
    int64_t estimatedOtherKeys() const;
};

// Surveys `prefix` with one Range: its count of every key under the prefix, and the first
// `sampleSize` keys (keys only, no values) to judge their shape. `done` runs on the client's
// thread.
void surveyPrefix(Client& client, const std::string& prefix, int64_t sampleSize,
                  Callback<PrefixSurvey> done);

} // namespace etcd
