#include "app/core/prefix_check.h"

#include "app/core/guarded_post.h"
#include "etcdclient/locks/prefix_survey.h"

namespace lockscope {

PrefixCheck::PrefixCheck(QObject* parent)
    : QObject(parent) {}

void PrefixCheck::check(etcd::Client& client, const std::string& prefix) {
    const quint64 generation = ++generation_;
    etcd::surveyPrefix(
        client, prefix, SampleKeys,
        [self = QPointer(this), generation, prefix](etcd::Result<etcd::PrefixSurvey> survey) {
            postGuarded(self, [generation, prefix, survey = std::move(survey)](PrefixCheck* check) {
                if (generation != check->generation_)
                    return;
                if (survey && survey->estimatedOtherKeys() > MaxOtherKeys)
                    emit check->tooBroad(prefix, survey->keys, survey->estimatedOtherKeys());
                else
                    emit check->fine(prefix);
            });
        });
}

} // namespace lockscope
