#include "etcdclient/locks/prefix_survey.h"

#include "etcdclient/key_range.h"
#include "etcdclient/locks/lock_table.h"

namespace etcd {

namespace {

bool lockShaped(const std::string& key, const std::string& prefix) {
    // A name of at least one byte after the prefix, then /<lease id in hex>.
    const auto slash = key.rfind('/');
    return slash != std::string::npos && slash > prefix.size() &&
           LockTable::leaseNamedBy(key).has_value();
}

} // namespace

int64_t PrefixSurvey::estimatedOtherKeys() const {
    if (sampled == 0)
        return keys;
    const double otherShare = static_cast<double>(sampled - lockShaped) / sampled;
    return static_cast<int64_t>(static_cast<double>(keys) * otherShare + 0.5);
}

void surveyPrefix(Client& client, const std::string& prefix, int64_t sampleSize,
                  Callback<PrefixSurvey> done) {
    pb::RangeRequest request;
    request.set_key(prefix);
    request.set_range_end(prefixRangeEnd(prefix));
    request.set_keys_only(true);
    request.set_limit(sampleSize); // the count is still of every key in the range
    client.range(std::move(request),
                 [prefix, done = std::move(done)](Result<pb::RangeResponse> reply) {
                     if (!reply) {
                         done(reply.error());
                         return;
                     }
                     PrefixSurvey survey;
                     survey.keys = reply->count();
                     survey.sampled = reply->kvs_size();
                     survey.revision = reply->header().revision();
                     for (const auto& kv : reply->kvs())
                         survey.lockShaped += lockShaped(kv.key(), prefix);
                     done(survey);
                 });
}

} // namespace etcd
