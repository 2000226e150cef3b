#include "etcdclient/blocking.h"
#include "figures.h"

namespace lockscope::bench {

namespace {
using Clock = std::chrono::steady_clock;
}

std::vector<Samples> measureFloor(etcd::Client& client, const Scale& scale) {
    Samples range{"floor: linearizable Range", {}};

    etcd::pb::RangeRequest r;
    r.set_key("/bench/floor/range");
    for (int i = 0; i < scale.rounds; ++i) {
        const auto start = Clock::now();
        etcd::call(client, &etcd::Client::range, r);
        range.add(Clock::now() - start);
    }

    return {range};
}

} // namespace lockscope::bench
