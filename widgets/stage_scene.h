#pragma once

// What the stage shows, as plain values: a lane per lock, its holder then its waiters.

#include <QMetaType>
#include <QString>
#include <chrono>
#include <optional>
#include <vector>

namespace lockscope {

// One contender's key in a lane.
struct StageToken {
    QString key;             // as displayKey writes it; with the fencing token, who this is
    QString leaseShort;      // the lease id's last hex digits, "…4e5f"; empty without a lease
    qint64 fencingToken = 0; // the key's create revision
    // When the lease runs out unless renewed, and the TTL it was granted; unknown when unset.
    std::optional<std::chrono::steady_clock::time_point> ttlEndsAt;
    double grantedSeconds = 0;
    bool ours = false;   // taken by this window
    bool paused = false; // ours, with its keepalives stopped
    bool picked = false; // of the session picked on the Blockers page: ringed in amber

    bool sameKey(const StageToken& other) const {
        return key == other.key && fencingToken == other.fencingToken;
    }
};

// One lock: the holder in front, then the waiters (the view orders them by fencing token, which
// is the create-revision order the lock hands over in).
struct StageLane {
    QString lock;
    std::vector<StageToken> tokens;
    // Set for a lock whose waiters hold no key (a single-key lock): the recipe's word, which
    // the lane shows where a queue shows how many wait.
    QString waitersNotVisible = {};
};

struct StageScene {
    std::vector<StageLane> lanes;
    int lanesLeftOut = 0; // locks not shown, past the most a stage draws
};

// How a key left its lane, as the view labels it.
enum class StageDeparture { Released, Cancelled, Expired, ForceReleased, Lost };

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::StageToken)
