#include "app/core/recording_inbox.h"

#include <utility>

namespace lockscope {

bool RecordingInbox::add(RecordingBatch batch) {
    const std::lock_guard lock(mutex_);
    batches_.push_back(std::move(batch));
    return batches_.size() == 1;
}

std::vector<RecordingBatch> RecordingInbox::take() {
    const std::lock_guard lock(mutex_);
    return std::exchange(batches_, {});
}

} // namespace lockscope
