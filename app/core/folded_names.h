#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope {

// The lock list's names as its filter matches them, by row: each name's text as shown
// (displayKey), case folded, in UTF-8, one after another in large blocks. A QString a row took
// some 130 bytes of each of a million rows, and the filter's scan missed the cache at each; a
// name's bytes here cost the bytes. A substring of UTF-8 texts is a substring of their
// characters, so a folded filter in UTF-8 matches as it would as a QString.
class FoldedNames {
public:
    // `name`'s shown text, case folded, in UTF-8, appended to `out`: printable ASCII, as nearly
    // every name is, lowered byte by byte with no QString made.
    static void appendFolded(const std::string& name, std::string& out);
    // What a name's folded text must contain to pass `filter` (any case).
    static std::string foldedFilter(const QString& filter);

    std::size_t size() const { return spans_.size(); }
    void reserve(std::size_t rows) { spans_.reserve(rows); }
    std::size_t capacity() const { return spans_.capacity(); }
    void clear();
    // Rows `at`.. `at + count - 1` come in, with no name yet; the rows after them move down.
    void insert(std::size_t at, std::size_t count);
    // Rows `first`..`last` go (inclusive).
    void erase(std::size_t first, std::size_t last);
    void set(std::size_t row, const std::string& name);
    // The buffers' bytes, kept names and waste together.
    std::size_t bytesHeld() const { return heldBytes_; }
    std::string_view at(std::size_t row) const {
        const Span& span = spans_[row];
        if (span.size == 0) // no name yet, maybe no block either
            return {};
        return std::string_view(blocks_[span.block]).substr(span.offset, span.size);
    }

private:
    // Names go into blocks of a megabyte, never moved once in: one buffer of a million names
    // doubled to 64 MB in one turn of the GUI thread, and faulting that memory in stalled it
    // for 100 ms and more.
    static constexpr std::size_t BlockSize = std::size_t(1) << 20;
    struct Span {
        uint32_t block = 0;
        uint32_t offset = 0;
        std::size_t size = 0;
    };
    // A block with room for `size` more bytes (one of its own for a longer name).
    std::string& blockFor(std::size_t size);
    void append(Span& span, std::string_view folded);
    // The bytes of names gone stay in their blocks until they outweigh the names kept.
    void compactIfWasteful();

    std::vector<Span> spans_;
    std::vector<std::string> blocks_;
    std::string folding_; // a name being folded, kept for its room
    std::size_t liveBytes_ = 0;
    std::size_t heldBytes_ = 0;
};

} // namespace lockscope
