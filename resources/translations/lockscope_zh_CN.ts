<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LeaseCountdown</name>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Granted %1 s%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; renewed since the previous look</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OwnLock</name>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not acquired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ours: %1 since %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (keepalive paused)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>give at least one endpoint, like 127.0.0.1:2379</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the user name alone, without &apos;:&apos;: the password is asked when connecting and never saved with the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
&lt;h2&gt;How etcd locks work&lt;/h2&gt;
&lt;p&gt;An etcd lock is not a flag but a queue of keys under the lock&apos;s name, the protocol of
&lt;tt&gt;etcdctl lock&lt;/tt&gt; and Go&apos;s &lt;tt&gt;concurrency.Mutex&lt;/tt&gt;. LockScope shows each part of it.&lt;/p&gt;

&lt;h3&gt;1. A lease keeps the claim alive&lt;/h3&gt;
&lt;p&gt;A client first grants itself a &lt;b&gt;lease&lt;/b&gt; with a time to live (TTL, 60 s by default) and
keeps renewing it while it runs. Its key is attached to the lease, so when the client dies or
loses the cluster the lease expires and etcd deletes the key: a crashed holder cannot keep a
lock forever. The &lt;i&gt;TTL&lt;/i&gt; columns count this down.&lt;/p&gt;

&lt;h3&gt;2. Queueing in create-revision order&lt;/h3&gt;
&lt;p&gt;To ask for lock &lt;tt&gt;/locks/job&lt;/tt&gt; the client puts the key &lt;tt&gt;/locks/job/&amp;lt;lease id in
hex&amp;gt;&lt;/tt&gt; in a transaction. etcd stamps every key with the cluster-wide revision at which
it was created, its &lt;b&gt;create revision&lt;/b&gt;. The key with the lowest create revision under the
name holds the lock; the others wait in that order. This is the &lt;i&gt;queue&lt;/i&gt; of the Locks
page.&lt;/p&gt;

&lt;h3&gt;3. Waiting on the predecessor&lt;/h3&gt;
&lt;p&gt;A waiter does not poll. It watches only the key just before its own in the queue (its
&lt;b&gt;predecessor&lt;/b&gt;) for deletion, and checks again when it goes. So a release wakes one waiter,
not all of them. The queue&apos;s &lt;i&gt;waits on&lt;/i&gt; column names each predecessor.&lt;/p&gt;

&lt;h3&gt;4. Releasing&lt;/h3&gt;
&lt;p&gt;The holder releases by deleting its key (and revoking its lease). Force release does the
same from outside: it revokes the holder&apos;s lease, or deletes a key that has no lease. The next
waiter&apos;s watch fires and it holds the lock.&lt;/p&gt;

