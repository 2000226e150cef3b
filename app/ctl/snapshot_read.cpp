#include "app/ctl/snapshot_read.h"

#include "app/core/etcd_history.h"
#include "app/ctl/ctl_command.h"
#include "etcdclient/blocking.h"
#include "etcdclient/locks/lock_snapshot.h"

#include <QCoreApplication>

namespace lockscope {

namespace {

// etcd's words for a read of a revision it has not reached yet (mvcc's ErrFutureRev): the only
// way it tells it from other bad arguments (compactedAway tells ErrCompacted).
bool notReachedYet(const etcd::Error& error) {
    return error.message.find("required revision is a future revision") != std::string::npos;
}

// etcd's revision now, or 0 when it does not answer.
int64_t currentRevision(etcd::Client& client, const std::string& prefix) {
    etcd::pb::RangeRequest request;
    request.set_key(prefix);
    request.set_count_only(true);
    const auto read = etcd::call(client, &etcd::Client::range, request);
    return read ? read->header().revision() : 0;
}

} // namespace

std::optional<etcd::LockMonitorState> readSnapshotUnder(const PrefixArguments& args,
                                                        const ConnectionOptions& connection,
                                                        int& exitCode, int64_t revision,
                                                        std::unique_ptr<etcd::Client>* keepClient) {
    auto client = connect(connection, exitCode);
    if (!client)
        return std::nullopt;
    auto state = etcd::waitFor<etcd::Result<etcd::LockMonitorState>>([&](auto done) {
        etcd::readLockSnapshot(*client, args.prefix, std::move(done), args.recipe, revision);
    });
    if (!state && revision != 0 && (compactedAway(state.error()) || notReachedYet(state.error()))) {
        const int64_t now = currentRevision(*client, args.prefix);
        say(compactedAway(state.error())
                ? QCoreApplication::translate("lockscopectl",
                                              "revision %1 is compacted away: etcd keeps no "
                                              "history before its last compaction. Ask for a "
                                              "later revision, up to %2 (now).")
                      .arg(revision)
                      .arg(now)
                : QCoreApplication::translate("lockscopectl",
                                              "revision %1 is not reached yet: etcd is at %2.")
                      .arg(revision)
                      .arg(now));
        exitCode = ExitUsage;
        return std::nullopt;
    }
    if (!state) {
        exitCode = failWith(state.error());
        return std::nullopt;
    }
    if (keepClient)
        *keepClient = std::move(client);
    return std::move(state).value();
}

} // namespace lockscope
