#pragma once

#include <map>
#include <string>
#include <vector>

namespace etcd {

// Lock names as closed ranges in name order, overlapping ones merged: which locks changed, or
// which a copy still lacks. A page of a listing changes thousands of neighbouring locks at
// once, and is one range here, not thousands of names.
class LockNameRanges {
public:
    struct Range {
        std::string first;
        std::string last;   // ignored when toEnd
        bool toEnd = false; // every name from `first` on
        bool contains(const std::string& name) const {
            return first <= name && (toEnd || name <= last);
        }
        bool operator==(const Range&) const = default;
    };

    static LockNameRanges everything();

    void add(const std::string& name) { add(Range{name, name, false}); }
    void add(Range range);
    void add(const LockNameRanges& other);
    // Takes out every name up to and including `name`: a copy has walked that far.
    void removeThrough(const std::string& name);
    bool empty() const { return ranges_.empty(); }
    bool contains(const std::string& name) const;
    std::vector<Range> ranges() const;

private:
    struct End {
        std::string last;
        bool toEnd = false;
    };
    static bool before(const std::string& name, const End& end) {
        return end.toEnd || name <= end.last;
    }
    std::map<std::string, End> ranges_; // by first name
};

} // namespace etcd
