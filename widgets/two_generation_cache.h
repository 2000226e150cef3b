#pragma once

#include <QHash>
#include <utility>

namespace lockscope {

// A bounded cache of what painting made (laid-out texts, drawn bars) that never forgets all at
// once. Emptying a full cache made the next frame make every visible cell again: with the event
// log's texts new every frame, that was every few seconds, and those frames were the window's
// longest. Here a full generation becomes the previous one, and what is asked for again from it
// moves to the current one; only what went unused for a whole generation is forgotten. At most
// two generations are kept.
template <typename Key, typename Value> class TwoGenerationCache {
public:
    explicit TwoGenerationCache(qsizetype generationSize)
        : generationSize_(generationSize) {}

    // The value kept for `key`, made by `make()` when neither generation has it. The reference
    // lasts until the next call.
    template <typename Make> const Value& get(const Key& key, Make&& make) {
        if (const auto found = current_.constFind(key); found != current_.constEnd())
            return *found;
        Value value = previous_.contains(key) ? previous_.take(key) : std::forward<Make>(make)();
        if (current_.size() >= generationSize_)
            previous_ = std::exchange(current_, {});
        return *current_.insert(key, std::move(value));
    }

    void clear() {
        current_.clear();
        previous_.clear();
    }

    qsizetype size() const { return current_.size() + previous_.size(); }

private:
    qsizetype generationSize_;
    QHash<Key, Value> current_;
    QHash<Key, Value> previous_;
};

} // namespace lockscope
