// FoldedNames: each row's name as the lock filter matches it, through inserts, removals and
// renames, against a vector of folded QStrings turned to UTF-8; and the waste it keeps bounded.
#include "app/core/folded_names.h"
#include "app/core/key_text.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace lockscope;

namespace {

std::string folded(const std::string& name) {
    std::string out;
    FoldedNames::appendFolded(name, out);
    return out;
}

std::string foldedAsQString(const std::string& name) {
    return displayKeyText(name).toCaseFolded().toStdString();
}

} // namespace

TEST(FoldedNamesTest, ANameIsFoldedAsItsShownTextIs) {
    EXPECT_EQ(folded("/Jobs/Nightly-42"), "/jobs/nightly-42");
    EXPECT_EQ(folded("/jobs/Ärger"), "/jobs/ärger");
    EXPECT_EQ(folded("/jobs/ΣΊΣΥΦΟΣ"), foldedAsQString("/jobs/ΣΊΣΥΦΟΣ"));
    EXPECT_EQ(folded("/jobs/\xff-Raw"), "/jobs/\\xff-raw"); // shown as its escape
    EXPECT_EQ(folded("/jobs/a\\B"), "/jobs/a\\\\b");        // a backslash is shown doubled
    EXPECT_EQ(folded(std::string("/jobs/\0x", 8)), foldedAsQString(std::string("/jobs/\0x", 8)));
    EXPECT_EQ(FoldedNames::foldedFilter(QString::fromUtf8("ÄRG")), "ärg");
}

TEST(FoldedNamesTest, RowsKeepTheirNamesThroughInsertsRemovalsAndRenames) {
    const std::vector<std::string> stems = {
        "alpha",    "Beta",    "GAMMA",
        "straße",   "Ärger",   "ΣΊΣΥΦΟΣ",
        "\xff\xfe", "db\\Job", std::string(3000, 'X')}; // renames waste fast
    std::mt19937 random(20261129);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    FoldedNames names;
    std::vector<std::string> expected;
    std::size_t compactedAt = 0;
    for (int step = 0; step < 20000; ++step) {
        const std::size_t what = pick(4);
        if (what == 0 || expected.empty()) {
            const std::size_t at = pick(expected.size() + 1);
            const std::size_t count = 1 + pick(5);
            names.insert(at, count);
            expected.insert(expected.begin() + static_cast<std::ptrdiff_t>(at), count, "");
        } else if (what == 1) {
            const std::size_t first = pick(expected.size());
            const std::size_t last = std::min(expected.size() - 1, first + pick(4));
            names.erase(first, last);
            expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(first),
                           expected.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        } else {
            const std::size_t row = pick(expected.size());
            const std::string name = "/locks/" + stems[pick(stems.size())] + std::to_string(step);
            names.set(row, name);
            expected[row] = foldedAsQString(name);
        }
        ASSERT_EQ(names.size(), expected.size());
        std::size_t live = 0;
        for (std::size_t row = 0; row < expected.size(); ++row) {
            ASSERT_EQ(names.at(row), expected[row]) << "row " << row << " at step " << step;
            live += expected[row].size();
        }
        // Waste beyond a megabyte never outweighs the names kept.
        ASSERT_LE(names.bytesHeld(), std::max<std::size_t>(2 * live, live + (1 << 20)) + 3100);
        if (names.bytesHeld() < live + 3100 && step > 1000)
            compactedAt = compactedAt ? compactedAt : static_cast<std::size_t>(step);
    }
    EXPECT_GT(compactedAt, 0U) << "the buffer was never compacted";
}
