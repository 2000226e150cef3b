#include "samples.h"

#include "etcdclient/latency_recorder.h"

#include <algorithm>

namespace lockscope::bench {

double Samples::p(double percent) const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return etcd::percentile(sorted, percent);
}

} // namespace lockscope::bench
