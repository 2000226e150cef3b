#pragma once

#include <QHash>
#include <chrono>
#include <utility>

namespace lockscope {

// A bounded cache of what painting made (laid-out texts, drawn bars) that never forgets all at
// once. Emptying a full cache made the next frame make every visible cell again: with the event
// log's texts new every frame, that was every few seconds, and those frames were the window's
// longest. Here a full generation becomes the previous one, and what is asked for again from it
// moves to the current one; only what went unused for a whole generation is forgotten. At most
// two generations are kept. A generation also turns over once it is `generationAge` old, so the
// cache holds what was painted lately: the lock list's texts change with each new holder, and
// they took half an hour to fill a generation, its memory growing all that while.
template <typename Key, typename Value> class TwoGenerationCache {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::seconds DefaultGenerationAge{30};

    explicit TwoGenerationCache(qsizetype generationSize,
                                Clock::duration generationAge = DefaultGenerationAge)
        : generationSize_(generationSize)
        , generationAge_(generationAge) {}

    // The value kept for `key`, made by `make()` when neither generation has it. The reference
    // lasts until the next call.
    template <typename Make> const Value& get(const Key& key, Make&& make) {
        if (const auto found = current_.constFind(key); found != current_.constEnd())
            return *found;
        Value value = previous_.contains(key) ? previous_.take(key) : std::forward<Make>(make)();
        // Only here, where one is added: a hit costs no clock read.
        const auto now = Clock::now();
        if (current_.size() >= generationSize_ || now - generationBegan_ >= generationAge_) {
            previous_ = std::exchange(current_, {});
            generationBegan_ = now;
        }
        return *current_.insert(key, std::move(value));
    }

    void clear() {
        current_.clear();
        previous_.clear();
    }

    qsizetype size() const { return current_.size() + previous_.size(); }

private:
    qsizetype generationSize_;
    Clock::duration generationAge_;
    Clock::time_point generationBegan_ = Clock::now();
    QHash<Key, Value> current_;
    QHash<Key, Value> previous_;
};

} // namespace lockscope
