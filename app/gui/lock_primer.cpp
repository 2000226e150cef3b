#include "app/gui/lock_primer.h"

#include <QObject>

namespace lockscope {

QString lockPrimerHtml() {
    return QObject::tr(R"(
<h2>How etcd locks work</h2>
<p>An etcd lock is not a flag but a queue of keys under the lock's name, the protocol of
<tt>etcdctl lock</tt> and Go's <tt>concurrency.Mutex</tt>. LockScope shows each part of it.</p>

<h3>1. A lease keeps the claim alive</h3>
<p>A client first grants itself a <b>lease</b> with a time to live (TTL, 60 s by default) and
keeps renewing it while it runs. Its key is attached to the lease, so when the client dies or
loses the cluster the lease expires and etcd deletes the key: a crashed holder cannot keep a
lock forever. The <i>TTL</i> columns count this down.</p>

<h3>2. Queueing in create-revision order</h3>
<p>To ask for lock <tt>/locks/job</tt> the client puts the key <tt>/locks/job/&lt;lease id in
hex&gt;</tt> in a transaction. etcd stamps every key with the cluster-wide revision at which
it was created, its <b>create revision</b>. The key with the lowest create revision under the
name holds the lock; the others wait in that order. This is the <i>queue</i> of the Locks
page.</p>

<h3>3. Waiting on the predecessor</h3>
<p>A waiter does not poll. It watches only the key just before its own in the queue (its
<b>predecessor</b>) for deletion, and checks again when it goes. So a release wakes one waiter,
not all of them. The queue's <i>waits on</i> column names each predecessor.</p>

<h3>4. Releasing</h3>
<p>The holder releases by deleting its key (and revoking its lease). Force release does the
same from outside: it revokes the holder's lease, or deletes a key that has no lease. The next
waiter's watch fires and it holds the lock.</p>

<h3>5. Fencing tokens</h3>
<p>A holder can stall (a long pause, a lost network) until its lease expires and the next
waiter takes over, while it still believes it holds the lock. The holder's create revision
only grows from one holder to the next, so it serves as a <b>fencing token</b>: the resource
the lock protects remembers the highest token it has seen and refuses writes with a lower one.
In etcd itself, write with a transaction that compares the lock key's create revision, so the
write happens only while the key is still yours. The Lab page shows the stale writes fencing
rejects.</p>
)");
}

} // namespace lockscope
