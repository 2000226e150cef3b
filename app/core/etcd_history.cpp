#include "app/core/etcd_history.h"

#include "etcdclient/key_range.h"
#include "etcdclient/locks/lock_table.h"

#include <memory>
#include <optional>
#include <set>
#include <utility>

namespace lockscope {

namespace {

// etcd keeps no time: a revision stands for one, only to pace a replay.
std::chrono::system_clock::time_point timeOf(int64_t revision) {
    return std::chrono::system_clock::time_point(std::chrono::seconds(revision));
}

// etcd tells no watch when it has caught up with the past (etcd 3.4 answers a progress request
// at once, caught up or not). It sends the past in revision order, so the watch has caught up
// with the revision of the moment asked once the keys replayed are those a read at that revision
// finds, and no answer came for a while (a key put and deleted in between changes nothing).
constexpr std::chrono::milliseconds catchUpPoll{100};
constexpr std::chrono::milliseconds catchUpQuiet{300};
constexpr int catchUpPolls = 300; // 30 s

using KeyIds = std::set<std::pair<std::string, int64_t>>; // key, create revision

struct Reading {
    Reading(etcd::Client& c, etcd::RecipeOverride recipe,
            std::function<void(etcd::Result<EtcdHistory>)> d)
        : client(c)
        , table(recipe)
        , done(std::move(d)) {}

    void finish(etcd::Result<EtcdHistory> result) {
        if (!done)
            return;
        auto callback = std::exchange(done, nullptr);
        // Not from inside the watch's own callback: cancelling it there would pull the watch
        // out from under its caller.
        client.schedule(std::chrono::milliseconds(0),
                        [self = self.lock(), result = std::move(result), callback]() mutable {
                            // Lets go of the watch and, with it, its hold on this reading.
                            self->watch = etcd::WatchHandle();
                            callback(std::move(result));
                        });
    }

    KeyIds replayedKeys() const {
        KeyIds keys;
        for (const auto& [name, queue] : table.locks())
            for (const auto& key : queue->keys)
                keys.emplace(key.key, key.createRevision);
        return keys;
    }

