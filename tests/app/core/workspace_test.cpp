// The Workspace's end against a real etcd: our keys and leases are gone after it, it finishes
// by its deadline when a member does not answer, and answers that come after it are dropped.
#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/lab/contention_lab.h"
#include "app/lab/lab_options.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"
#include "support/etcd_fixture.h"
#include "support/stopped_member.h"
#include "support/waiting.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
#include <gtest/gtest.h>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

// Runs the application's queued calls until `condition` holds or `timeout` passes.
bool pumpUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeout.count())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return true;
}

std::vector<int64_t> leaseIds(etcd::Client& client) {
    const auto leases =
        etcd::call(client, &etcd::Client::leaseLeases, etcd::pb::LeaseLeasesRequest{});
    EXPECT_TRUE(leases.ok()) << leases.error().message;
    std::vector<int64_t> ids;
    if (leases.ok())
        for (const auto& lease : leases->leases())
            ids.push_back(lease.id());
    std::sort(ids.begin(), ids.end());
    return ids;
}

// Takes `held` and queues for `queued` through the Workspace's LockActions, and runs its lab
// on `labLock`; returns once `held` is ours and the lab has made an acquisition.
void holdQueueAndRunTheLab(Workspace& workspace, const std::string& held, const std::string& queued,
                           const std::string& labLock) {
    LockActions* actions = workspace.lockActions();
    ASSERT_NE(actions, nullptr);
    bool acquired = false;
    QObject::connect(actions, &LockActions::acquired, actions,
                     [&](const QString& name) { acquired |= name.toStdString() == held; });
    actions->acquire(QString::fromStdString(held), 10, false);
    actions->acquire(QString::fromStdString(queued), 10, false);
    lab::LabOptions options;
    options.workers = 3;
    options.locks = {labLock};
    options.resourceKey = labLock + "-resource";
    workspace.startLab(options, false);
    ASSERT_TRUE(pumpUntil(
        [&] { return acquired && workspace.lab()->report().counters.acquisitions > 0; }, 10s));
}

class WorkspaceTest : public test::EtcdTest {
protected:
    etcd::ClientOptions options() const {
        etcd::ClientOptions o;
        o.endpoints = cluster().endpoints();
        return o;
    }
};

TEST_F(WorkspaceTest, EndLeavesNoKeyAndNoLeaseOfOurs) {
    // Someone else's lock, which ours queues behind: it must stay.
    auto theirs = etcd::createSession(*client, 30);
    ASSERT_TRUE(theirs);
    auto theirMutex = etcd::Mutex::create(*client, theirs, prefix() + "queued");
    ASSERT_TRUE(etcd::lockNow(*theirMutex).ok());
    const auto leasesBefore = leaseIds(*client);

    auto* workspace = new Workspace(options());
    holdQueueAndRunTheLab(*workspace, prefix() + "held", prefix() + "queued", prefix() + "lab");
    ASSERT_TRUE(pumpUntil([&] { return keysUnder(prefix() + "queued/").size() == 2; }, 10s));
    EXPECT_GT(leaseIds(*client).size(), leasesBefore.size());

    bool finished = false;
    QObject::connect(workspace, &Workspace::finished, [&] { finished = true; });
    QElapsedTimer ending;
    ending.start();
    workspace->end();
    EXPECT_LT(ending.elapsed(), 100) << "end() must not wait on the network";
    EXPECT_FALSE(finished);
    ASSERT_TRUE(pumpUntil([&] { return finished; }, 10s));
    EXPECT_LT(ending.elapsed(), workspace->options().commandTimeout.count());
    EXPECT_EQ(workspace->client(), nullptr);
    EXPECT_EQ(workspace->lockActions(), nullptr);
    delete workspace;

    EXPECT_TRUE(keysUnder(prefix() + "held/").empty());
    EXPECT_TRUE(keysUnder(prefix() + "lab/").empty());
    EXPECT_EQ(keysUnder(prefix() + "queued/").size(), 1u); // theirs
    EXPECT_EQ(leaseIds(*client), leasesBefore);
    ASSERT_TRUE(etcd::unlockNow(*theirMutex));
}

