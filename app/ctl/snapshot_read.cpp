#include "app/ctl/snapshot_read.h"

#include "app/ctl/ctl_command.h"
#include "etcdclient/blocking.h"
#include "etcdclient/locks/lock_snapshot.h"

namespace lockscope {

std::optional<etcd::LockMonitorState>
readSnapshotUnder(const PrefixArguments& args, const ConnectionOptions& connection, int& exitCode) {
    const auto client = connect(connection, exitCode);
    if (!client)
        return std::nullopt;
    auto state = etcd::waitFor<etcd::Result<etcd::LockMonitorState>>([&](auto done) {
        etcd::readLockSnapshot(*client, args.prefix, std::move(done), args.recipe);
    });
    if (!state) {
        exitCode = failWith(state.error());
        return std::nullopt;
    }
    return std::move(state).value();
}

} // namespace lockscope
