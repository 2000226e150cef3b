#include "app/core/prometheus_text.h"

#include <cctype>
#include <charconv>

namespace lockscope {

const std::string* MetricSample::label(std::string_view labelName) const {
    for (const auto& [name, value] : labels)
        if (name == labelName)
            return &value;
    return nullptr;
}

namespace {

bool isNameStart(char c, bool colonAllowed) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (colonAllowed && c == ':');
}

bool isNameChar(char c, bool colonAllowed) {
    return isNameStart(c, colonAllowed) || std::isdigit(static_cast<unsigned char>(c));
}

// Reads the tokens of one sample line; each method returns false with `error_` set.
class SampleLine {
public:
    explicit SampleLine(std::string_view line)
        : line_(line) {}

    bool parse(MetricSample& sample) {
        if (!name(sample.name, true))
            return false;
        skipBlanks();
        if (peek('{') && !labels(sample.labels))
            return false;
        skipBlanks();
        if (!number(sample.value, "a value"))
            return false;
        skipBlanks();
        double timestamp = 0;
        if (at_ < line_.size() && !number(timestamp, "a timestamp"))
            return false;
        skipBlanks();
        if (at_ < line_.size())
            return fail("unexpected text after the value");
        return true;
    }

    const std::string& error() const { return error_; }

private:
    bool fail(std::string what) {
        error_ = std::move(what) + " at column " + std::to_string(at_ + 1);
        return false;
    }
    bool peek(char c) const { return at_ < line_.size() && line_[at_] == c; }
    void skipBlanks() {
        while (at_ < line_.size() && (line_[at_] == ' ' || line_[at_] == '\t'))
            ++at_;
    }

    bool name(std::string& out, bool metricName) {
        if (at_ >= line_.size() || !isNameStart(line_[at_], metricName))
            return fail(metricName ? "expected a metric name" : "expected a label name");
        const std::size_t begin = at_;
        while (at_ < line_.size() && isNameChar(line_[at_], metricName))
            ++at_;
        out.assign(line_.substr(begin, at_ - begin));
        return true;
    }

    bool labels(std::vector<std::pair<std::string, std::string>>& out) {
        ++at_; // '{'
        for (;;) {
            skipBlanks();
            if (peek('}')) {
                ++at_;
                return true;
            }
            std::string labelName;
            if (!name(labelName, false))
                return false;
            skipBlanks();
            if (!peek('='))
                return fail("expected '=' after label " + labelName);
            ++at_;
            skipBlanks();
            std::string value;
            if (!quoted(value))
                return false;
            out.emplace_back(std::move(labelName), std::move(value));
            skipBlanks();
            if (peek(','))
                ++at_;
            else if (!peek('}'))
                return fail("expected ',' or '}' after a label");
        }
    }

    bool quoted(std::string& out) {
        if (!peek('"'))
            return fail("expected a quoted label value");
        for (++at_; at_ < line_.size(); ++at_) {
            const char c = line_[at_];
            if (c == '"') {
                ++at_;
                return true;
            }
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (++at_ >= line_.size())
                break;
            switch (line_[at_]) {
            case '\\': out.push_back('\\'); break;
            case '"': out.push_back('"'); break;
            case 'n': out.push_back('\n'); break;
            default: return fail("unknown escape in a label value");
            }
        }
        return fail("unterminated label value");
    }

    bool number(double& out, const char* what) {
        const std::size_t begin = at_;
        while (at_ < line_.size() && line_[at_] != ' ' && line_[at_] != '\t')
            ++at_;
        const auto value = parsePrometheusValue(line_.substr(begin, at_ - begin));
        if (!value) {
            at_ = begin;
            return fail(std::string("expected ") + what);
        }
        out = *value;
        return true;
    }

    std::string_view line_;
    std::size_t at_ = 0;
    std::string error_;
};

} // namespace

std::optional<double> parsePrometheusValue(std::string_view text) {
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    // from_chars takes "inf" and "nan" in any case, as Go's ParseFloat does.
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return negative ? -value : value;
}

std::optional<std::vector<MetricSample>> parsePrometheusText(std::string_view text,
                                                             std::string& error) {
    std::vector<MetricSample> samples;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        ++lineNumber;
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty() || line.front() == '#')
            continue;
        SampleLine parser(line);
        MetricSample sample;
        if (!parser.parse(sample)) {
            error = "line " + std::to_string(lineNumber) + ": " + parser.error();
            return std::nullopt;
        }
        samples.push_back(std::move(sample));
    }
    return samples;
}

} // namespace lockscope