// One client per connection: the status probe asks every member through the session's client,
// and answers for each.
TEST_F(WorkspaceTest, TheStatusProbeAsksThroughTheSessionsClient) {
    Workspace workspace(options());
    ASSERT_NE(workspace.client(), nullptr);
    EXPECT_EQ(workspace.probe()->client(), workspace.client());
    QList<EndpointStatus> rows;
    QObject::connect(workspace.probe(), &ClusterStatusProbe::updated,
                     [&](const QList<EndpointStatus>& latest) { rows = latest; });
    workspace.probe()->refresh();
    ASSERT_TRUE(pumpUntil([&] { return !rows.isEmpty(); }, 10s));
    ASSERT_EQ(rows.size(), static_cast<qsizetype>(options().endpoints.size()));
    for (const EndpointStatus& row : rows)
        EXPECT_TRUE(row.answered()) << row.endpoint.toStdString();
}

TEST_F(WorkspaceTest, DestroyedWithoutEndStillLeavesNothing) {
    const auto leasesBefore = leaseIds(*client);
    {
        Workspace workspace(options());
        holdQueueAndRunTheLab(workspace, prefix() + "held", prefix() + "queued", prefix() + "lab");
    } // the destructor ends and waits, bounded by the deadline
    EXPECT_TRUE(keysUnder(prefix()).empty());
    EXPECT_EQ(leaseIds(*client), leasesBefore);
}

class WorkspaceClusterTest : public test::EtcdClusterTest {
protected:
    static int64_t keyCount(etcd::Client& via, const std::string& keyPrefix) {
        etcd::pb::RangeRequest request;
        request.set_key(keyPrefix);
        request.set_range_end(etcd::prefixRangeEnd(keyPrefix));
        request.set_count_only(true);
        const auto got = etcd::call(via, &etcd::Client::range, request);
        return got ? got->count() : -1;
    }
};

// Two of three members stop answering (no quorum, so no failover helps): the end still
// completes by its deadline, and the answers that come once they resume find the Workspace
// gone.
TEST_F(WorkspaceClusterTest, EndCompletesByTheDeadlineWhenAMemberIsStopped) {
    etcd::ClientOptions options;
    options.endpoints = test::endpointsFrom(*cluster, 0);
    options.commandTimeout = 2s;
    auto* workspace = new Workspace(options);
    holdQueueAndRunTheLab(*workspace, "/ws-stopped/held", "/ws-stopped/queued", "/ws-stopped/lab");
    bool finished = false;
    int finishedCount = 0;
    QObject::connect(workspace, &Workspace::finished, [&] {
        finished = true;
        ++finishedCount;
    });
    {
        test::StoppedMember first(*cluster, 0);
        test::StoppedMember second(*cluster, 1);
        QElapsedTimer ending;
        ending.start();
        workspace->end();
        EXPECT_LT(ending.elapsed(), 100) << "end() must not wait on the network";
        ASSERT_TRUE(pumpUntil([&] { return finished; }, 10s));
        EXPECT_GE(ending.elapsed(), 2000 - 20) << "etcd could not have answered";
        EXPECT_LT(ending.elapsed(), 2000 + 1500) << "the deadline is the command timeout";
        delete workspace;
    } // the members resume: whatever they answer now has nobody to go to
    pumpUntil([] { return false; }, 1500ms);
    EXPECT_EQ(finishedCount, 1);

    // Our sessions' leases (10 s, renewed once by the election after the resume) expire on
    // the server, taking their keys with them.
    etcd::ClientOptions elsewhere;
    elsewhere.endpoints = test::endpointsFrom(*cluster, 2);
    auto client = etcd::Client::create(elsewhere);
    ASSERT_TRUE(client);
    EXPECT_TRUE(test::eventually([&] { return keyCount(**client, "/ws-stopped/") == 0; }, 40s));
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