    etcd::Client& client;
    etcd::LockTable table;
    EtcdHistory history;
    etcd::WatchHandle watch;
    std::optional<KeyIds> keysAtUntil; // read once the watch says which revision that is
    std::chrono::steady_clock::time_point lastAnswer;
    int polls = 0;
    std::function<void(etcd::Result<EtcdHistory>)> done;
    std::weak_ptr<Reading> self;
};

void checkCaughtUp(const std::shared_ptr<Reading>& reading) {
    if (!reading->done)
        return;
    if (reading->keysAtUntil && reading->replayedKeys() == *reading->keysAtUntil &&
        std::chrono::steady_clock::now() - reading->lastAnswer >= catchUpQuiet) {
        reading->finish(std::move(reading->history));
        return;
    }
    if (++reading->polls > catchUpPolls) {
        reading->finish(etcd::Error(etcd::ErrorCode::DeadlineExceeded,
                                    "etcd's watch did not catch up with revision " +
                                        std::to_string(reading->history.until) + " in 30 s"));
        return;
    }
    reading->client.schedule(catchUpPoll, [reading] { checkCaughtUp(reading); });
}

// The keys under the prefix at the revision the watch caught up to, to know when it has.
void readKeysAtUntil(const std::shared_ptr<Reading>& reading, const std::string& prefix) {
    etcd::pb::RangeRequest range;
    range.set_key(prefix);
    range.set_range_end(etcd::prefixRangeEnd(prefix));
    range.set_revision(reading->history.until);
    range.set_keys_only(true);
    reading->client.rangeAll(range, [reading](etcd::Result<etcd::pb::RangeResponse> listed) {
        if (!listed) {
            reading->finish(listed.error());
            return;
        }
        KeyIds keys;
        for (const auto& kv : listed->kvs())
            keys.emplace(kv.key(), kv.create_revision());
        reading->keysAtUntil = std::move(keys);
        checkCaughtUp(reading);
    });
}

void watchFrom(const std::shared_ptr<Reading>& reading, const std::string& prefix) {
    etcd::pb::WatchCreateRequest request;
    request.set_key(prefix);
    request.set_range_end(etcd::prefixRangeEnd(prefix));
    request.set_start_revision(reading->history.from + 1);
    // The watch's callbacks hold the reading until finish() lets go of the watch.
    reading->watch = reading->client.watch(
        request, {[reading, prefix](const etcd::pb::WatchResponse& response) {
                      if (!reading->done)
                          return;
                      EtcdHistory& history = reading->history;
                      reading->lastAnswer = std::chrono::steady_clock::now();
                      if (response.created()) {
                          history.until = response.header().revision();
                          if (history.until <= history.from)
                              reading->finish(std::move(history));
                          else
                              readKeysAtUntil(reading, prefix);
                          return;
                      }
                      for (const auto& event : response.events()) {
                          const int64_t revision = event.kv().mod_revision();
                          if (revision > history.until)
                              break;
                          for (auto& e : reading->table.apply(event, revision, timeOf(revision)))
                              history.entries.push_back(std::move(e));
                      }
                  },
                  [reading](const etcd::Error& error) { reading->finish(error); }});
}

} // namespace

void readEtcdHistory(etcd::Client& client, const std::string& prefix, int64_t from,
                     etcd::RecipeOverride recipe,
                     std::function<void(etcd::Result<EtcdHistory>)> done) {
    auto reading = std::make_shared<Reading>(client, recipe, std::move(done));
    reading->self = reading;
    reading->history.from = from;
    etcd::pb::RangeRequest range;
    range.set_key(prefix);
    range.set_range_end(etcd::prefixRangeEnd(prefix));
    range.set_revision(from);
    client.rangeAll(range, [reading, prefix](etcd::Result<etcd::pb::RangeResponse> listed) {
        if (!listed) {
            reading->finish(listed.error());
            return;
        }
        const auto kvs = etcd::takeKeyValues(*listed->mutable_kvs());
        const int64_t from = reading->history.from;
        reading->table.load(kvs, from, timeOf(from));
        reading->history.checkpoints.push_back(
            {from, timeOf(from), "etcd",
             historyKeysOf(reading->table.locks(), reading->table.anomalies())});
        watchFrom(reading, prefix);
    });
}

bool compactedAway(const etcd::Error& error) {
    return error.code == etcd::ErrorCode::Compacted ||
           error.message.find("required revision has been compacted") != std::string::npos;
}

namespace {

// Narrows [low, high] down to the oldest revision a read at it succeeds for: the reads of a
// revision etcd compacted away fail, and those of every later one succeed.
void searchOldest(etcd::Client& client, int64_t low, int64_t high,
                  std::shared_ptr<KeptRevisions> kept,
                  std::function<void(etcd::Result<KeptRevisions>)> done) {
    if (low >= high) {
        kept->oldest = high;
        done(*kept);
        return;
    }
    const int64_t middle = low + (high - low) / 2;
    etcd::pb::RangeRequest range;
    range.set_key(std::string(1, '\0'));
    range.set_count_only(true);
    range.set_revision(middle);
    client.range(range, [&client, low, middle, high, kept, done = std::move(done)](
                            etcd::Result<etcd::pb::RangeResponse> read) mutable {
        if (read)
            searchOldest(client, low, middle, kept, std::move(done));
        else if (compactedAway(read.error()))
            searchOldest(client, middle + 1, high, kept, std::move(done));
        else
            done(read.error());
    });
}

} // namespace

void readKeptRevisions(etcd::Client& client,
                       std::function<void(etcd::Result<KeptRevisions>)> done) {
    etcd::pb::RangeRequest range;
    range.set_key(std::string(1, '\0'));
    range.set_count_only(true);
    client.range(range, [&client, done = std::move(done)](
                            etcd::Result<etcd::pb::RangeResponse> read) mutable {
        if (!read) {
            done(read.error());
            return;
        }
        auto kept = std::make_shared<KeptRevisions>();
        kept->newest = read->header().revision();
        searchOldest(client, 1, kept->newest, kept, std::move(done));
    });
}

} // namespace lockscope
