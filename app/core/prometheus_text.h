#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockscope {

// One line of a Prometheus text exposition: `name{label="value",...} value [timestamp]`.
struct MetricSample {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels; // in the order written
    double value = 0;

    // The label's value, or nullptr when the sample has no such label.
    const std::string* label(std::string_view labelName) const;
};

// A sample's value or a bucket's bound as the format writes them: a float, NaN, +Inf or -Inf.
std::optional<double> parsePrometheusValue(std::string_view text);

// Parses the text format 0.0.4 (what etcd serves on /metrics): comments and HELP/TYPE lines are
// skipped, label values unescaped (\\, \" and \n), NaN and ±Inf accepted, timestamps dropped.
// std::nullopt with `error` naming the line and what is wrong in it when a line is not a sample.
std::optional<std::vector<MetricSample>> parsePrometheusText(std::string_view text,
                                                             std::string& error);

} // namespace lockscope
