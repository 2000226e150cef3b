#include "app/core/folded_names.h"

#include "app/core/key_text.h"

#include <algorithm>

namespace lockscope {

void FoldedNames::appendFolded(const std::string& name, std::string& out) {
    if (!printableAsciiKey(name)) {
        out += displayKeyText(name).toCaseFolded().toStdString();
        return;
    }
    // Shown byte for byte; case folding lowers ASCII letters and leaves the rest of ASCII alone.
    const std::size_t from = out.size();
    out += name;
    std::transform(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(),
                   out.begin() + static_cast<std::ptrdiff_t>(from), [](char c) {
                       return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
                   });
}

std::string FoldedNames::foldedFilter(const QString& filter) {
    return filter.toCaseFolded().toStdString();
}

void FoldedNames::clear() {
    spans_.clear();
    blocks_.clear();
    liveBytes_ = heldBytes_ = 0;
}

void FoldedNames::insert(std::size_t at, std::size_t count) {
    spans_.insert(spans_.begin() + static_cast<std::ptrdiff_t>(at), count, Span{});
}

void FoldedNames::erase(std::size_t first, std::size_t last) {
    const auto begin = spans_.begin() + static_cast<std::ptrdiff_t>(first);
    const auto end = spans_.begin() + static_cast<std::ptrdiff_t>(last) + 1;
    for (auto span = begin; span != end; ++span)
        liveBytes_ -= span->size;
    spans_.erase(begin, end);
    compactIfWasteful();
}

void FoldedNames::set(std::size_t row, const std::string& name) {
    folding_.clear();
    appendFolded(name, folding_);
    Span& span = spans_[row];
    liveBytes_ -= span.size;
    append(span, folding_);
    compactIfWasteful();
}

std::string& FoldedNames::blockFor(std::size_t size) {
    if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < size) {
        blocks_.emplace_back().reserve(std::max(BlockSize, size));
    }
    return blocks_.back();
}

void FoldedNames::append(Span& span, std::string_view folded) {
    std::string& block = blockFor(folded.size());
    span = {static_cast<uint32_t>(blocks_.size() - 1), static_cast<uint32_t>(block.size()),
            folded.size()};
    block += folded;
    liveBytes_ += folded.size();
    heldBytes_ += folded.size();
}

void FoldedNames::compactIfWasteful() {
    // A megabyte of waste is left alone: the names of a few thousand locks renamed or gone.
    const std::size_t waste = heldBytes_ - liveBytes_;
    if (waste <= BlockSize || waste <= liveBytes_)
        return;
    std::vector<std::string> blocks = std::exchange(blocks_, {});
    liveBytes_ = heldBytes_ = 0;
    for (Span& span : spans_)
        append(span, std::string_view(blocks[span.block]).substr(span.offset, span.size));
}

} // namespace lockscope
