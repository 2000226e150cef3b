#include "app/ctl/blockers_command.h"

#include "app/core/blockers_json.h"
#include "app/core/blockers_model.h"
#include "app/core/key_text.h"
#include "app/ctl/prefix_arguments.h"
#include "app/ctl/snapshot_read.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lease_evidence.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

namespace {

void print(const QString& line) {
    std::fputs(qPrintable(line + '\n'), stdout);
}

QString waitText(const etcd::Wait& wait) {
    return QCoreApplication::translate("lockscopectl", "%1 waits in %2 for %3 of %4")
        .arg(sessionText(wait.waiter), displayKeyText(wait.lock), displayKeyText(wait.onKey),
             sessionText(wait.on));
}

// How to break a deadlock by hand: etcdctl revokes a lease, or deletes a key without one.
QString breakCommand(const etcd::SessionId& session) {
    return session.lease != 0 ? QStringLiteral("etcdctl lease revoke %1")
                                    .arg(QString::fromStdString(etcd::leaseHex(session.lease)))
                              : QStringLiteral("etcdctl del %1").arg(displayKeyText(session.key));
}

void printText(const etcd::WaitForGraph& graph, const std::vector<etcd::Deadlock>& deadlocks,
               const etcd::LockMonitorState& state, const std::string& prefix) {
    const auto roots = graph.rootBlockers();
    const int waiting = static_cast<int>(graph.sessionsWaiting());
    print(QCoreApplication::translate("lockscopectl", "revision %1 under %2: %n session(s) waiting",
                                      nullptr, waiting)
              .arg(state.revision)
              .arg(displayKeyText(prefix)));
    for (const etcd::Deadlock& deadlock : deadlocks) {
        const int held = static_cast<int>(deadlock.breakLosesHeld);
        QStringList sessions;
        for (const etcd::SessionId& session : deadlock.sessions)
            sessions << sessionText(session);
        print(
            QCoreApplication::translate(
                "lockscopectl", "DEADLOCK: %1 wait on each other; none lets go until a lease ends")
                .arg(sessions.join(QStringLiteral(", "))));
        for (const etcd::Wait& wait : deadlock.waits)
            print(QStringLiteral("  ") + waitText(wait));
        print(QCoreApplication::translate(
                  "lockscopectl",
                  "  to break it, revoke %1 (it holds %n lock(s) others wait for): %2", nullptr,
                  held)
                  .arg(sessionText(deadlock.breakBy), breakCommand(deadlock.breakBy)));
    }
    for (const etcd::RootBlocker& root : roots) {
        const auto ttl = state.leases.find(root.session.lease);
        const int blocked = static_cast<int>(root.transitive);
        QString lease;
        if (root.session.lease != 0 && ttl != state.leases.end())
            lease = QCoreApplication::translate("lockscopectl", ", TTL %1 s of %2 s")
                        .arg(ttl->second.ttlSeconds)
                        .arg(ttl->second.grantedTtlSeconds);
        print(QCoreApplication::translate("lockscopectl",
                                          "root blocker %1 blocks %n session(s), %2 directly "
                                          "(locks held that others wait for: %3%4)",
                                          nullptr, blocked)
                  .arg(sessionText(root.session), QString::number(root.direct),
                       QString::number(root.held), lease));
        if (root.session.lease != 0 && ttl != state.leases.end() &&
            etcd::leaseUnrenewed(ttl->second))
            print(QCoreApplication::translate(
                      "lockscopectl",
                      "  nobody has renewed its lease for half its TTL: its holder may be hung or "
                      "cut off, the likely culprit (etcd ends the lease in %1 s)")
                      .arg(ttl->second.ttlSeconds));
        for (const etcd::Wait& wait : graph.waitsBehind(root.session))
            print(QStringLiteral("  ") + waitText(wait));
    }
    if (deadlocks.empty() && roots.empty())
        print(QCoreApplication::translate("lockscopectl", "nobody waits on anybody"));
}

} // namespace

int runBlockersCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments, "lockscopectl [connection flags] blockers PREFIX [--json] [--recipe NAME]",
        QCoreApplication::translate(
            "lockscopectl",
            "Show who waits for whom across every lock under PREFIX: the root blockers with their "
            "waiters, and deadlocks with the lease to revoke to break each. Exits 5 when there "
            "is a deadlock."),
        JsonOutput::Offered, exitCode);
    if (!args)
        return exitCode;
    const auto state = readSnapshotUnder(*args, connection, exitCode);
    if (!state)
        return exitCode;
    const etcd::WaitForGraph graph = etcd::WaitForGraph::of(state->locks);
    const std::vector<etcd::Deadlock> deadlocks = graph.deadlocks();
    if (args->json)
        std::printf("%s\n", blockersJson(graph, deadlocks, *state).c_str());
    else
        printText(graph, deadlocks, *state, args->prefix);
    return deadlocks.empty() ? ExitOk : ExitDeadlock;
}

} // namespace lockscope