&lt;h3&gt;5. Fencing tokens&lt;/h3&gt;
&lt;p&gt;A holder can stall (a long pause, a lost network) until its lease expires and the next
waiter takes over, while it still believes it holds the lock. The holder&apos;s create revision
only grows from one holder to the next, so it serves as a &lt;b&gt;fencing token&lt;/b&gt;: the resource
the lock protects remembers the highest token it has seen and refuses writes with a lower one.
In etcd itself, write with a transaction that compares the lock key&apos;s create revision, so the
write happens only while the key is still yours. The Lab page shows the stale writes fencing
rejects.&lt;/p&gt;
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF could not be drawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::AboutDialog</name>
    <message>
        <source>About LockScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h2&gt;LockScope %1&lt;/h2&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows what is inside the locks of an etcd v3 cluster, live, and lets you take and release them by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gRPC:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>etcd server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for %1 to answer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>etcd %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::AcquireDialog</name>
    <message>
        <source>Only if free now (do not queue)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire a lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any bytes: \xNN is a byte, \\ a backslash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session lease&apos;s time to live in seconds. LockScope keeps it alive every TTL/3 until you release the lock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session TTL (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long session TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1.

Acquire with this TTL anyway?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ClusterPage</name>
    <message>
        <source>Members</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round trip by RPC method (right-click to export)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ConnectionDialog</name>
    <message>
        <source>CA certificate (PEM), for TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client certificate (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client key (PEM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: hide every action that writes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to etcd</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is asked when connecting; it can be kept in the desktop&apos;s keyring, never in the profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a PEM file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(new)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ConnectionStatus</name>
    <message>
        <source>Not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>using %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leader: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raft term: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round trip: %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::EndpointStatusModel</name>
    <message>
        <source>true</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>false</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::EventLogModel</name>
    <message>
        <source>Inferred from a re-list after a gap in the watch, not seen live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recovered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lease</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waited ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;How etcd locks work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About LockScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How etcd locks work</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::HolderCard</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lease</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lock selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not looked up yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lease gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LabPanel</name>
    <message>
        <source> workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chance that a holder&apos;s keepalives stop while it holds on past its TTL: a split brain unless writes are fenced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chance that a holder vanishes without releasing; its key stays until the lease expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chance that a holder keeps the lock five times as long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fence resource writes with the lock&apos;s fencing token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated lock names the workers contend on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each worker acquires once, then stops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Think</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contention lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 acquisitions (%2/s now)
chaos: %3 stalls, %4 crashes, %5 slow holds
resource writes: %6 applied, %7 rejected by fencing, %8 landed without the lock
split brains found: %9%10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (longest %1 ms, workers %2 and %3 on %4)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LatencyPlot</name>
    <message>
        <source>round trip (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answers yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LockActions</name>
    <message>
        <source>this window is already waiting for or holding it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is held by someone else</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying in %1 s (attempt %2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nobody is waiting, so the lock becomes free.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next waiter, %1, becomes the holder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the key %1 (it has no lease). Whoever created it is not told. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke lease %1. etcd deletes %2 and every other key attached to that lease; its holder loses the lock and learns it only when its own keepalive fails. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lease revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not deleted: the key changed since you looked</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LockActionsBar</name>
    <message>
        <source>Trying %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for %1… (Release cancels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquired %1 (fencing token %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did not acquire %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for %1: retrying in %2 s (attempt %3): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost the lock %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost the lock %1 (see Problems)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acquire…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take a lock yourself, waiting in the queue or only if free (Ctrl+Shift+A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release (or stop waiting for) the selected lock that this window took (Ctrl+Shift+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause keepalive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop renewing the lease of a lock we hold: it expires and the next waiter takes over, live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(select a lock that has a holder, or a row of its queue)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take a key away from whoever holds it %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy a lock key %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the holder&apos;s key %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key %1 (waiter %2 in the queue)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release %1: revoke its lease, or delete it when it has none (asks first; select a queue row to pick another key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke lease</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete key</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LockListModel</name>
    <message>
        <source>Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ours</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LockQueueModel</name>
    <message>
        <source>Fencing token: the create revision of this key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>holder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since LockScope saw the key appear, or saw it acquire the lock: keys already there when the watch began have waited or held at least this long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lease</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create rev</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waits on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Granted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LockWatch</name>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading the locks under %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::LocksPage</name>
    <message>
        <source>Filter locks by name (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder and queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected: there is no event log to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export event log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON array of watch --json objects (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a lock to see its holder and queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nobody holds %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::MainWindow</name>
    <message>
        <source>Locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: no password was given. Choose File → Connect… to connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export event log…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Releasing our locks before closing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting sandbox etcd…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach the cluster: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication failed for user %1: etcd refused the user name or password. Enter the password again, or choose File → Connect… to change the user or the cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authentication failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LockScope — %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::MetricsPage</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>follower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no leader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>etcd&apos;s own metrics, read from each member&apos;s /metrics.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Member</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leader changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leases expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compacted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database of quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slow watchers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposals pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposals failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WAL fsync p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commit p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>etcd&apos;s etcd_debugging_mvcc_pending_events_total. etcd 3.4 counts every event a filtered watch drops as pending and never takes it back, and lock waiters (Go&apos;s, etcdctl&apos;s and ours) watch without PUT events: so it climbs with lock traffic on the member they watch. Read a jump, not the level.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leadership and lease expiries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leases (the leader&apos;s counts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Watchers and proposals (all members)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk latency (slowest member)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>etcd&apos;s own metrics, read from each member&apos;s /metrics every %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not served by this etcd: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leader changes since opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>members without a leader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>members not answering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lease expiries since opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>granted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>renewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slow watchers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposals pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposals failed per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backend commit p99</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::MetricsScraper</name>
    <message>
        <source>no answer within %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be read: %2; check that the member runs and that its client URL serves /metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered HTTP %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not Prometheus text: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::PasswordDialog</name>
    <message>
        <source>Remember in the keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password of user &lt;b&gt;%1&lt;/b&gt; on %2:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the password in the desktop&apos;s keyring, so the next connection does not ask; a password the cluster refuses is forgotten</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::PasswordSource</name>
    <message>
        <source>The refused password is still in the keyring: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password was not kept in the keyring: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keyring to remember it in: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::PrefixBar</name>
    <message>
        <source>The key prefix whose locks to watch (Ctrl+L); Enter applies it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock &amp;prefix:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefix not changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reconnecting: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ProblemList</name>
    <message>
        <source>Dismiss all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems (%1), newest first: kept until you dismiss them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection ×99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss this problem</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ProblemLogModel</name>
    <message numerus="yes">
        <source>%n times, first at %1, last at %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::Sandbox</name>
    <message>
        <source>no etcd program &quot;%1&quot; was found. Install etcd (Debian: apt install etcd-server), or connect to a cluster with --endpoints.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Member %1 did not restart: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox etcd did not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::SandboxMenu</name>
    <message>
        <source>&amp;Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not on a sandbox (start LockScope without endpoints, or with --sandbox=N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop member %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart member %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::TimelinePage</name>
    <message>
        <source>milliseconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause graphs (then drag and zoom)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holders over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait and handoff times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export a graph as PNG or PDF (also on each graph&apos;s right-click menu)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holders over time: a lane per lock, a bar per hold, red where two believed they held it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wait (observed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>handoff gap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiters, all locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wait (ours)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>lockscope::ViewMenu</name>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock &amp;prefix…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter locks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide every action that writes to etcd</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
