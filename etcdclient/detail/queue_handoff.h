#pragma once

// Debian's gRPC is not built with ThreadSanitizer, so TSan cannot see that the completion
// queue orders whatever a thread did before it handed a tag to gRPC before whatever the queue
// thread does once Next() returns that tag. These mark that edge for TSan; elsewhere they are
// nothing. handOver() goes right before every gRPC call that takes a tag, takeOver() right after
// Next() gives one back.

#if defined(__SANITIZE_THREAD__)
#define ETCD_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ETCD_THREAD_SANITIZER 1
#endif
#endif

#ifdef ETCD_THREAD_SANITIZER
#include <sanitizer/tsan_interface.h>
#endif

namespace etcd::detail {

inline void handOver([[maybe_unused]] void* tag) {
#ifdef ETCD_THREAD_SANITIZER
    __tsan_release(tag);
#endif
}

inline void takeOver([[maybe_unused]] void* tag) {
#ifdef ETCD_THREAD_SANITIZER
    __tsan_acquire(tag);
#endif
}

} // namespace etcd::detail
