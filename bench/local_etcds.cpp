#include "local_etcds.h"

#include <cstdio>

namespace lockscope::bench {

std::optional<LocalEtcds> startLocalEtcds(int count, const char* figure) {
    LocalEtcds started;
    for (int i = 0; i < count; ++i) {
        auto etcd = std::make_unique<etcd::LocalCluster>(1);
        if (auto error = etcd->start(); !error.ok()) {
            std::fprintf(stderr, "lockscope-bench: %s: %s\n", figure, error.message.c_str());
            return std::nullopt;
        }
        etcd::ClientOptions options;
        options.endpoints = etcd->endpoints();
        started.options.push_back(options);
        started.etcds.push_back(std::move(etcd));
    }
    return started;
}

} // namespace lockscope::bench
