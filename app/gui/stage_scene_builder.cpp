#include "app/gui/stage_scene_builder.h"

#include "app/core/key_text.h"
#include "app/core/recipe_text.h"
#include "etcdclient/hex_id.h"

namespace lockscope {

namespace {
// Enough to tell the tokens of one lane apart at a glance; the full key is one right-click away.
constexpr int shortLeaseDigits = 4;
} // namespace

QString shortLease(int64_t lease) {
    if (lease == 0)
        return {};
    const QString hex = QString::fromStdString(etcd::leaseHex(lease));
    return hex.size() <= shortLeaseDigits ? hex : QStringLiteral("…") + hex.right(shortLeaseDigits);
}

StageScene stageSceneOf(const etcd::LockMonitorState& state, const QHash<QByteArray, bool>& ownKeys,
                        int maxLanes, const std::optional<etcd::SessionId>& picked) {
    StageScene scene;
    for (const auto& [name, queue] : state.locks) {
        if (static_cast<int>(scene.lanes.size()) >= maxLanes) {
            // Counted, not walked: a million locks are rebuilt from once a frame.
            scene.lanesLeftOut = static_cast<int>(state.locks.size()) - maxLanes;
            break;
        }
        StageLane lane{displayKeyText(name),
                       {},
                       queue->waitersVisible() ? QString() : recipeWord(queue->kind())};
        lane.tokens.reserve(queue->keys.size());
        for (const etcd::LockKey& key : queue->keys) {
            StageToken token{displayKeyText(key.key),
                             shortLease(key.lease),
                             key.createRevision,
                             {},
                             0,
                             false,
                             false};
            if (const auto ttl = state.leases.find(key.lease); ttl != state.leases.end()) {
                const etcd::LeaseTtl& t = ttl->second;
                token.ttlEndsAt =
                    t.fetchedAt + std::chrono::seconds(std::max<int64_t>(0, t.ttlSeconds));
                token.grantedSeconds = static_cast<double>(t.grantedTtlSeconds);
            }
            if (const auto own = ownKeys.constFind(QByteArray::fromStdString(key.key));
                own != ownKeys.constEnd()) {
                token.ours = true;
                token.paused = *own;
            }
            token.picked = picked && *picked == etcd::SessionId::of(key);
            lane.tokens.push_back(std::move(token));
        }
        scene.lanes.push_back(std::move(lane));
    }
    return scene;
}

} // namespace lockscope
