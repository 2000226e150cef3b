<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ConnectionOptions</name>
    <message>
        <source>%1: an endpoint is empty; give host:port or http(s)://host:port, several separated by commas</source>
        <translation>%1：有一个端点为空；请给出 host:port 或 http(s)://host:port，多个端点以逗号分隔</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: cannot read &quot;%2&quot;; give the path of a readable PEM file</source>
        <translation>%1：无法读取“%2”；请给出一个可读的 PEM 文件路径</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a usable timeout; give a positive duration with a unit, like 2s, 500ms or 1m</source>
        <translation>%1：“%2”不是可用的超时时间；请给出带单位的正时长，如 2s、500ms 或 1m</translation>
    </message>
    <message>
        <source>--password needs a user: add --user name</source>
        <translation>--password 需要一个用户：请加上 --user 用户名</translation>
    </message>
    <message>
        <source>%1: the user name is empty; give name or name:password</source>
        <translation>%1：用户名为空；请给出 用户名 或 用户名:密码</translation>
    </message>
    <message>
        <source>etcd endpoints, comma-separated (%1).</source>
        <translation>etcd 端点，以逗号分隔（%1）。</translation>
    </message>
    <message>
        <source>default 127.0.0.1:2379</source>
        <translation>默认 127.0.0.1:2379</translation>
    </message>
    <message>
        <source>host:port,...</source>
        <translation>host:port,...</translation>
    </message>
    <message>
        <source>Verify the server with this CA bundle (PEM).</source>
        <translation>用此 CA 证书包（PEM）验证服务器。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Client certificate for TLS (PEM), with --key.</source>
        <translation>TLS 客户端证书（PEM），与 --key 一起使用。</translation>
    </message>
    <message>
        <source>Client key for TLS (PEM), with --cert.</source>
        <translation>TLS 客户端私钥（PEM），与 --cert 一起使用。</translation>
    </message>
    <message>
        <source>Authenticate as this user; without :password (or --password) the password is asked on the terminal.</source>
        <translation>以此用户身份认证；未带 :密码（也没有 --password）时，在终端上询问密码。</translation>
    </message>
    <message>
        <source>name[:password]</source>
        <translation>用户名[:密码]</translation>
    </message>
    <message>
        <source>The password of --user (then --user is the name whole).</source>
        <translation>--user 的密码（此时 --user 整体即为用户名）。</translation>
    </message>
    <message>
        <source>password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Give up connecting after this long (default 2s).</source>
        <translation>连接超过此时长即放弃（默认 2s）。</translation>
    </message>
    <message>
        <source>duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Give up on a request after this long (default 5s).</source>
        <translation>请求超过此时长即放弃（默认 5s）。</translation>
    </message>
    <message>
        <source>a client certificate needs both --cert and --key (or ETCDCTL_CERT and ETCDCTL_KEY)</source>
        <translation>客户端证书需要同时给出 --cert 和 --key（或 ETCDCTL_CERT 和 ETCDCTL_KEY）</translation>
    </message>
</context>
<context>
    <name>EventWords</name>
    <message>
        <source>enqueued</source>
        <translation>入队</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>released</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>force-released</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>value changed</source>
        <translation>值已更改</translation>
    </message>
    <message>
        <source>campaigning</source>
        <translation>参选</translation>
    </message>
    <message>
        <source>elected</source>
        <translation>当选</translation>
    </message>
    <message>
        <source>resigned</source>
        <translation>辞任</translation>
    </message>
    <message>
        <source>withdrew</source>
        <translation>退出竞选</translation>
    </message>
    <message>
        <source>leader expired</source>
        <translation>领导者过期</translation>
    </message>
    <message>
        <source>deposed by force</source>
        <translation>被强制罢免</translation>
    </message>
    <message>
        <source>lost leadership</source>
        <translation>失去领导权</translation>
    </message>
    <message>
        <source>proclaimed</source>
        <translation>宣告</translation>
    </message>
    <message>
        <source>key created</source>
        <translation>键已创建</translation>
    </message>
    <message>
        <source>key deleted</source>
        <translation>键已删除</translation>
    </message>
    <message>
        <source>key&apos;s lease expired</source>
        <translation>键的租约已过期</translation>
    </message>
    <message>
        <source>key force-deleted</source>
        <translation>键被强制删除</translation>
    </message>
    <message>
        <source>key lost</source>
        <translation>键已丢失</translation>
    </message>
    <message>
        <source>our try withdrew</source>
        <translation>本窗口的尝试已撤回</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>已过时</translation>
    </message>
    <message>
        <source>resynced</source>
        <translation>已重新同步</translation>
    </message>
</context>
<context>
    <name>ForceReleaseConfirmation</name>
    <message>
        <source>%1 holds the lock now.</source>
        <translation>%1 现在持有该锁。</translation>
    </message>
    <message>
        <source>%1 waits now, number %2 in the queue; %3 holds the lock.</source>
        <translation>%1 现在在等待，排在队列第 %2 位；%3 持有该锁。</translation>
    </message>
    <message>
        <source>The holder keeps the lock; the waiters behind it move up.</source>
        <translation>持有者保留该锁；排在它后面的等待者依次前移。</translation>
    </message>
    <message>
        <source>Nobody is waiting, so the lock becomes free.</source>
        <translation>没有人在等待，因此锁变为空闲。</translation>
    </message>
    <message>
        <source>The next waiter, %1, becomes the holder.</source>
        <translation>下一个等待者 %1 成为持有者。</translation>
    </message>
    <message>
        <source>%1 is no longer in the queue (released, expired, or taken away since you asked): there is nothing to force release.</source>
        <translation>%1 已不在队列中（自您发起操作以来已被释放、已过期或被他人移除）：没有可强制释放的对象。</translation>
    </message>
    <message>
        <source>Delete the key %1 (it has no lease). Whoever created it is not told.</source>
        <translation>删除键 %1（它没有租约）。创建它的一方不会收到通知。</translation>
    </message>
    <message>
        <source>Revoke lease %1. etcd deletes %2 and every other key attached to that lease; its holder loses the lock and learns it only when its own keepalive fails.</source>
        <translation>撤销租约 %1。etcd 会删除 %2 以及挂在该租约上的所有其他键；其持有者失去锁，并且只有在自己的续约失败时才会知道。</translation>
    </message>
</context>
<context>
    <name>HistoryLocation</name>
    <message>
        <source>%1 is no PostgreSQL URL LockScope can use: write it as postgresql://user[:password]@host[:port]/dbname</source>
        <translation>%1 不是 LockScope 可用的 PostgreSQL URL：请写成 postgresql://user[:password]@host[:port]/dbname</translation>
    </message>
</context>
<context>
    <name>KeyText</name>
    <message>
        <source>bad escape &quot;\%1&quot; at byte %2: write \xNN (two hex digits) for a byte or \\ for a backslash</source>
        <translation>错误的转义“\%1”，位于第 %2 个字节：字节请写成 \xNN（两位十六进制数），反斜杠请写成 \\</translation>
    </message>
    <message numerus="yes">
        <source>%1… (%n byte(s))</source>
        <translation>
            <numerusform>%1…（%n 字节）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LeaseCountdown</name>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>Granted %1 s%2</source>
        <translation>授予 %1 s%2</translation>
    </message>
    <message>
        <source>; renewed since the previous look</source>
        <translation>；自上次查看后已续约</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>已过时</translation>
    </message>
    <message>
        <source>Granted %1 s; last looked up %2 s ago, longer than this lease&apos;s TTL lets a countdown stand for it: etcd may have renewed or ended it since</source>
        <translation>授予 %1 秒；上次查询在 %2 秒前，已超过此租约的 TTL 允许倒计时代表它的时长：etcd 此后可能已续约或结束了它</translation>
    </message>
</context>
<context>
    <name>LockHistoryStoreText</name>
    <message>
        <source>%1 is read-only: record into a file you may write, or make it writable</source>
        <translation>%1 是只读的：请记录到可写的文件中，或使其可写</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：没有这个文件</translation>
    </message>
    <message>
        <source> (the file is damaged or is no LockScope recording)</source>
        <translation>（文件已损坏，或不是 LockScope 记录）</translation>
    </message>
    <message>
        <source> (no space left, a file size limit reached, or a failing disk; what was recorded before this is kept)</source>
        <translation>（空间不足、达到文件大小上限或磁盘故障；此前记录的内容仍然保留）</translation>
    </message>
    <message>
        <source> (the file or its folder is read-only)</source>
        <translation>（文件或其所在文件夹是只读的）</translation>
    </message>
    <message>
        <source>cannot run %1</source>
        <translation>无法执行 %1</translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Qt&apos;s SQLite driver (QSQLITE) is missing: install libqt6sql6-sqlite</source>
        <translation>缺少 Qt 的 SQLite 驱动（QSQLITE）：请安装 libqt6sql6-sqlite</translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>not a LockScope recording</source>
        <translation>不是 LockScope 记录</translation>
    </message>
    <message>
        <source>recorded by a newer LockScope (schema %1; this one knows up to %2): read it with a newer lockscopectl</source>
        <translation>由更新版本的 LockScope 记录（模式 %1；本版本最高支持 %2）：请用更新的 lockscopectl 读取</translation>
    </message>
    <message>
        <source>the file is damaged (%1)</source>
        <translation>文件已损坏（%1）</translation>
    </message>
    <message>
        <source>recorded by an older LockScope (schema %1): record into it once with this lockscopectl to bring it up to schema %2</source>
        <translation>由较旧版本的 LockScope 记录（模式 %1）：用本版本的 lockscopectl 向其记录一次即可升级到模式 %2</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>无法写入</translation>
    </message>
    <message>
        <source>cannot record</source>
        <translation>无法记录</translation>
    </message>
    <message>
        <source>event %1 is of no kind or recipe this build knows (%2, %3)</source>
        <translation>事件 %1 的类型或配方不为本版本所知（%2，%3）</translation>
    </message>
    <message>
        <source>a checkpoint key of a recipe this build does not know (%1)</source>
        <translation>检查点中的键属于本版本不认识的配方（%1）</translation>
    </message>
    <message>
        <source> (give the user&apos;s password in the URL, postgresql://user:password@host/dbname, or in PGPASSWORD)</source>
        <translation>（请在 URL 中给出该用户的密码，如 postgresql://user:password@host/dbname，或放在 PGPASSWORD 中）</translation>
    </message>
    <message>
        <source> (LockScope records into a database that exists: create it first, with createdb)</source>
        <translation>（LockScope 只记录到已存在的数据库：请先用 createdb 创建它）</translation>
    </message>
    <message>
        <source> (the connection to PostgreSQL was lost; what was committed before this is kept)</source>
        <translation>（与 PostgreSQL 的连接已断开；此前已提交的内容仍然保留）</translation>
    </message>
    <message>
        <source>Qt&apos;s PostgreSQL driver (QPSQL) is missing: install libqt6sql6-psql</source>
        <translation>缺少 Qt 的 PostgreSQL 驱动（QPSQL）：请安装 libqt6sql6-psql</translation>
    </message>
    <message>
        <source>no LockScope history in it yet: record into it first</source>
        <translation>其中还没有 LockScope 历史：请先向其中记录</translation>
    </message>
    <message>
        <source>it holds tables of something else, not a LockScope history: give LockScope a database of its own</source>
        <translation>其中是别的程序的表，不是 LockScope 历史：请给 LockScope 一个专用的数据库</translation>
    </message>
    <message>
        <source>another recorder is recording the locks under %1 of %2 into it now: stop that one first, or record another prefix or cluster</source>
        <translation>另一个记录器正在把 %2 的 %1 下的锁记录到其中：请先停止那个记录器，或记录其他前缀或集群</translation>
    </message>
    <message>
        <source>%1 = the locks under %2 of %3</source>
        <translation>%1 = %3 的 %2 下的锁</translation>
    </message>
    <message>
        <source>a cluster of no name</source>
        <translation>一个未命名的集群</translation>
    </message>
    <message>
        <source>it holds no source %1; its sources: %2</source>
        <translation>其中没有来源 %1；它的来源：%2</translation>
    </message>
    <message>
        <source>it holds the histories of %1 sources; read one with --source ID: %2</source>
        <translation>其中有 %1 个来源的历史；请用 --source ID 读取其中一个：%2</translation>
    </message>
    <message>
        <source>cannot delete old history</source>
        <translation>无法删除旧的历史记录</translation>
    </message>
    <message>
        <source>anomaly %1 is of no kind this build knows (%2)</source>
        <translation>异常 %1 的类型不为本版本所知（%2）</translation>
    </message>
</context>
<context>
    <name>LockscopeCommandLine</name>
    <message>
        <source>Start a throwaway etcd and connect to it (the default when no endpoints are given; stopped and deleted on exit). --sandbox=3 starts a 3-member cluster whose members the Sandbox menu stops and restarts.</source>
        <translation>启动一个临时 etcd 并连接到它（未给出端点时的默认行为；退出时停止并删除）。--sandbox=3 启动一个 3 成员集群，可通过“沙箱”菜单停止和重启其成员。</translation>
    </message>
    <message>
        <source>The etcd program for the sandbox.</source>
        <translation>沙箱使用的 etcd 程序。</translation>
    </message>
    <message>
        <source>program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>On the sandbox, do not start the contention lab&apos;s demo workers.</source>
        <translation>在沙箱中不启动争用实验室的演示工作者。</translation>
    </message>
    <message>
        <source>Show the locks under this key prefix from the start (\xNN for a byte text cannot hold, \\ for a backslash). On a sandbox the lab&apos;s demo workers then do not start.</source>
        <translation>一开始就显示此键前缀下的锁（\xNN 表示文本无法容纳的字节，\\ 表示反斜杠）。此时沙箱中不启动实验室的演示工作者。</translation>
    </message>
    <message>
        <source>prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <source>Hide every action that writes.</source>
        <translation>隐藏所有写入操作。</translation>
    </message>
    <message>
        <source>Also print gRPC&apos;s own log lines to stderr.</source>
        <translation>同时把 gRPC 自己的日志行打印到 stderr。</translation>
    </message>
    <message>
        <source>Inspect etcd v3 locks. Connection flags and the ETCDCTL_* environment variables are those of etcdctl. With no endpoints (neither --endpoints nor ETCDCTL_ENDPOINTS), LockScope starts a sandbox etcd of its own.</source>
        <translation>查看 etcd v3 锁。连接参数和 ETCDCTL_* 环境变量与 etcdctl 相同。未给出端点时（既没有 --endpoints 也没有 ETCDCTL_ENDPOINTS），LockScope 会启动自己的沙箱 etcd。</translation>
    </message>
    <message>
        <source>none: LockScope starts a sandbox etcd of its own</source>
        <translation>无：LockScope 启动自己的沙箱 etcd</translation>
    </message>
    <message>
        <source>--sandbox=N takes a member count from 1 to 7</source>
        <translation>--sandbox=N 接受 1 到 7 的成员数</translation>
    </message>
    <message>
        <source>give either --sandbox or --endpoints, not both</source>
        <translation>请给出 --sandbox 或 --endpoints 之一，不能同时给出</translation>
    </message>
    <message>
        <source>--prefix: %1</source>
        <translation>--prefix：%1</translation>
    </message>
    <message>
        <source>Replay a recorded lock history (a file that lockscopectl record or the exporter&apos;s --record wrote, or a postgresql:// URL) instead of connecting: its events on a time scrubber, the locks as they stood.</source>
        <translation>回放一段已记录的锁历史（lockscopectl record 或导出器的 --record 写下的文件，或 postgresql:// URL），而不连接集群：在时间轴上逐个事件查看当时的锁。</translation>
    </message>
    <message>
        <source>file|url</source>
        <translation>文件|url</translation>
    </message>
    <message>
        <source>With --history: replay from this time (ISO 8601, UTC unless it names its offset) or revision on; only that part of the recording is read.</source>
        <translation>与 --history 一起使用：从此时间（ISO 8601，未注明时区则为 UTC）或修订版本起回放；只读取录制的这一部分。</translation>
    </message>
    <message>
        <source>time|revision</source>
        <translation>时间|修订版本</translation>
    </message>
    <message>
        <source>With --history: replay up to this time or revision.</source>
        <translation>与 --history 一起使用：回放到此时间或修订版本为止。</translation>
    </message>
    <message>
        <source>--%1 goes with --history: it names a span of a recording to replay</source>
        <translation>--%1 需与 --history 一起使用：它指定要回放的录制区间</translation>
    </message>
    <message>
        <source>--%1 %2: give a revision (a whole number) or an ISO 8601 time, such as 2026-11-27T03:10:00Z</source>
        <translation>--%1 %2：请给出修订版本（整数）或 ISO 8601 时间，例如 2026-11-27T03:10:00Z</translation>
    </message>
</context>
<context>
    <name>OwnLock</name>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>held</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>not acquired</source>
        <translation>未获取</translation>
    </message>
    <message>
        <source>Ours: %1 since %2</source>
        <translation>我们的锁：自 %2 起%1</translation>
    </message>
    <message>
        <source> (keepalive paused)</source>
        <translation>（续约已暂停）</translation>
    </message>
    <message>
        <source>campaigning</source>
        <translation>参选中</translation>
    </message>
    <message>
        <source>leading</source>
        <translation>领导中</translation>
    </message>
    <message>
        <source>resigned</source>
        <translation>已辞任</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>已退出参选</translation>
    </message>
    <message>
        <source>not elected</source>
        <translation>未当选</translation>
    </message>
    <message>
        <source>, proposing &quot;%1&quot;</source>
        <translation>，提议“%1”</translation>
    </message>
    <message>
        <source> (through etcd&apos;s Lock service)</source>
        <translation>（通过 etcd 的 Lock 服务）</translation>
    </message>
    <message>
        <source>resigning</source>
        <translation>正在辞去</translation>
    </message>
    <message>
        <source>releasing</source>
        <translation>正在释放</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>give at least one endpoint, like 127.0.0.1:2379</source>
        <translation>请至少给出一个端点，如 127.0.0.1:2379</translation>
    </message>
    <message>
        <source>give the user name alone, without &apos;:&apos;: the password is asked when connecting and never saved with the profile</source>
        <translation>只填写用户名，不要带“:”：密码在连接时询问，绝不会随配置保存</translation>
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
        <translation>
&lt;h2&gt;etcd 锁的工作原理&lt;/h2&gt;
&lt;p&gt;etcd 锁不是一个标志，而是锁名之下由多个键组成的队列，这正是
&lt;tt&gt;etcdctl lock&lt;/tt&gt; 和 Go 的 &lt;tt&gt;concurrency.Mutex&lt;/tt&gt; 所用的协议。LockScope 会展示其中的每个部分。&lt;/p&gt;

&lt;h3&gt;1. 租约让申请保持有效&lt;/h3&gt;
&lt;p&gt;客户端先为自己授予一个带存活时间（TTL，默认 60 秒）的&lt;b&gt;租约&lt;/b&gt;，并在运行期间不断续约。它的键挂在这个租约上，因此当客户端崩溃或与集群失联时，租约到期，etcd 删除这个键：崩溃的持有者无法永远占着锁。各个 &lt;i&gt;TTL&lt;/i&gt; 列显示的就是这个倒计时。&lt;/p&gt;

&lt;h3&gt;2. 按创建修订号排队&lt;/h3&gt;
&lt;p&gt;为了申请锁 &lt;tt&gt;/locks/job&lt;/tt&gt;，客户端在一个事务中写入键 &lt;tt&gt;/locks/job/&amp;lt;十六进制租约 ID&amp;gt;&lt;/tt&gt;。etcd 为每个键记下它被创建时整个集群的修订号，即它的&lt;b&gt;创建修订号&lt;/b&gt;。锁名之下创建修订号最小的键持有锁；其余的键按这个顺序等待。这就是“锁”页面上的&lt;i&gt;等待队列&lt;/i&gt;。&lt;/p&gt;

&lt;h3&gt;3. 等待前驱&lt;/h3&gt;
&lt;p&gt;等待者不会轮询。它只监视队列中紧排在自己前面的那个键（它的&lt;b&gt;前驱&lt;/b&gt;）是否被删除，前驱消失时再检查一次。因此一次释放只唤醒一个等待者，而不是全部。队列的&lt;i&gt;等待对象&lt;/i&gt;列列出每个等待者的前驱。&lt;/p&gt;

&lt;h3&gt;4. 释放&lt;/h3&gt;
&lt;p&gt;持有者通过删除自己的键（并撤销其租约）来释放锁。强制释放从外部做同样的事：撤销持有者的租约，或者删除没有租约的键。下一个等待者的监视随之触发，它便持有了锁。&lt;/p&gt;

&lt;h3&gt;5. 防护令牌&lt;/h3&gt;
&lt;p&gt;持有者可能停顿（长时间暂停、网络中断），直到租约过期、下一个等待者接手，而它仍然以为自己持有锁。持有者的创建修订号从一个持有者到下一个只增不减，因此可以用作&lt;b&gt;防护令牌&lt;/b&gt;：锁所保护的资源记住见过的最大令牌，拒绝令牌更小的写入。在 etcd 内部，可以用一个比较锁键创建修订号的事务来写入，这样只有当该键仍属于你时写入才会发生。“实验室”页面展示了防护拒绝的过期写入。&lt;/p&gt;
</translation>
    </message>
    <message>
        <source>the PDF could not be drawn</source>
        <translation>无法绘制 PDF</translation>
    </message>
    <message>
        <source>Export as PNG…</source>
        <translation>导出为 PNG…</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Export as PDF…</source>
        <translation>导出为 PDF…</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>RecipeText</name>
    <message>
        <source>mutex</source>
        <translation>互斥锁</translation>
    </message>
    <message>
        <source>election</source>
        <translation>选举</translation>
    </message>
    <message>
        <source>rwmutex</source>
        <translation>读写锁</translation>
    </message>
    <message>
        <source>single key</source>
        <translation>单键锁</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>A queue of keys &lt;name&gt;/&lt;lease id&gt;: etcdctl lock, Go&apos;s concurrency.Mutex, etcd&apos;s Lock service (jetcd, Rust etcd-client)</source>
        <translation>由键 &lt;name&gt;/&lt;租约 ID&gt; 组成的队列：etcdctl lock、Go 的 concurrency.Mutex、etcd 的 Lock 服务（jetcd、Rust etcd-client）</translation>
    </message>
    <message>
        <source>A queue of candidates &lt;name&gt;/&lt;lease id&gt;, each valued its proposal: etcdctl elect, Go&apos;s concurrency.Election, node etcd3&apos;s elections</source>
        <translation>由候选键 &lt;name&gt;/&lt;租约 ID&gt; 组成的队列，值为各自的提议：etcdctl elect、Go 的 concurrency.Election、node etcd3 的选举</translation>
    </message>
    <message>
        <source>Readers and writers &lt;name&gt;/read|write/&lt;time&gt;: etcd&apos;s contrib/recipes</source>
        <translation>读者与写者 &lt;name&gt;/read|write/&lt;时间&gt;：etcd 的 contrib/recipes</translation>
    </message>
    <message>
        <source>The key is the lock, held by its lease: python-etcd3, node etcd3&apos;s lock(), tooz, leader keys such as Patroni&apos;s</source>
        <translation>键本身就是锁，由其租约持有：python-etcd3、node etcd3 的 lock()、tooz，以及 Patroni 等的 leader 键</translation>
    </message>
    <message>
        <source>A key of no known lock recipe (no lease), shown as a lock of its own</source>
        <translation>不属于任何已知锁方式的键（无租约），单独显示为一把锁</translation>
    </message>
    <message>
        <source>Waiters watch the key and are not visible: none of them holds a key</source>
        <translation>等待者监视该键，不可见：它们都不持有键</translation>
    </message>
</context>
<context>
    <name>RecordedHistory</name>
    <message>
        <source>etcd&apos;s own history, until compacted</source>
        <translation>etcd 自身的历史（直到被压缩）</translation>
    </message>
    <message>
        <source>only a recording that was opened has spans to open</source>
        <translation>只有已打开的记录才有可打开的时段</translation>
    </message>
</context>
<context>
    <name>TerminalPasswordPrompt</name>
    <message>
        <source>give it with --password, ETCDCTL_PASSWORD or --user %1:password</source>
        <translation>请通过 --password、ETCDCTL_PASSWORD 或 --user %1:密码 给出</translation>
    </message>
    <message>
        <source>no terminal to ask the password of user %1 on; %2</source>
        <translation>没有可用来询问用户 %1 密码的终端；%2</translation>
    </message>
    <message>
        <source>cannot turn off echo on the terminal to ask the password of user %1; %2</source>
        <translation>无法关闭终端回显以询问用户 %1 的密码；%2</translation>
    </message>
    <message>
        <source>Password: </source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>no password read for user %1 (the input ended); %2</source>
        <translation>未读到用户 %1 的密码（输入已结束）；%2</translation>
    </message>
</context>
<context>
    <name>lockscope</name>
    <message>
        <source>lockscope: %1
Run &apos;lockscope --help&apos; for usage.
</source>
        <translation>lockscope：%1
运行“lockscope --help”查看用法。
</translation>
    </message>
    <message>
        <source>lockscope: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).
Run it in a desktop session, or over ssh -X; lockscopectl answers the same questions in a terminal.
</source>
        <translation>lockscope：没有可以打开窗口的显示（DISPLAY 和 WAYLAND_DISPLAY 均未设置）。
请在桌面会话中运行，或通过 ssh -X 运行；lockscopectl 可在终端中回答同样的问题。
</translation>
    </message>
</context>
<context>
    <name>lockscope::AboutDialog</name>
    <message>
        <source>About LockScope</source>
        <translation>关于 LockScope</translation>
    </message>
    <message>
        <source>&lt;h2&gt;LockScope %1&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;LockScope %1&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Shows what is inside the locks of an etcd v3 cluster, live, and lets you take and release them by hand.</source>
        <translation>实时展示 etcd v3 集群中各个锁的内部情况，并可手动获取和释放锁。</translation>
    </message>
    <message>
        <source>Qt:</source>
        <translation>Qt：</translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1（构建时为 %2）</translation>
    </message>
    <message>
        <source>gRPC:</source>
        <translation>gRPC：</translation>
    </message>
    <message>
        <source>etcd server:</source>
        <translation>etcd 服务器：</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>waiting for %1 to answer…</source>
        <translation>正在等待 %1 应答…</translation>
    </message>
    <message>
        <source>etcd %1 (%2)</source>
        <translation>etcd %1（%2）</translation>
    </message>
</context>
<context>
    <name>lockscope::AcquireDialog</name>
    <message>
        <source>Only if free now (do not queue)</source>
        <translation>仅在当前空闲时获取（不排队）</translation>
    </message>
    <message>
        <source>Acquire a lock</source>
        <translation>获取锁</translation>
    </message>
    <message>
        <source>The session lease&apos;s time to live in seconds. LockScope keeps it alive every TTL/3 until you release the lock.</source>
        <translation>会话租约的存活时间（秒）。在你释放锁之前，LockScope 每隔 TTL/3 续约一次。</translation>
    </message>
    <message>
        <source>Lock name</source>
        <translation>锁名</translation>
    </message>
    <message>
        <source>Session TTL (s)</source>
        <translation>会话 TTL（秒）</translation>
    </message>
    <message>
        <source>Acquire</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>Long session TTL</source>
        <translation>会话 TTL 过长</translation>
    </message>
    <message>
        <source>%1.

Acquire with this TTL anyway?</source>
        <translation>%1。

仍然以此 TTL 获取吗？</translation>
    </message>
    <message>
        <source>LockScope&apos;s Mutex (as etcdctl lock)</source>
        <translation>LockScope 的 Mutex（与 etcdctl lock 相同）</translation>
    </message>
    <message>
        <source>etcd&apos;s Lock service</source>
        <translation>etcd 的 Lock 服务</translation>
    </message>
    <message>
        <source>Taken by</source>
        <translation>获取方式</translation>
    </message>
    <message>
        <source>A single key (as python-etcd3, node etcd3, tooz)</source>
        <translation>单个键（与 python-etcd3、node etcd3、tooz 相同）</translation>
    </message>
    <message>
        <source>The first two queue on the same keys, in one order. With etcd&apos;s Lock service the server does the waiting; it cannot take a lock only if free. A single key is the lock itself: it excludes python-etcd3&apos;s /locks/&lt;name&gt; and node etcd3&apos;s lock(&lt;name&gt;), and its waiters hold no key.</source>
        <translation>前两种在同一组键上按同一顺序排队。使用 etcd 的 Lock 服务时由服务器负责等待，不能仅在空闲时获取锁。单个键本身就是锁：它与 python-etcd3 的 /locks/&lt;name&gt; 和 node etcd3 的 lock(&lt;name&gt;) 互斥，其等待者不持有键。</translation>
    </message>
</context>
<context>
    <name>lockscope::BlockersModel</name>
    <message>
        <source>lease %1</source>
        <translation>租约 %1</translation>
    </message>
    <message>
        <source>key %1 (no lease)</source>
        <translation>键 %1（无租约）</translation>
    </message>
    <message numerus="yes">
        <source>Deadlock: %n session(s) wait on each other</source>
        <translation>
            <numerusform>死锁：%n 个会话相互等待</numerusform>
        </translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Waits in lock</source>
        <translation>在其中等待的锁</translation>
    </message>
    <message>
        <source>Waits for key</source>
        <translation>等待的键</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>已等待</translation>
    </message>
    <message numerus="yes">
        <source>break: revoke %1 (it holds %n lock(s) others wait for)</source>
        <translation>
            <numerusform>打破：撤销 %1（它持有 %n 个他人在等待的锁）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s), %1 directly; holds %2 lock(s) others wait for</source>
        <translation>
            <numerusform>%n 个会话，其中 %1 个直接等待；持有 %2 个他人在等待的锁</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more wait(s), not listed here</source>
        <translation>
            <numerusform>另有 %n 个等待，此处未列出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lockscope::BlockersPage</name>
    <message>
        <source>Break deadlock…</source>
        <translation>打破死锁…</translation>
    </message>
    <message>
        <source>Revoke the lease named to end the selected deadlock (asks first)</source>
        <translation>撤销所指出的租约以结束所选死锁（会先询问）</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) waiting</source>
        <translation>
            <numerusform>%n 个会话在等待</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deadlock(s)</source>
        <translation>
            <numerusform>%n 个死锁</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n root blocker(s)</source>
        <translation>
            <numerusform>%n 个根阻塞者</numerusform>
        </translation>
    </message>
    <message>
        <source>Deadlock: %1 wait on each other; revoke lease %2 to break it (Blockers tab)</source>
        <translation>死锁：%1 相互等待；撤销租约 %2 即可打破（见“阻塞”标签页）</translation>
    </message>
    <message>
        <source>The deadlock that lease %1 was in has ended: there is nothing to break.</source>
        <translation>租约 %1 所在的死锁已经结束：没有需要打破的了。</translation>
    </message>
    <message numerus="yes">
        <source>Revoke lease %1 to end the deadlock of %2 sessions?

etcd deletes every key of that lease: the %n lock(s) it holds go to their next waiters, and its program finds its session lost.</source>
        <translation>
            <numerusform>撤销租约 %1 以结束这 %2 个会话的死锁？

etcd 会删除该租约的所有键：它持有的 %n 个锁将交给下一个等待者，其程序会发现会话已丢失。</numerusform>
        </translation>
    </message>
    <message>
        <source>Break deadlock</source>
        <translation>打破死锁</translation>
    </message>
    <message>
        <source>Revoke lease</source>
        <translation>撤销租约</translation>
    </message>
    <message>
        <source>Unmark</source>
        <translation>取消标记</translation>
    </message>
    <message>
        <source>A session is a lease: Go&apos;s concurrency.Session puts all of a client&apos;s locks on one, so a lease that holds one lock and waits in another is one client holding one while it waits for the other. Waiters that hold no key (single-key locks, as python-etcd3, node etcd3&apos;s lock() and tooz take them) wait invisibly and are not shown. The session selected is marked in amber on the Locks page and the Stage.</source>
        <translation>会话即租约：Go 的 concurrency.Session 把一个客户端的所有锁放在同一个租约上，所以一个租约持有一个锁又在另一个锁中等待，就是一个客户端持有一个锁同时等待另一个。不持有键的等待者（单键锁，如 python-etcd3、node etcd3 的 lock() 和 tooz 所用）的等待不可见，不会显示。所选会话在“锁”页和“舞台”上以琥珀色标记。</translation>
    </message>
    <message>
        <source>Stop marking the selected session&apos;s locks and keys on the Locks page and the Stage</source>
        <translation>不再在“锁”页和“舞台”上标记所选会话的锁和键</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) waiting: more than %1, too many to follow here every second. `lockscopectl blockers %2` looks at them once.</source>
        <translation>
            <numerusform>%n 个键在等待：超过 %1，太多了，无法在此每秒跟踪。`lockscopectl blockers %2` 可一次性分析它们。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more lock(s)</source>
        <translation>
            <numerusform>%1 及另外 %n 个锁</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lockscope::CampaignDialog</name>
    <message>
        <source>Campaign</source>
        <translation>参选</translation>
    </message>
    <message>
        <source>Campaign in an election</source>
        <translation>参加选举</translation>
    </message>
    <message>
        <source>Our value while we lead, as etcdctl elect&apos;s PROPOSAL; Proclaim changes it</source>
        <translation>我们领导期间的值，即 etcdctl elect 的 PROPOSAL；“宣告”可更改它</translation>
    </message>
    <message>
        <source>The session lease&apos;s time to live in seconds. LockScope keeps it alive until you resign.</source>
        <translation>会话租约的存活时间（秒）。在你辞任之前，LockScope 会一直为它续约。</translation>
    </message>
    <message>
        <source>Election name</source>
        <translation>选举名</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>Session TTL (s)</source>
        <translation>会话 TTL（秒）</translation>
    </message>
</context>
<context>
    <name>lockscope::ClusterPage</name>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Round trip by RPC method (right-click to export)</source>
        <translation>各 RPC 方法的往返时间（右键可导出）</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>No Lock.Lock or Election.Campaign call yet</source>
        <translation>尚无 Lock.Lock 或 Election.Campaign 调用</translation>
    </message>
    <message>
        <source>Waits on the server: etcd&apos;s Lock and Election services answer once the lock is ours or we lead</source>
        <translation>在服务器上的等待：etcd 的 Lock 与 Election 服务在我们获得锁或成为领导者时才应答</translation>
    </message>
</context>
<context>
    <name>lockscope::ClusterView</name>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Blockers</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>实验室</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>舞台</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Not connected: no password was given. Choose File → Connect… to connect.</source>
        <translation>未连接：未提供密码。请选择“文件 → 连接…”进行连接。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>No answer since %1</source>
        <translation>自 %1 起无应答</translation>
    </message>
    <message>
        <source>The locks shown are as of %1, the last word from etcd: %2</source>
        <translation>所显示的锁为 %1（etcd 最后一次应答）时的状态：%2</translation>
    </message>
    <message>
        <source>outage from %1 to %2, re-read at revision %3</source>
        <translation>中断自 %1 至 %2，已在修订号 %3 重新读取</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Sandbox failed</source>
        <translation>沙箱失败</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>no lock prefix chosen yet</source>
        <translation>尚未选择锁前缀</translation>
    </message>
    <message>
        <source>counting the keys under %1…</source>
        <translation>正在统计 %1 下的键…</translation>
    </message>
    <message>
        <source>%1 not loaded: %2 keys</source>
        <translation>未加载 %1：%2 个键</translation>
    </message>
    <message>
        <source>%1 was let go of without etcd&apos;s word: %2. Until its lease expires, our key may still hold it or keep its place in the queue.</source>
        <translation>%1 已放弃，但 etcd 未确认：%2。在其租约过期前，我们的键可能仍持有该锁，或仍在队列中占有位置。</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>Cannot reach the cluster: %1</source>
        <translation>无法访问集群：%1</translation>
    </message>
    <message>
        <source>Authentication failed for user %1: etcd refused the user name or password. Enter the password again, or choose File → Connect… to change the user or the cluster.</source>
        <translation>用户 %1 认证失败：etcd 拒绝了该用户名或密码。请重新输入密码，或选择“文件 → 连接…”更换用户或集群。</translation>
    </message>
    <message>
        <source>Authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>etcd alarm on %1: %2</source>
        <translation>%1 上的 etcd 告警：%2</translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>Not recording the locks watched: %1. The live view goes on. Free some space or make %2 writable, then connect again; or turn recording off in File → Recording settings…</source>
        <translation>未记录所监视的锁：%1。实时视图继续运行。请释放一些空间或使 %2 可写，然后重新连接；或在“文件 → 记录设置…”中关闭记录</translation>
    </message>
    <message>
        <source>Nothing recorded of this cluster yet</source>
        <translation>尚未记录此集群的任何内容</translation>
    </message>
    <message>
        <source>Connect to a cluster and choose a lock prefix first: etcd&apos;s history is read for the prefix shown.</source>
        <translation>请先连接集群并选择锁前缀：etcd 的历史按当前显示的前缀读取。</translation>
    </message>
    <message>
        <source>etcd did not say which revisions it keeps: %1</source>
        <translation>etcd 未说明它保留了哪些修订号：%1</translation>
    </message>
    <message>
        <source>Rewind to revision</source>
        <translation>回退到修订号</translation>
    </message>
    <message>
        <source>etcd keeps revisions %1 to %2, until its next compaction; it keeps no times. Replay the locks under %3 from revision:</source>
        <translation>etcd 保留修订号 %1 到 %2（直到下次压缩）；它不保留时间。从以下修订号起回放 %3 下的锁：</translation>
    </message>
    <message>
        <source>Reading etcd&apos;s history from revision %1…</source>
        <translation>正在读取 etcd 从修订号 %1 起的历史…</translation>
    </message>
    <message>
        <source>etcd&apos;s history could not be read: %1</source>
        <translation>无法读取 etcd 的历史：%1</translation>
    </message>
</context>
<context>
    <name>lockscope::ConnectionDialog</name>
    <message>
        <source>CA certificate (PEM), for TLS</source>
        <translation>CA 证书（PEM），用于 TLS</translation>
    </message>
    <message>
        <source>client certificate (PEM)</source>
        <translation>客户端证书（PEM）</translation>
    </message>
    <message>
        <source>client key (PEM)</source>
        <translation>客户端私钥（PEM）</translation>
    </message>
    <message>
        <source>Read-only: hide every action that writes</source>
        <translation>只读：隐藏所有写入操作</translation>
    </message>
    <message>
        <source>Connect to etcd</source>
        <translation>连接到 etcd</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The password is asked when connecting; it can be kept in the desktop&apos;s keyring, never in the profile</source>
        <translation>密码在连接时询问；可以保存在桌面密钥环中，绝不会保存在配置里</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation>已保存的配置</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>Certificate</source>
        <translation>证书</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Choose a PEM file</source>
        <translation>选择 PEM 文件</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>（新建）</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>10.0.0.5:2379,10.0.0.6:2379 or https://etcd:2379</source>
        <translation>10.0.0.5:2379,10.0.0.6:2379 或 https://etcd:2379</translation>
    </message>
</context>
<context>
    <name>lockscope::ConnectionStatus</name>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>using %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <source>Leader: %1</source>
        <translation>领导者：%1</translation>
    </message>
    <message>
        <source>Revision: %1</source>
        <translation>修订号：%1</translation>
    </message>
    <message>
        <source>Raft term: %1</source>
        <translation>Raft 任期：%1</translation>
    </message>
    <message>
        <source>Round trip: %1 ms</source>
        <translation>往返：%1 ms</translation>
    </message>
</context>
<context>
    <name>lockscope::DurationText</name>
    <message>
        <source>≥ %1</source>
        <translation>≥ %1</translation>
    </message>
</context>
<context>
    <name>lockscope::EndpointStatusModel</name>
    <message>
        <source>true</source>
        <translation>是</translation>
    </message>
    <message>
        <source>false</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>DB size</source>
        <translation>数据库大小</translation>
    </message>
    <message>
        <source>DB in use</source>
        <translation>数据库已用</translation>
    </message>
    <message>
        <source>Is leader</source>
        <translation>是否领导者</translation>
    </message>
    <message>
        <source>Raft term</source>
        <translation>Raft 任期</translation>
    </message>
    <message>
        <source>Raft index</source>
        <translation>Raft 索引</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订号</translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>往返时间</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>%1
(failed after %2 ms)</source>
        <translation>%1
（%2 毫秒后失败）</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
</context>
<context>
    <name>lockscope::EventLogModel</name>
    <message>
        <source>Inferred from a re-list after a gap in the watch, not seen live</source>
        <translation>从监视中断后的重新列举推断得出，并非实时看到</translation>
    </message>
    <message>
        <source>recovered</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订号</translation>
    </message>
    <message>
        <source>Waited ms</source>
        <translation>等待(毫秒)</translation>
    </message>
    <message>
        <source>Held ms</source>
        <translation>持有(毫秒)</translation>
    </message>
    <message>
        <source>Recovered</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>It began before LockScope saw the key (already there when the watch started, or during a gap in it). etcd keeps no time of creation, so this is a lower bound.</source>
        <translation>它在 LockScope 看到该键之前就已开始（监视开始时键已存在，或出现在监视中断期间）。etcd 不记录创建时间，所以这是一个下限。</translation>
    </message>
    <message>
        <source>Our own cleanup, not a force release: this window&apos;s only-if-free attempt found the lock held and deleted its own key</source>
        <translation>本窗口自己的清理，并非强制释放：本窗口的“仅在空闲时获取”尝试发现锁已被占用，于是删除了自己的键</translation>
    </message>
    <message>
        <source>data stale since %1: %2</source>
        <translation>数据自 %1 起已过时：%2</translation>
    </message>
    <message>
        <source>outage from %1 to %2, re-read at revision %3</source>
        <translation>中断自 %1 至 %2，已在修订号 %3 重新读取</translation>
    </message>
    <message>
        <source>It ended during a gap in the watch, somewhere between the last word heard from etcd and the re-read: at least the first figure (none when it may have ended at once), at most the second.</source>
        <translation>它结束于监视中断期间，介于最后一次收到 etcd 消息与重新读取之间：至少为第一个数字（可能立即结束时则无），至多为第二个数字。</translation>
    </message>
</context>
<context>
    <name>lockscope::FleetModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Longest wait</source>
        <translation>最长等待</translation>
    </message>
    <message>
        <source>Expired (1 h)</source>
        <translation>过期（1 小时）</translation>
    </message>
    <message>
        <source>Lost (1 h)</source>
        <translation>丢失（1 小时）</translation>
    </message>
    <message>
        <source>Deadlocks</source>
        <translation>死锁</translation>
    </message>
    <message>
        <source>Slowest member</source>
        <translation>最慢成员</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>lockscope::FleetPage</name>
    <message>
        <source>Every cluster open in this window. Click one to open it.</source>
        <translation>此窗口中打开的所有集群。点击一个即可打开。</translation>
    </message>
</context>
<context>
    <name>lockscope::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;How etcd locks work</source>
        <translation>etcd 锁的工作原理(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About LockScope</source>
        <translation>关于 LockScope(&amp;A)</translation>
    </message>
    <message>
        <source>How etcd locks work</source>
        <translation>etcd 锁的工作原理</translation>
    </message>
</context>
<context>
    <name>lockscope::HistoryReplayWindow</name>
    <message>
        <source>Recorded history: %1</source>
        <translation>已记录的历史：%1</translation>
    </message>
    <message>
        <source>Reading the recording…</source>
        <translation>正在读取记录…</translation>
    </message>
    <message>
        <source>◀</source>
        <translation>◀</translation>
    </message>
    <message>
        <source>The event before</source>
        <translation>上一个事件</translation>
    </message>
    <message>
        <source>▶</source>
        <translation>▶</translation>
    </message>
    <message>
        <source>The event after</source>
        <translation>下一个事件</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Next of this lock</source>
        <translation>此锁的下一个</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <source>Longest wait</source>
        <translation>最长等待</translation>
    </message>
    <message>
        <source>No wait was recorded.</source>
        <translation>没有记录到等待。</translation>
    </message>
    <message>
        <source>The recording holds no event yet.</source>
        <translation>记录中还没有事件。</translation>
    </message>
    <message>
        <source>This recording cannot be read: %1</source>
        <translation>无法读取此记录：%1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>a gap in the recording: the locks were re-read</source>
        <translation>记录中的中断：锁已重新读取</translation>
    </message>
    <message>
        <source>%1 of %2 · revision %3 · %4 · %5</source>
        <translation>第 %1 / %2 个 · 修订号 %3 · %4 · %5</translation>
    </message>
    <message>
        <source> · in a gap (%1): the locks as last seen before it</source>
        <translation> · 处于中断中（%1）：显示中断前最后看到的锁</translation>
    </message>
    <message>
        <source>No such event after this one.</source>
        <translation>此后没有这样的事件。</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>etcd&apos;s history from revision %1: %2</source>
        <translation>etcd 从修订号 %1 起的历史：%2</translation>
    </message>
    <message>
        <source>the start: the locks as first read</source>
        <translation>开始：首次读取时的锁</translation>
    </message>
    <message>
        <source>time not kept by etcd</source>
        <translation>etcd 不保留时间</translation>
    </message>
    <message>
        <source>Mark start</source>
        <translation>标记起点</translation>
    </message>
    <message>
        <source>The span a report covers begins at the event shown</source>
        <translation>报告所覆盖的区间从当前显示的事件开始</translation>
    </message>
    <message>
        <source>Report…</source>
        <translation>报告…</translation>
    </message>
    <message>
        <source>Per lock, from the marked event (or the first) to the one shown: acquisitions, hold and wait times, expiries, the longest waits</source>
        <translation>按锁统计，从标记的事件（或第一个事件）到当前显示的事件：获取次数、持有和等待时间、过期，以及最长的等待</translation>
    </message>
    <message>
        <source> · a report starts at event %1</source>
        <translation> · 报告从第 %1 个事件开始</translation>
    </message>
    <message>
        <source>revisions %1 to %2, %3 to %4</source>
        <translation>修订号 %1 到 %2，%3 到 %4</translation>
    </message>
    <message>
        <source>revisions %1 to %2</source>
        <translation>修订号 %1 到 %2</translation>
    </message>
    <message>
        <source>This store holds the histories of several prefixes or clusters: choose one.</source>
        <translation>此存储中有多个前缀或集群的历史：请选择一个。</translation>
    </message>
    <message>
        <source>Which history?</source>
        <translation>哪一段历史？</translation>
    </message>
    <message>
        <source>The locks under:</source>
        <translation>以下前缀下的锁：</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 的 %1</translation>
    </message>
    <message>
        <source>⚠ anomaly appeared: %1 on %2 (%3)</source>
        <translation>⚠ 出现异常：%2 上的%1（%3）</translation>
    </message>
    <message>
        <source>anomaly went: %1 on %2 (%3)</source>
        <translation>异常消失：%2 上的%1（%3）</translation>
    </message>
    <message>
        <source>anomaly appeared</source>
        <translation>出现异常</translation>
    </message>
    <message>
        <source> Only the span asked for is read (from the checkpoint before it).</source>
        <translation> 只读取所请求的区间（从其之前的检查点开始）。</translation>
    </message>
    <message>
        <source>the checkpoint the span starts from: the locks then</source>
        <translation>区间起始的检查点：当时的锁</translation>
    </message>
    <message>
        <source>Span…</source>
        <translation>时段…</translation>
    </message>
    <message>
        <source> Too long to open at once: only the part from %1 on is read (the recording begins %2). Span… opens another part.</source>
        <translation> 记录太长，无法一次打开：只读取了 %1 之后的部分（记录开始于 %2）。“时段…”可打开另一部分。</translation>
    </message>
    <message>
        <source>As at %1 · revision %2 · read by its checkpoint&apos;s interval alone; the span is being read</source>
        <translation>%1 时的状态 · 修订版本 %2 · 仅按其检查点区间读取；正在读取该时段</translation>
    </message>
    <message>
        <source>Recorded, not live: the locks under %1 of %2, in %3.</source>
        <translation>已记录，非实时：%2 上 %1 下的锁，位于 %3。</translation>
    </message>
    <message numerus="yes">
        <source> %n event(s),</source>
        <translation>
            <numerusform> %n 个事件，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> %n gap(s)</source>
        <translation>
            <numerusform> %n 个间隙</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n anomaly change(s); nothing here acts on a cluster.</source>
        <translation>
            <numerusform>，以及 %n 次异常变化；此处的任何操作都不会作用于集群。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>舞台</translation>
    </message>
    <message>
        <source>Blockers</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Open another part of the recording, between two times or revisions</source>
        <translation>打开记录的另一部分（两个时间或修订版本之间）</translation>
    </message>
    <message>
        <source> Too long to open at once: only the part up to %1 is read. Span… opens another part.</source>
        <translation> 记录太长，无法一次打开：只读取了 %1 之前的部分。“时段…”可打开另一部分。</translation>
    </message>
    <message>
        <source>This part of the recording cannot be read: %1. Span… opens another.</source>
        <translation>无法读取记录的这一部分：%1。“时段…”可打开另一部分。</translation>
    </message>
    <message>
        <source>Holders over time</source>
        <translation>持有者时间线</translation>
    </message>
    <message>
        <source>etcd keeps no times: its history has no timeline of holds.</source>
        <translation>etcd 不保存时间：其历史没有持有时间线。</translation>
    </message>
    <message>
        <source>Holders over time, a lane per lock. The black line is the moment shown: click the lanes or drag the line to go to a time; drag elsewhere or scroll to move and zoom.</source>
        <translation>持有者时间线，每个锁一条泳道。黑线是当前显示的时刻：点击泳道或拖动黑线可跳到某一时间；在其他位置拖动或滚动可平移和缩放。</translation>
    </message>
    <message numerus="yes">
        <source> %n more lock(s) held in this part have no lane.</source>
        <translation>
            <numerusform>这一部分中另有 %n 个被持有的锁没有泳道。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> %n hold(s) from %1 on are not drawn.</source>
        <translation>
            <numerusform>从 %1 起的 %n 次持有未绘制。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lockscope::HistoryReportDialog</name>
    <message>
        <source>No lock event in this span.</source>
        <translation>此区间内没有锁事件。</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Acquisitions</source>
        <translation>获取次数</translation>
    </message>
    <message>
        <source>Held, ms</source>
        <translation>持有（毫秒）</translation>
    </message>
    <message>
        <source>Waited, ms</source>
        <translation>等待（毫秒）</translation>
    </message>
    <message>
        <source>Expiries</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>Force releases</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>Longest waits</source>
        <translation>最长的等待</translation>
    </message>
    <message>
        <source>%1: %2 waited %3%4 ms, acquired %5 (revision %6), behind %7</source>
        <translation>%1：%2 等待了 %3%4 毫秒，于 %5（修订号 %6）获取，排在 %7 之后</translation>
    </message>
    <message>
        <source>nobody seen</source>
        <translation>未见到任何持有者</translation>
    </message>
    <message numerus="yes">
        <source>%n gap(s) in this span: times across them are bounds, left out of the percentiles.</source>
        <translation>
            <numerusform>此区间内有 %n 次中断：跨越中断的时间只是界限，不计入百分位数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>%1 could not be written: choose a folder you may write in</source>
        <translation>无法写入 %1：请选择一个可写的文件夹</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
</context>
<context>
    <name>lockscope::HistorySpanDialog</name>
    <message>
        <source>Which part of the recording?</source>
        <translation>记录的哪一部分？</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>从：</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>到：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is neither a time like 2026-11-27T03:10:00Z nor a revision.</source>
        <translation>“%1”既不是形如 2026-11-27T03:10:00Z 的时间，也不是修订版本。</translation>
    </message>
    <message>
        <source>From comes after To: nothing lies between them.</source>
        <translation>“从”晚于“到”：两者之间没有任何内容。</translation>
    </message>
    <message>
        <source>Each end a time (ISO 8601, UTC unless it says otherwise) or a revision; an empty end is open. The recording runs from %1 to %2. At most %L3 events, gaps and anomaly changes are read: a longer part is read from its start on as far as they go (without a start, back from its end).</source>
        <translation>每一端可以是时间（ISO 8601，未注明时区时为 UTC）或修订版本；留空表示不限。记录的范围是 %1 至 %2。最多读取 %L3 个事件、间隙和异常变化：更长的部分从其起点开始读取，直到达到上限（没有起点时，从终点往回读取）。</translation>
    </message>
</context>
<context>
    <name>lockscope::HolderCard</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation>防护令牌</translation>
    </message>
    <message>
        <source>Held for</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>No lock selected</source>
        <translation>未选择锁</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>not looked up yet</source>
        <translation>尚未查询</translation>
    </message>
    <message>
        <source>lease gone</source>
        <translation>租约已不存在</translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation>%1 s / %2 s</translation>
    </message>
    <message>
        <source>Leader</source>
        <translation>领导者</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订号</translation>
    </message>
    <message>
        <source>Leading for</source>
        <translation>已领导</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>no lease: held until its key is deleted</source>
        <translation>无租约：持有直到其键被删除</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>锁方式</translation>
    </message>
    <message>
        <source>stale: not looked up within its TTL</source>
        <translation>已过时：未在其 TTL 内查询</translation>
    </message>
    <message>
        <source>stale: etcd is not answering</source>
        <translation>已过时：etcd 未响应</translation>
    </message>
</context>
<context>
    <name>lockscope::HolderTimeline</name>
    <message>
        <source>Two holders at once, %1 to %2</source>
        <translation>同时有两个持有者，%1 至 %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Lock: %1</source>
        <translation>锁：%1</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>键：%1</translation>
    </message>
    <message>
        <source>Lease: %1</source>
        <translation>租约：%1</translation>
    </message>
    <message>
        <source>Fencing token: %1</source>
        <translation>防护令牌：%1</translation>
    </message>
    <message>
        <source>Start: unknown, held since before LockScope started watching (first seen %1)</source>
        <translation>开始：未知，在 LockScope 开始监视之前已持有（首次看到于 %1）</translation>
    </message>
    <message>
        <source>Start: %1</source>
        <translation>开始：%1</translation>
    </message>
    <message>
        <source>End: still held</source>
        <translation>结束：仍在持有</translation>
    </message>
    <message>
        <source>End: %1</source>
        <translation>结束：%1</translation>
    </message>
    <message>
        <source>Duration: at least %1</source>
        <translation>时长：至少 %1</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>时长：%1</translation>
    </message>
    <message>
        <source>End: %1 (%2)</source>
        <translation>结束：%1（%2）</translation>
    </message>
</context>
<context>
    <name>lockscope::LabPage</name>
    <message>
        <source> workers</source>
        <translation> 个工作者</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Chance that a holder&apos;s keepalives stop while it holds on past its TTL: a split brain unless writes are fenced</source>
        <translation>持有者在持有锁期间停止续约、超过 TTL 仍继续持有的概率：除非写入受防护，否则会出现脑裂</translation>
    </message>
    <message>
        <source>Chance that a holder vanishes without releasing; its key stays until the lease expires</source>
        <translation>持有者不释放锁就消失的概率；它的键一直保留到租约过期</translation>
    </message>
    <message>
        <source>Chance that a holder keeps the lock five times as long</source>
        <translation>持有者把锁持有五倍时长的概率</translation>
    </message>
    <message>
        <source>Fence resource writes with the lock&apos;s fencing token</source>
        <translation>用锁的防护令牌保护资源写入</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Comma-separated lock names the workers contend on</source>
        <translation>工作者争用的锁名，以逗号分隔</translation>
    </message>
    <message>
        <source>Each worker acquires once, then stops</source>
        <translation>每个工作者获取一次后停止</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作者</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Hold</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>Think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Session TTL</source>
        <translation>会话 TTL</translation>
    </message>
    <message>
        <source>Stall</source>
        <translation>停顿</translation>
    </message>
    <message>
        <source>Crash</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <source>Slow</source>
        <translation>缓慢</translation>
    </message>
    <message>
        <source>Contention lab</source>
        <translation>争用实验室</translation>
    </message>
    <message>
        <source> (longest %1 ms, workers %2 and %3 on %4)</source>
        <translation>（最长 %1 ms，工作者 %2 和 %3，锁 %4）</translation>
    </message>
    <message>
        <source>lock names: %1</source>
        <translation>锁名：%1</translation>
    </message>
    <message>
        <source>%1 acquisitions (%2/s now)
chaos: %3 stalls, %4 crashes, %5 slow holds
resource writes: %6 applied, %7 rejected by fencing, %8 landed without the lock
split brains found: %9 overlapping pairs of holds, from %10 holders that held on after another took over%11</source>
        <translation>%1 次获取（当前 %2 次/秒）
混沌：%3 次停顿，%4 次崩溃，%5 次缓慢持有
资源写入：%6 次生效，%7 次被防护拒绝，%8 次在未持锁时写入
发现脑裂：%9 对重叠的持有，来自 %10 个在他人接手后仍自认持有的持有者%11</translation>
    </message>
    <message>
        <source>Deadlock: each worker also takes the next lock</source>
        <translation>死锁：每个工作者还会获取下一个锁</translation>
    </message>
    <message>
        <source>Each worker holds its lock, then takes the next name in Locks on the same session, as a program holding one lock while it takes another. With a worker per lock the sessions wait on each other in a ring that no TTL ends (lockscopectl blockers names it).</source>
        <translation>每个工作者持有自己的锁，然后在同一会话上获取“锁”中的下一个名称，就像程序持有一个锁时再获取另一个。每个锁一个工作者时，会话会形成互相等待的环，任何 TTL 都无法结束它（lockscopectl blockers 会指出它）。</translation>
    </message>
</context>
<context>
    <name>lockscope::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>跟随系统语言(&amp;S)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>LockScope speaks the chosen language from its next start.</source>
        <translation>LockScope 将在下次启动时使用所选语言。</translation>
    </message>
</context>
<context>
    <name>lockscope::LatencyPlot</name>
    <message>
        <source>No answers yet</source>
        <translation>尚无应答</translation>
    </message>
    <message>
        <source>round trip</source>
        <translation>往返</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message>
        <source>%1 (s)</source>
        <translation>%1 (s)</translation>
    </message>
</context>
<context>
    <name>lockscope::LockActions</name>
    <message>
        <source>this window is already waiting for or holding it</source>
        <translation>本窗口已在等待或持有该锁</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 is held by someone else</source>
        <translation>%1 被他人持有</translation>
    </message>
    <message>
        <source>retrying in %1 s (attempt %2): %3</source>
        <translation>%1 秒后重试（第 %2 次）：%3</translation>
    </message>
    <message>
        <source>lease revoked</source>
        <translation>租约已撤销</translation>
    </message>
    <message>
        <source>key deleted</source>
        <translation>键已删除</translation>
    </message>
    <message>
        <source>not deleted: the key changed since you looked</source>
        <translation>未删除：自你查看之后该键已发生变化</translation>
    </message>
    <message>
        <source>etcd&apos;s Lock service has no try-lock: choose our Mutex to take a lock only if it is free</source>
        <translation>etcd 的 Lock 服务没有 try-lock：要仅在空闲时获取锁，请选择我们的 Mutex</translation>
    </message>
    <message>
        <source>this window does not lead that election</source>
        <translation>本窗口并未领导该选举</translation>
    </message>
    <message>
        <source>we no longer lead it</source>
        <translation>我们已不再领导它</translation>
    </message>
    <message>
        <source>not confirmed: %1; asking etcd again in %2 s (attempt %3); without keepalives the lease also expires within its TTL (%4 s)</source>
        <translation>未确认：%1；%2 秒后再次询问 etcd（第 %3 次尝试）；不再续约，租约也会在其 TTL（%4 秒）内过期</translation>
    </message>
    <message>
        <source>lost while its keepalive was paused, as asked: %1</source>
        <translation>按要求暂停续约期间丢失：%1</translation>
    </message>
</context>
<context>
    <name>lockscope::LockActionsBar</name>
    <message>
        <source>Copied %1</source>
        <translation>已复制 %1</translation>
    </message>
    <message>
        <source>Trying %1…</source>
        <translation>正在尝试 %1…</translation>
    </message>
    <message>
        <source>Waiting for %1… (Release cancels)</source>
        <translation>正在等待 %1…（“释放”可取消）</translation>
    </message>
    <message>
        <source>Acquired %1 (fencing token %2)</source>
        <translation>已获取 %1（防护令牌 %2）</translation>
    </message>
    <message>
        <source>Did not acquire %1: %2</source>
        <translation>未获取 %1：%2</translation>
    </message>
    <message>
        <source>Waiting for %1: retrying in %2 s (attempt %3): %4</source>
        <translation>正在等待 %1：%2 秒后重试（第 %3 次）：%4</translation>
    </message>
    <message>
        <source>Released %1</source>
        <translation>已释放 %1</translation>
    </message>
    <message>
        <source>Lost the lock %1: %2</source>
        <translation>失去了锁 %1：%2</translation>
    </message>
    <message>
        <source>Lost the lock %1 (see Problems)</source>
        <translation>失去了锁 %1（见“问题”）</translation>
    </message>
    <message>
        <source>Force release of %1: %2</source>
        <translation>强制释放 %1：%2</translation>
    </message>
    <message>
        <source>Acquire…</source>
        <translation>获取…</translation>
    </message>
    <message>
        <source>Take a lock yourself, waiting in the queue or only if free (Ctrl+Shift+A)</source>
        <translation>自己获取一个锁，可排队等待或仅在空闲时获取（Ctrl+Shift+A）</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>Release (or stop waiting for) the selected lock that this window took (Ctrl+Shift+R)</source>
        <translation>释放（或停止等待）本窗口获取的所选锁（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>Pause keepalive</source>
        <translation>暂停续约</translation>
    </message>
    <message>
        <source>Stop renewing the lease of a lock we hold: it expires and the next waiter takes over, live</source>
        <translation>停止为我们持有的锁续约：租约过期，下一个等待者实时接手</translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation>强制释放…</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>复制键</translation>
    </message>
    <message>
        <source>(select a lock that has a holder, or a row of its queue)</source>
        <translation>（请选择一个有持有者的锁，或其队列中的一行）</translation>
    </message>
    <message>
        <source>Take a key away from whoever holds it %1</source>
        <translation>从当前持有者手中拿走一个键 %1</translation>
    </message>
    <message>
        <source>Copy a lock key %1</source>
        <translation>复制一个锁键 %1</translation>
    </message>
    <message>
        <source>the holder&apos;s key %1</source>
        <translation>持有者的键 %1</translation>
    </message>
    <message>
        <source>the key %1 (waiter %2 in the queue)</source>
        <translation>键 %1（队列中的第 %2 个等待者）</translation>
    </message>
    <message>
        <source>Force release %1: revoke its lease, or delete it when it has none (asks first; select a queue row to pick another key)</source>
        <translation>强制释放 %1：撤销其租约，没有租约时删除该键（会先询问；选择队列中的一行可选其他键）</translation>
    </message>
    <message>
        <source>Copy %1</source>
        <translation>复制 %1</translation>
    </message>
    <message>
        <source>Cancel wait</source>
        <translation>取消等待</translation>
    </message>
    <message>
        <source>Force release</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>Revoke lease</source>
        <translation>撤销租约</translation>
    </message>
    <message>
        <source>Delete key</source>
        <translation>删除键</translation>
    </message>
    <message>
        <source>Campaigning in %1… (Resign withdraws)</source>
        <translation>正在 %1 中参选…（“辞任”可退出）</translation>
    </message>
    <message>
        <source>Proclaimed &quot;%1&quot; in %2</source>
        <translation>已在 %2 中宣告“%1”</translation>
    </message>
    <message>
        <source>Did not proclaim in %1: %2</source>
        <translation>未在 %1 中宣告：%2</translation>
    </message>
    <message>
        <source>Campaign…</source>
        <translation>参选…</translation>
    </message>
    <message>
        <source>Become a candidate in an election with a proposal, as etcdctl elect does: we lead once every older candidate is gone</source>
        <translation>像 etcdctl elect 一样带着提议成为选举的候选人：所有更早的候选人离开后我们即成为领导者</translation>
    </message>
    <message>
        <source>Proclaim…</source>
        <translation>宣告…</translation>
    </message>
    <message>
        <source>Put a new proposal as our value in the selected election while we lead it</source>
        <translation>在我们领导所选选举期间，把新的提议写为我们的值</translation>
    </message>
    <message>
        <source>Resign</source>
        <translation>辞任</translation>
    </message>
    <message>
        <source>Give up our leadership (or candidacy) in the selected election: the next candidate leads</source>
        <translation>放弃我们在所选选举中的领导地位（或候选资格）：由下一个候选人领导</translation>
    </message>
    <message>
        <source>Withdraw candidacy</source>
        <translation>退出参选</translation>
    </message>
    <message>
        <source>Proclaim</source>
        <translation>宣告</translation>
    </message>
    <message>
        <source>New proposal for %1:</source>
        <translation>%1 的新提议：</translation>
    </message>
    <message>
        <source>The release of %1 is not confirmed: %2. Our key may still hold the lock; LockScope asks etcd again until it is gone</source>
        <translation>%1 的释放未确认：%2。我们的键可能仍持有该锁；LockScope 会再次询问 etcd，直到它被删除</translation>
    </message>
    <message>
        <source>Release of %1 not confirmed (see Problems)</source>
        <translation>%1 的释放未确认（见“问题”）</translation>
    </message>
    <message>
        <source>Could not acquire %1: %2</source>
        <translation>无法获取 %1：%2</translation>
    </message>
    <message>
        <source>Elected in %1 (revision %2)</source>
        <translation>在 %1 中当选（修订版本 %2）</translation>
    </message>
    <message>
        <source>Resigned from %1</source>
        <translation>已辞去 %1 的领导者</translation>
    </message>
</context>
<context>
    <name>lockscope::LockListModel</name>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待数</translation>
    </message>
    <message>
        <source>Holder TTL</source>
        <translation>持有者 TTL</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Ours</source>
        <translation>我们的</translation>
    </message>
    <message>
        <source>Leader %1, proposing %2</source>
        <translation>领导者 %1，提议 %2</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>⚠ %1 +%2</source>
        <translation>⚠ %1 +%2</translation>
    </message>
    <message>
        <source>no lease</source>
        <translation>无租约</translation>
    </message>
    <message>
        <source>wrong lease</source>
        <translation>租约不符</translation>
    </message>
    <message>
        <source>odd key</source>
        <translation>异常键</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>%1 readers share the lock; the first is %2</source>
        <translation>%1 个读者共享该锁；第一个是 %2</translation>
    </message>
    <message>
        <source>not visible</source>
        <translation>不可见</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>锁方式</translation>
    </message>
</context>
<context>
    <name>lockscope::LockPrefixDialog</name>
    <message>
        <source>Lock prefix</source>
        <translation>锁前缀</translation>
    </message>
    <message>
        <source>Lock &amp;prefix:</source>
        <translation>锁前缀(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Watch this prefix</source>
        <translation>监视此前缀(&amp;W)</translation>
    </message>
    <message>
        <source>Which key prefix holds the locks of %1? LockScope watches only the keys under it. Applications name their locks under a prefix of their own (etcdctl lock and the Go client use the lock&apos;s name, for example /locks/deploy/); &quot;/&quot; is every key of the cluster, which on a Kubernetes etcd is millions of keys under /registry/.</source>
        <translation>%1 的锁在哪个键前缀下？LockScope 只监视该前缀下的键。应用会把锁放在自己的前缀下（etcdctl lock 和 Go 客户端使用锁的名称，例如 /locks/deploy/）；“/” 表示集群的全部键，在 Kubernetes 的 etcd 上就是 /registry/ 下的数百万个键。</translation>
    </message>
    <message>
        <source>%1 holds %2 keys, and about %3 of them are not lock keys (&lt;name&gt;/&lt;lease id in hex&gt;). Loading them all takes memory and time on this computer and on the cluster. Type a longer prefix that holds only the locks, or load them all anyway.</source>
        <translation>%1 下有 %2 个键，其中约 %3 个不是锁键（‹名称›/‹十六进制租约 ID›）。全部加载会占用本机和集群的内存与时间。请输入只包含锁的更长前缀，或者仍然全部加载。</translation>
    </message>
    <message>
        <source>&amp;Watch the narrower prefix</source>
        <translation>监视更窄的前缀(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Load all anyway</source>
        <translation>仍然全部加载(&amp;L)</translation>
    </message>
</context>
<context>
    <name>lockscope::LockQueueModel</name>
    <message>
        <source>Fencing token: the create revision of this key</source>
        <translation>防护令牌：此键的创建修订号</translation>
    </message>
    <message>
        <source>holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>held %1</source>
        <translation>已持有 %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Create rev</source>
        <translation>创建修订号</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Waiting for</source>
        <translation>已等待</translation>
    </message>
    <message>
        <source>Waits on</source>
        <translation>等待对象</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>授予</translation>
    </message>
    <message>
        <source>It already led the election when LockScope first saw it, at %1. etcd keeps no time of creation, so it has led at least this long.</source>
        <translation>LockScope 于 %1 首次看到它时，它已经是选举的领导者。etcd 不记录创建时间，所以它至少已领导这么久。</translation>
    </message>
    <message>
        <source>It was already a candidate when LockScope first saw it, at %1. etcd keeps no time of creation, so it has been one at least this long.</source>
        <translation>LockScope 于 %1 首次看到它时，它已经是候选人。etcd 不记录创建时间，所以它至少已是候选人这么久。</translation>
    </message>
    <message>
        <source>It already held the lock when LockScope first saw it, at %1. etcd keeps no time of creation, so it has held it at least this long.</source>
        <translation>LockScope 于 %1 首次看到它时，它已经持有该锁。etcd 不记录创建时间，所以它至少已持有这么久。</translation>
    </message>
    <message>
        <source>It was already waiting when LockScope first saw it, at %1. etcd keeps no time of creation, so it has waited at least this long.</source>
        <translation>LockScope 于 %1 首次看到它时，它已经在等待。etcd 不记录创建时间，所以它至少已等待这么久。</translation>
    </message>
    <message>
        <source>The create revision of this key: the lowest leads</source>
        <translation>该键的创建修订号：最小者为领导者</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>领导者</translation>
    </message>
    <message>
        <source>leading %1</source>
        <translation>已领导 %1</translation>
    </message>
    <message>
        <source>Since the key appeared, or acquired the lock. &quot;≥&quot;: it began before LockScope saw it, so it has waited or held at least this long</source>
        <translation>自键出现或获得锁以来的时间。“≥”：它在 LockScope 看到之前就已开始，所以至少已等待或持有这么久</translation>
    </message>
    <message>
        <source>Candidate for</source>
        <translation>已参选</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读</translation>
    </message>
    <message>
        <source>write</source>
        <translation>写</translation>
    </message>
    <message>
        <source>holder, %1</source>
        <translation>持有者，%1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>锁方式</translation>
    </message>
    <message>
        <source>%1 (ours)</source>
        <translation>%1（本窗口的）</translation>
    </message>
</context>
<context>
    <name>lockscope::LockWatch</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>loading the locks under %1</source>
        <translation>正在加载 %1 下的锁</translation>
    </message>
    <message>
        <source>no lock prefix chosen yet</source>
        <translation>尚未选择锁前缀</translation>
    </message>
    <message>
        <source>reconnecting: %1</source>
        <translation>正在重连：%1</translation>
    </message>
    <message>
        <source>stale since %1 — %2</source>
        <translation>自 %1 起已过时 — %2</translation>
    </message>
</context>
<context>
    <name>lockscope::LocksPage</name>
    <message>
        <source>Filter locks by name (Ctrl+F)</source>
        <translation>按名称筛选锁（Ctrl+F）</translation>
    </message>
    <message>
        <source>Filter events</source>
        <translation>筛选事件</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Holder and queue</source>
        <translation>持有者与等待队列</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Lock events</source>
        <translation>锁事件</translation>
    </message>
    <message>
        <source>not connected: there is no event log to export</source>
        <translation>未连接：没有可导出的事件日志</translation>
    </message>
    <message>
        <source>Export event log</source>
        <translation>导出事件日志</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON array of watch --json objects (*.json)</source>
        <translation>CSV (*.csv);;watch --json 对象组成的 JSON 数组 (*.json)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Select a lock to see its holder and queue</source>
        <translation>选择一个锁以查看其持有者和等待队列</translation>
    </message>
    <message>
        <source>Nobody holds %1</source>
        <translation>没有人持有 %1</translation>
    </message>
    <message>
        <source>⚠ %1 +%2</source>
        <translation>⚠ %1 +%2</translation>
    </message>
    <message>
        <source>wrong lease</source>
        <translation>租约不符</translation>
    </message>
    <message>
        <source>held %1</source>
        <translation>已持有 %1</translation>
    </message>
    <message>
        <source>Leader and candidates</source>
        <translation>领导者与候选人</translation>
    </message>
    <message>
        <source>Readers, writers and queue</source>
        <translation>读者、写者与等待队列</translation>
    </message>
    <message>
        <source>Reading the locks from etcd: %L1 of %L2 keys</source>
        <translation>正在从 etcd 读取锁：%L1 / %L2 个键</translation>
    </message>
    <message>
        <source>Listing the locks: %L1 of %L2</source>
        <translation>正在列出锁：%L1 / %L2</translation>
    </message>
    <message>
        <source>Holder (waiters watch the key and are not visible)</source>
        <translation>持有者（等待者监视该键，不可见）</translation>
    </message>
    <message>
        <source>The filter &quot;%1&quot; shows %2 of the %3 events.</source>
        <translation>筛选条件“%1”显示了 %3 个事件中的 %2 个。</translation>
    </message>
    <message>
        <source>Export the %1 shown</source>
        <translation>导出显示的 %1 个</translation>
    </message>
    <message>
        <source>Export all %1</source>
        <translation>导出全部 %1 个</translation>
    </message>
</context>
<context>
    <name>lockscope::MainWindow</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Export event log…</source>
        <translation>导出事件日志(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Lock</source>
        <translation>锁(&amp;L)</translation>
    </message>
    <message>
        <source>Releasing our locks before closing…</source>
        <translation>正在释放我们的锁，然后关闭…</translation>
    </message>
    <message>
        <source>Starting sandbox etcd…</source>
        <translation>正在启动沙箱 etcd…</translation>
    </message>
    <message>
        <source>LockScope — %1</source>
        <translation>LockScope — %1</translation>
    </message>
    <message>
        <source>Open &amp;history…</source>
        <translation>打开历史(&amp;H)…</translation>
    </message>
    <message>
        <source>Open a recorded lock history</source>
        <translation>打开已记录的锁历史</translation>
    </message>
    <message>
        <source>Lock histories (*.db *.sqlite);;All files (*)</source>
        <translation>锁历史 (*.db *.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open this cluster&apos;s histor&amp;y</source>
        <translation>打开此集群的历史记录(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Recording settings…</source>
        <translation>记录设置(&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;wind to revision…</source>
        <translation>回退到修订号(&amp;W)…</translation>
    </message>
    <message>
        <source>Fleet overview</source>
        <translation>集群总览</translation>
    </message>
    <message>
        <source>Clo&amp;se this cluster</source>
        <translation>关闭此集群(&amp;S)</translation>
    </message>
    <message>
        <source>%1 was open last time and is not any more: %2</source>
        <translation>%1 上次是打开的，现在无法打开：%2</translation>
    </message>
    <message>
        <source>no such profile</source>
        <translation>没有这个连接配置</translation>
    </message>
    <message>
        <source> · revision %1</source>
        <translation> · 修订号 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s)</source>
        <translation>
            <numerusform>%n 个锁</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting</source>
        <translation>
            <numerusform>%n 个等待</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>Leader: %1</source>
        <translation>领导者：%1</translation>
    </message>
    <message numerus="yes">
        <source>(%n cluster(s) with problems)</source>
        <translation>
            <numerusform>（%n 个集群有问题）</numerusform>
        </translation>
    </message>
    <message>
        <source>Open the cluster to close first: in the sidebar or the fleet overview</source>
        <translation>请先打开要关闭的集群：在侧栏或集群总览中</translation>
    </message>
    <message>
        <source>the cluster was closed</source>
        <translation>该集群已关闭</translation>
    </message>
</context>
<context>
    <name>lockscope::MetricsPage</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>leader</source>
        <translation>领导者</translation>
    </message>
    <message>
        <source>follower</source>
        <translation>跟随者</translation>
    </message>
    <message>
        <source>no leader</source>
        <translation>无领导者</translation>
    </message>
    <message>
        <source>etcd&apos;s own metrics, read from each member&apos;s /metrics.</source>
        <translation>etcd 自身的指标，读取自各成员的 /metrics。</translation>
    </message>
    <message>
        <source>Member</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Leader changes</source>
        <translation>领导者变更</translation>
    </message>
    <message>
        <source>Leases expired</source>
        <translation>过期租约</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订号</translation>
    </message>
    <message>
        <source>Compacted</source>
        <translation>已压缩</translation>
    </message>
    <message>
        <source>Database of quota</source>
        <translation>数据库配额占用</translation>
    </message>
    <message>
        <source>Slow watchers</source>
        <translation>慢监视者</translation>
    </message>
    <message>
        <source>Pending events</source>
        <translation>待处理事件</translation>
    </message>
    <message>
        <source>Proposals pending</source>
        <translation>待处理提案</translation>
    </message>
    <message>
        <source>Proposals failed</source>
        <translation>失败提案</translation>
    </message>
    <message>
        <source>WAL fsync p99</source>
        <translation>WAL fsync p99</translation>
    </message>
    <message>
        <source>Commit p99</source>
        <translation>提交 p99</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>读取时间</translation>
    </message>
    <message>
        <source>etcd&apos;s etcd_debugging_mvcc_pending_events_total. etcd 3.4 counts every event a filtered watch drops as pending and never takes it back, and lock waiters (Go&apos;s, etcdctl&apos;s and ours) watch without PUT events: so it climbs with lock traffic on the member they watch. Read a jump, not the level.</source>
        <translation>etcd 的 etcd_debugging_mvcc_pending_events_total。etcd 3.4 把过滤型监视丢弃的每个事件都计为待处理且从不减回，而锁的等待者（Go 的、etcdctl 的以及我们的）监视时会过滤掉 PUT 事件：所以它会随着所监视成员上的锁流量不断攀升。请看跳变，而不是绝对值。</translation>
    </message>
    <message>
        <source>count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <source>milliseconds</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Leases (the leader&apos;s counts)</source>
        <translation>租约（领导者的计数）</translation>
    </message>
    <message>
        <source>Watchers and proposals (all members)</source>
        <translation>监视者与提案（全部成员）</translation>
    </message>
    <message>
        <source>Disk latency (slowest member)</source>
        <translation>磁盘延迟（最慢的成员）</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>etcd&apos;s own metrics, read from each member&apos;s /metrics every %1 s.</source>
        <translation>etcd 自身的指标，每 %1 秒读取自各成员的 /metrics。</translation>
    </message>
    <message>
        <source>Not served by this etcd: %1</source>
        <translation>此 etcd 不提供：%1</translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation>未读取：%1</translation>
    </message>
    <message>
        <source>not answering</source>
        <translation>无应答</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 / %2 (%3%)</translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>members without a leader</source>
        <translation>无领导者的成员</translation>
    </message>
    <message>
        <source>members not answering</source>
        <translation>无应答的成员</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>granted</source>
        <translation>授予</translation>
    </message>
    <message>
        <source>revoked</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>renewed</source>
        <translation>续约</translation>
    </message>
    <message>
        <source>slow watchers</source>
        <translation>慢监视者</translation>
    </message>
    <message>
        <source>proposals pending</source>
        <translation>待处理提案</translation>
    </message>
    <message>
        <source>proposals failed per second</source>
        <translation>每秒失败提案</translation>
    </message>
    <message>
        <source>backend commit p99</source>
        <translation>后端提交 p99</translation>
    </message>
    <message>
        <source>members</source>
        <translation>成员数</translation>
    </message>
    <message>
        <source>Leadership</source>
        <translation>领导关系</translation>
    </message>
</context>
<context>
    <name>lockscope::MetricsScraper</name>
    <message>
        <source>no answer within %1 ms</source>
        <translation>%1 毫秒内无应答</translation>
    </message>
    <message>
        <source>%1 could not be read: %2; check that the member runs and that its client URL serves /metrics</source>
        <translation>无法读取 %1：%2；请检查该成员是否在运行，以及其客户端 URL 是否提供 /metrics</translation>
    </message>
    <message>
        <source>%1 answered HTTP %2</source>
        <translation>%1 返回 HTTP %2</translation>
    </message>
    <message>
        <source>%1 is not Prometheus text: %2</source>
        <translation>%1 不是 Prometheus 文本：%2</translation>
    </message>
</context>
<context>
    <name>lockscope::NamedFormDialog</name>
    <message>
        <source>Any bytes: \xNN is a byte, \\ a backslash</source>
        <translation>任意字节：\xNN 表示一个字节，\\ 表示反斜杠</translation>
    </message>
    <message>
        <source>The name starts or ends with white space, which is part of it: &quot;%1&quot; is another lock than &quot;%2&quot;, for etcdctl too. %3 again to take it as typed.</source>
        <translation>名称以空白开头或结尾，空白也是名称的一部分：&quot;%1&quot; 与 &quot;%2&quot; 是不同的锁，对 etcdctl 也是如此。再次点击“%3”即按输入的名称获取。</translation>
    </message>
</context>
<context>
    <name>lockscope::PasswordDialog</name>
    <message>
        <source>Remember in the keyring</source>
        <translation>记住在密钥环中</translation>
    </message>
    <message>
        <source>Password for %1</source>
        <translation>%1 的密码</translation>
    </message>
    <message>
        <source>Password of user &lt;b&gt;%1&lt;/b&gt; on %2:</source>
        <translation>用户 &lt;b&gt;%1&lt;/b&gt; 在 %2 上的密码：</translation>
    </message>
    <message>
        <source>Keep the password in the desktop&apos;s keyring, so the next connection does not ask; a password the cluster refuses is forgotten</source>
        <translation>把密码保存在桌面密钥环中，下次连接时不再询问；被集群拒绝的密码会被忘记</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
</context>
<context>
    <name>lockscope::PasswordSource</name>
    <message>
        <source>The refused password is still in the keyring: %1</source>
        <translation>被拒绝的密码仍在密钥环中：%1</translation>
    </message>
    <message>
        <source>The password was not kept in the keyring: %1</source>
        <translation>密码未能保存到密钥环：%1</translation>
    </message>
    <message>
        <source>No keyring to remember it in: %1</source>
        <translation>没有可用于记住密码的密钥环：%1</translation>
    </message>
</context>
<context>
    <name>lockscope::PrefixBar</name>
    <message>
        <source>The key prefix whose locks to watch (Ctrl+L); Enter applies it</source>
        <translation>要监视其下锁的键前缀（Ctrl+L）；按 Enter 生效</translation>
    </message>
    <message>
        <source>Lock &amp;prefix:</source>
        <translation>锁前缀(&amp;P)：</translation>
    </message>
    <message>
        <source>Prefix not changed: %1</source>
        <translation>前缀未更改：%1</translation>
    </message>
    <message>
        <source>live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>How keys form locks: auto reads each key&apos;s recipe from its shape and lease; name one where that cannot decide</source>
        <translation>键如何构成锁：自动模式根据每个键的形式和租约判断其锁方式；无法判断时请指定一种</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>&amp;Recipe:</source>
        <translation>锁方式(&amp;R)：</translation>
    </message>
</context>
<context>
    <name>lockscope::ProblemList</name>
    <message>
        <source>Dismiss all</source>
        <translation>全部忽略</translation>
    </message>
    <message>
        <source>Problems (%1), newest first: kept until you dismiss them</source>
        <translation>问题（%1），最新的在前：保留到你忽略为止</translation>
    </message>
    <message>
        <source>Connection ×99</source>
        <translation>连接 ×99</translation>
    </message>
    <message>
        <source>Dismiss this problem</source>
        <translation>忽略此问题</translation>
    </message>
</context>
<context>
    <name>lockscope::ProblemLogModel</name>
    <message numerus="yes">
        <source>%n times, first at %1, last at %2</source>
        <translation>
            <numerusform>%n 次，首次于 %1，最近于 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>认证</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>Recovered at %1</source>
        <translation>已于 %1 恢复</translation>
    </message>
    <message>
        <source>%1, recovered %2</source>
        <translation>%1，已于 %2 恢复</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>lockscope::RecordingSettingsDialog</name>
    <message>
        <source>&amp;Record the locks watched, for replay later</source>
        <translation>记录所监视的锁，以便日后回放(&amp;R)</translation>
    </message>
    <message>
        <source>Recording settings</source>
        <translation>记录设置</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>One file per cluster, in %1. The oldest history goes first once a file is older or larger than this.</source>
        <translation>每个集群一个文件，位于 %1。文件超过此时长或大小后，最旧的历史记录最先删除。</translation>
    </message>
    <message>
        <source>Keep at most:</source>
        <translation>最多保留：</translation>
    </message>
    <message>
        <source>and at most:</source>
        <translation>且最多：</translation>
    </message>
</context>
<context>
    <name>lockscope::Sandbox</name>
    <message>
        <source>no etcd program &quot;%1&quot; was found. Install etcd (Debian: apt install etcd-server), or connect to a cluster with --endpoints.</source>
        <translation>未找到 etcd 程序“%1”。请安装 etcd（Debian：apt install etcd-server），或用 --endpoints 连接到一个集群。</translation>
    </message>
    <message>
        <source>Member %1 did not restart: %2</source>
        <translation>成员 %1 未能重启：%2</translation>
    </message>
    <message>
        <source>The sandbox etcd did not start: %1</source>
        <translation>沙箱 etcd 未能启动：%1</translation>
    </message>
</context>
<context>
    <name>lockscope::SandboxMenu</name>
    <message>
        <source>&amp;Sandbox</source>
        <translation>沙箱(&amp;S)</translation>
    </message>
    <message>
        <source>Not on a sandbox (start LockScope without endpoints, or with --sandbox=N)</source>
        <translation>当前不在沙箱上（不带端点启动 LockScope，或使用 --sandbox=N）</translation>
    </message>
    <message>
        <source>Stop member %1</source>
        <translation>停止成员 %1</translation>
    </message>
    <message>
        <source>Restart member %1</source>
        <translation>重启成员 %1</translation>
    </message>
</context>
<context>
    <name>lockscope::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
</context>
<context>
    <name>lockscope::StagePage</name>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>The stage full screen in large type (F11; Esc leaves)</source>
        <translation>以大字号全屏显示舞台（F11；Esc 退出）</translation>
    </message>
    <message>
        <source>#%1 on %2</source>
        <translation>%2 上的 #%1</translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation>强制释放…</translation>
    </message>
    <message>
        <source>Pause keepalive</source>
        <translation>暂停续约</translation>
    </message>
    <message>
        <source>Only a lock this window holds has keepalives to pause</source>
        <translation>只有本窗口持有的锁才有可暂停的续约</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>复制键</translation>
    </message>
    <message>
        <source>LockScope stage</source>
        <translation>LockScope 舞台</translation>
    </message>
    <message>
        <source>A lane per lock: the holder in front, the waiters behind in fencing-token order; the ring is the lease&apos;s TTL left (orange when low); blue: this window&apos;s own; ringed in amber: the session picked on the Blockers page. Right-click a token for its actions.</source>
        <translation>每个锁一条泳道：持有者在前，等待者按防护令牌顺序排在后面；圆环是租约剩余的 TTL（偏低时为橙色）；蓝色：本窗口自己的；琥珀色圆环：在“阻塞”页选中的会话。右键点击令牌可执行操作。</translation>
    </message>
</context>
<context>
    <name>lockscope::StageView</name>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>force released</source>
        <translation>已强制释放</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>No locks under the prefix</source>
        <translation>该前缀下没有锁</translation>
    </message>
    <message numerus="yes">
        <source>%n more lock(s) not shown</source>
        <translation>
            <numerusform>另有 %n 个锁未显示</numerusform>
        </translation>
    </message>
    <message>
        <source>split brain: #%1 and #%2</source>
        <translation>脑裂：#%1 与 #%2</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message numerus="yes">
        <source>%n waiting</source>
        <translation>
            <numerusform>%n 个等待</numerusform>
        </translation>
    </message>
    <message>
        <source>+%1 more</source>
        <translation>另有 +%1</translation>
    </message>
    <message>
        <source>no lease</source>
        <translation>无租约</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>%1: waiters not visible</source>
        <translation>%1：等待者不可见</translation>
    </message>
</context>
<context>
    <name>lockscope::TimelinePage</name>
    <message>
        <source>waiters</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>Pause graphs (then drag and zoom)</source>
        <translation>暂停图表（之后可拖动和缩放）</translation>
    </message>
    <message>
        <source>Holders over time</source>
        <translation>持有者时间线</translation>
    </message>
    <message>
        <source>Wait and handoff times</source>
        <translation>等待与交接时间</translation>
    </message>
    <message>
        <source>Queue depth</source>
        <translation>队列深度</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Export a graph as PNG or PDF (also on each graph&apos;s right-click menu)</source>
        <translation>把图表导出为 PNG 或 PDF（也可在各图表的右键菜单中导出）</translation>
    </message>
    <message>
        <source>wait (observed)</source>
        <translation>等待（观察到的）</translation>
    </message>
    <message>
        <source>handoff gap</source>
        <translation>交接间隙</translation>
    </message>
    <message>
        <source>waiters, all locks</source>
        <translation>等待者，全部锁</translation>
    </message>
    <message>
        <source>wait (ours)</source>
        <translation>等待（我们的）</translation>
    </message>
    <message>
        <source>wait or gap</source>
        <translation>等待或间隔</translation>
    </message>
    <message>
        <source>No lock acquired since the watch began</source>
        <translation>监视开始以来尚无锁被获得</translation>
    </message>
    <message>
        <source>Not sampled yet</source>
        <translation>尚未采样</translation>
    </message>
    <message>
        <source>Holders over time: a lane per lock, a bar per hold (hover for details), red where two believed they held it; a faded left edge: held since before LockScope started watching</source>
        <translation>持有者随时间变化：每个锁一条泳道，每次持有一个条块（悬停查看详情），两者同时认为自己持有时标红；左边缘渐隐：在 LockScope 开始监视之前就已持有</translation>
    </message>
</context>
<context>
    <name>lockscope::ViewMenu</name>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Lock &amp;prefix…</source>
        <translation>锁前缀(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Filter locks…</source>
        <translation>筛选锁(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Read-only</source>
        <translation>只读(&amp;R)</translation>
    </message>
    <message>
        <source>Hide every action that writes to etcd</source>
        <translation>隐藏所有写入 etcd 的操作</translation>
    </message>
    <message>
        <source>Fleet &amp;overview</source>
        <translation>集群总览(&amp;O)</translation>
    </message>
</context>
<context>
    <name>lockscope::WaitGraphView</name>
    <message>
        <source>waits in %1 for %2</source>
        <translation>在 %1 中等待 %2</translation>
    </message>
</context>
<context>
    <name>lockscope::WatchRecording</name>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
</context>
<context>
    <name>lockscopectl</name>
    <message>
        <source>Usage: %1
</source>
        <translation>用法：%1
</translation>
    </message>
    <message>
        <source>lockscopectl %1: %2
Run &apos;lockscopectl %1 --help&apos;.
</source>
        <translation>lockscopectl %1：%2
运行“lockscopectl %1 --help”查看帮助。
</translation>
    </message>
    <message>
        <source>%1
Usage: %2</source>
        <translation>%1
用法：%2</translation>
    </message>
    <message>
        <source>Where to serve /metrics and /healthz (port 0: any free port).</source>
        <translation>在何处提供 /metrics 和 /healthz（端口 0：任意空闲端口）。</translation>
    </message>
    <message>
        <source>--listen wants HOST:PORT with an IP address, like 127.0.0.1:9464, not &quot;%1&quot;</source>
        <translation>--listen 需要带 IP 地址的 HOST:PORT，如 127.0.0.1:9464，而不是“%1”</translation>
    </message>
    <message>
        <source>--max-locks wants a whole number of at least 1, not &quot;%1&quot;</source>
        <translation>--max-locks 需要一个不小于 1 的整数，而不是“%1”</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>无法在 %1 上监听：%2</translation>
    </message>
    <message>
        <source>serving http://%1:%2/metrics for the locks under %3</source>
        <translation>正在 http://%1:%2/metrics 提供 %3 下的锁</translation>
    </message>
    <message>
        <source>%1 acquisitions in %2 s (%3/s); chaos: %4 stalls, %5 crashes, %6 slow holds
</source>
        <translation>%2 秒内 %1 次获取（%3 次/秒）；混沌：%4 次停顿，%5 次崩溃，%6 次缓慢持有
</translation>
    </message>
    <message>
        <source>resource writes: %1 applied, %2 rejected by fencing, %3 landed without the lock
</source>
        <translation>资源写入：%1 次生效，%2 次被防护拒绝，%3 次在未持锁时写入
</translation>
    </message>
    <message>
        <source>etcd %1 it at revision %2</source>
        <translation>etcd 记录该持有在修订号 %2 结束（%1）</translation>
    </message>
    <message>
        <source>etcd&apos;s history does not show the first hold ending</source>
        <translation>etcd 的历史中看不到第一次持有的结束</translation>
    </message>
    <message>
        <source>  %1: worker %2 (token %3) and worker %4 (token %5) both held it for %6 ms; %7
</source>
        <translation>  %1：工作者 %2（令牌 %3）和工作者 %4（令牌 %5）同时持有了它 %6 毫秒；%7
</translation>
    </message>
    <message>
        <source>Run the contention lab: workers contending on locks with chaos, then report split brains and the fencing demo.</source>
        <translation>运行争用实验室：多个工作者在混沌条件下争用锁，然后报告脑裂和防护演示的结果。</translation>
    </message>
    <message>
        <source>Workers, 1 to 200.</source>
        <translation>工作者数，1 到 200。</translation>
    </message>
    <message>
        <source>Comma-separated lock names (\xNN is a byte, \x2c a comma, \\ a backslash).</source>
        <translation>以逗号分隔的锁名（\xNN 表示一个字节，\x2c 表示逗号，\\ 表示反斜杠）。</translation>
    </message>
    <message>
        <source>How long each hold lasts.</source>
        <translation>每次持有的时长。</translation>
    </message>
    <message>
        <source>Pause between attempts.</source>
        <translation>两次尝试之间的停顿。</translation>
    </message>
    <message>
        <source>Session TTL in seconds.</source>
        <translation>会话 TTL（秒）。</translation>
    </message>
    <message>
        <source>Probability a hold stalls past its TTL.</source>
        <translation>一次持有停顿到超过其 TTL 的概率。</translation>
    </message>
    <message>
        <source>Probability a holder crashes.</source>
        <translation>持有者崩溃的概率。</translation>
    </message>
    <message>
        <source>Probability a hold is five times longer.</source>
        <translation>一次持有延长为五倍时长的概率。</translation>
    </message>
    <message>
        <source>Write the resource without the guard.</source>
        <translation>不加防护地写入资源。</translation>
    </message>
    <message>
        <source>How long to run.</source>
        <translation>运行时长。</translation>
    </message>
    <message>
        <source>Print the report as JSON.</source>
        <translation>以 JSON 输出报告。</translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation>显示此帮助。</translation>
    </message>
    <message>
        <source>--locks: %1</source>
        <translation>--locks：%1</translation>
    </message>
    <message>
        <source>lockscopectl lab: cannot start: %1
</source>
        <translation>lockscopectl lab：无法启动：%1
</translation>
    </message>
    <message>
        <source>%1 is held by someone else</source>
        <translation>%1 被他人持有</translation>
    </message>
    <message>
        <source>interrupted while waiting for %1; our place in the queue was removed</source>
        <translation>等待 %1 时被中断；我们在队列中的位置已被移除</translation>
    </message>
    <message>
        <source>cannot start a session: %1</source>
        <translation>无法启动会话：%1</translation>
    </message>
    <message>
        <source>waiting for %1 failed (attempt %2): %3; queueing again in %4 s</source>
        <translation>等待 %1 失败（第 %2 次）：%3；%4 秒后重新排队</translation>
    </message>
    <message>
        <source>interrupted while waiting for %1 to queue again</source>
        <translation>等待 %1 重新排队时被中断</translation>
    </message>
    <message>
        <source>--ttl takes a whole number of seconds above 0, not &quot;%1&quot;</source>
        <translation>--ttl 接受大于 0 的整数秒，而不是“%1”</translation>
    </message>
    <message>
        <source>lock NAME: %1</source>
        <translation>lock NAME：%1</translation>
    </message>
    <message>
        <source>it is empty</source>
        <translation>它为空</translation>
    </message>
    <message>
        <source>--ttl: %1</source>
        <translation>--ttl：%1</translation>
    </message>
    <message>
        <source>--ttl: %1; add --force to use it anyway</source>
        <translation>--ttl：%1；如仍要使用，请加上 --force</translation>
    </message>
    <message>
        <source>%1
Run &apos;lockscopectl --help&apos; for usage.</source>
        <translation>%1
运行“lockscopectl --help”查看用法。</translation>
    </message>
    <message>
        <source>Show each endpoint&apos;s status (add --json for JSON).</source>
        <translation>显示各端点的状态（加 --json 输出 JSON）。</translation>
    </message>
    <message>
        <source>Show every lock under PREFIX: holder, queue, TTLs (--json).</source>
        <translation>显示 PREFIX 下的每个锁：持有者、等待队列、TTL（--json）。</translation>
    </message>
    <message>
        <source>Print lock events under PREFIX as they happen (--json).</source>
        <translation>实时打印 PREFIX 下发生的锁事件（--json）。</translation>
    </message>
    <message>
        <source>Run the contention lab headless and report split brains (--json).</source>
        <translation>无界面运行争用实验室并报告脑裂（--json）。</translation>
    </message>
    <message>
        <source>
Commands:
</source>
        <translation>
命令：
</translation>
    </message>
    <message>
        <source>Inspect etcd v3 locks from the command line. Connection flags and the ETCDCTL_* environment variables are those of etcdctl; a flag wins over its variable.</source>
        <translation>在命令行上查看 etcd v3 锁。连接参数和 ETCDCTL_* 环境变量与 etcdctl 相同；参数优先于对应的变量。</translation>
    </message>
    <message>
        <source>Also print gRPC&apos;s own log lines to stderr.</source>
        <translation>同时把 gRPC 自己的日志行打印到 stderr。</translation>
    </message>
    <message>
        <source>The command to run; see below.</source>
        <translation>要运行的命令；见下文。</translation>
    </message>
    <message>
        <source>&lt;command&gt; [args]</source>
        <translation>&lt;命令&gt; [参数]</translation>
    </message>
    <message>
        <source>Usage: lockscopectl [connection flags] &lt;command&gt; [args]
</source>
        <translation>用法：lockscopectl [连接参数] &lt;命令&gt; [参数]
</translation>
    </message>
    <message>
        <source>no command given</source>
        <translation>未给出命令</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;</source>
        <translation>未知命令“%1”</translation>
    </message>
    <message>
        <source>reconnecting (attempt %1, next in %2 s): %3</source>
        <translation>正在重连（第 %1 次，%2 秒后重试）：%3</translation>
    </message>
    <message>
        <source>Print JSON instead of text.</source>
        <translation>输出 JSON 而不是文本。</translation>
    </message>
    <message>
        <source>The key prefix whose locks to show, e.g. /locks/. Any bytes; \xNN is a byte and \\ a backslash.</source>
        <translation>要显示其下锁的键前缀，如 /locks/。可为任意字节；\xNN 表示一个字节，\\ 表示反斜杠。</translation>
    </message>
    <message>
        <source>a PREFIX is needed, like /locks/</source>
        <translation>需要一个 PREFIX，如 /locks/</translation>
    </message>
    <message>
        <source>one PREFIX only, got %1</source>
        <translation>只能有一个 PREFIX，却给出了 %1</translation>
    </message>
    <message>
        <source>PREFIX: %1</source>
        <translation>PREFIX：%1</translation>
    </message>
    <message>
        <source>Show every lock under PREFIX at one revision: holder, waiting queue, lease TTLs and anomalies.</source>
        <translation>显示 PREFIX 下在同一修订号时的每个锁：持有者、等待队列、租约 TTL 和异常。</translation>
    </message>
    <message>
        <source>anomaly: %1: %2: %3
</source>
        <translation>异常：%1：%2：%3
</translation>
    </message>
    <message>
        <source>Print a JSON array instead of a table.</source>
        <translation>输出 JSON 数组而不是表格。</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot; (connection flags go before the command)</source>
        <translation>意外的参数“%1”（连接参数应放在命令之前）</translation>
    </message>
    <message>
        <source>%1 of %2 endpoints did not answer</source>
        <translation>%2 个端点中有 %1 个未应答</translation>
    </message>
    <message>
        <source>Print every lock event under PREFIX as it happens, until interrupted.</source>
        <translation>实时打印 PREFIX 下发生的每个锁事件，直到被中断。</translation>
    </message>
    <message>
        <source>a non-empty PREFIX is needed, like /locks/ (use / for every lock under the root)</source>
        <translation>需要一个非空的 PREFIX，如 /locks/（用 / 表示根下的所有锁）</translation>
    </message>
    <message>
        <source>watching</source>
        <translation>正在监视</translation>
    </message>
    <message>
        <source>not watching: %1</source>
        <translation>未在监视：%1</translation>
    </message>
    <message numerus="yes">
        <source>revision %1, %n lock(s) under %2
</source>
        <translation>
            <numerusform>修订号 %1，%2 下有 %n 个锁
</numerusform>
        </translation>
    </message>
    <message>
        <source>observing election %1 stopped: %2</source>
        <translation>观察选举 %1 已停止：%2</translation>
    </message>
    <message>
        <source>leadership of %1 lost: %2</source>
        <translation>失去了 %1 的领导地位：%2</translation>
    </message>
    <message>
        <source>proclaiming &quot;%1&quot; failed: %2; still leading with the previous proposal</source>
        <translation>宣告“%1”失败：%2；仍以先前的提议领导</translation>
    </message>
    <message>
        <source>proclaiming &quot;%1&quot; failed: we no longer lead</source>
        <translation>宣告“%1”失败：我们已不再领导</translation>
    </message>
    <message>
        <source>interrupted while campaigning in %1; our candidacy was withdrawn</source>
        <translation>在 %1 中参选时被中断；我们的候选资格已撤回</translation>
    </message>
    <message>
        <source>campaigning in %1 failed: %2</source>
        <translation>在 %1 中参选失败：%2</translation>
    </message>
    <message>
        <source>Campaign in election NAME with PROPOSAL as etcdctl elect does: once leading, print our key and the proposal on two lines and lead until Ctrl-C, then resign. While leading, each line typed on standard input is proclaimed as the new proposal. With --listen, print each leader&apos;s key and proposal instead, as they change.</source>
        <translation>像 etcdctl elect 一样以 PROPOSAL 参加选举 NAME：成为领导者后，分两行打印我们的键和提议，并一直领导到 Ctrl-C，然后辞任。领导期间，在标准输入中键入的每一行都会作为新提议宣告。使用 --listen 时，改为在领导者变化时打印其键和提议。</translation>
    </message>
    <message>
        <source>Observe the election: print each new leader&apos;s key and proposal; do not campaign.</source>
        <translation>观察选举：打印每个新领导者的键和提议；不参选。</translation>
    </message>
    <message>
        <source>The election&apos;s name (a key prefix without the trailing /). Any bytes; \xNN is a byte and \\ a backslash.</source>
        <translation>选举名（不带结尾 / 的键前缀）。可为任意字节；\xNN 表示一个字节，\\ 表示反斜杠。</translation>
    </message>
    <message>
        <source>Our proposal, stored as our key&apos;s value.</source>
        <translation>我们的提议，保存为我们的键的值。</translation>
    </message>
    <message>
        <source>--listen takes one NAME and no proposal</source>
        <translation>--listen 接受一个 NAME，不接受提议</translation>
    </message>
    <message>
        <source>a NAME and a PROPOSAL are needed, like: elect /elections/db host-a</source>
        <translation>需要 NAME 和 PROPOSAL，如：elect /elections/db host-a</translation>
    </message>
    <message>
        <source>NAME: %1</source>
        <translation>NAME：%1</translation>
    </message>
    <message>
        <source>lock: --read and --write exclude each other: take one</source>
        <translation>lock：--read 与 --write 互斥：请只取其一</translation>
    </message>
    <message>
        <source>--try and --server-lock do not go together: etcd&apos;s Lock service has no try-lock; leave out one of them</source>
        <translation>--try 与 --server-lock 不能同时使用：etcd 的 Lock 服务没有 try-lock；请去掉其中一个</translation>
    </message>
    <message>
        <source>--server-lock takes exclusive locks only: etcd&apos;s Lock service has no readers or writers; leave out --read/--write or --server-lock</source>
        <translation>--server-lock 只能获取独占锁：etcd 的 Lock 服务没有读者和写者；请去掉 --read/--write 或 --server-lock</translation>
    </message>
    <message>
        <source>Campaign like etcdctl elect: NAME PROPOSAL (stdin lines proclaim), or -l NAME to print each leader.</source>
        <translation>像 etcdctl elect 一样参选：NAME PROPOSAL（标准输入的每一行即宣告），或用 -l NAME 打印每个领导者。</translation>
    </message>
    <message>
        <source>%1; SIGTERM to the command&apos;s process group at %2, SIGKILL at %3</source>
        <translation>%1；%2 向命令的进程组发送 SIGTERM，%3 发送 SIGKILL</translation>
    </message>
    <message>
        <source>%1; SIGTERM to the command&apos;s process group at %2, all of it gone by %3</source>
        <translation>%1；%2 向命令的进程组发送 SIGTERM，%3 时已全部结束</translation>
    </message>
    <message>
        <source>lock lost: %1</source>
        <translation>锁已丢失：%1</translation>
    </message>
    <message>
        <source>lock lost: no keepalive confirmed since %1; etcd expires the lease at the earliest at %2</source>
        <translation>锁已丢失：自 %1 起没有保活被确认；etcd 最早于 %2 让租约过期</translation>
    </message>
    <message>
        <source>the command exited, leaving processes in its group</source>
        <translation>命令已退出，但其进程组中还留有进程</translation>
    </message>
    <message>
        <source>; some of its processes outlive SIGKILL</source>
        <translation>；其中一些进程在 SIGKILL 之后仍然存在</translation>
    </message>
    <message>
        <source>Take lock NAME as etcdctl lock does, print its key and hold it until Ctrl-C or SIGTERM, then release it; or run COMMAND while holding it and exit with its status (4 when the lock was lost, 3 when --try found it held).

COMMAND gets LOCKSCOPE_LOCK_KEY (our key&apos;s exact bytes), LOCKSCOPE_LOCK_KEY_B64 (the same in base64) and LOCKSCOPE_FENCING_TOKEN (our key&apos;s create revision: compare it in a Txn to write only while holding). The environment cannot carry a NUL byte, so a NAME with one is refused when there is a COMMAND.

COMMAND runs in a session and process group of its own; a lost lock, Ctrl-C, SIGTERM or an error signals the whole group, and nothing of it outlives lockscopectl. A process that leaves the group (setsid, setpgid: a daemon) is beyond reach. COMMAND gets SIGTERM at the safe deadline less the grace and SIGKILL at the safe deadline: the send time of the last keepalive etcd confirmed plus the TTL, less a margin, before which etcd cannot expire our lease and hand the lock on. When etcd says the lease is gone, SIGTERM comes at once.</source>
        <translation>像 etcdctl lock 一样获取锁 NAME，打印其键并持有，直到 Ctrl-C 或 SIGTERM 后释放；或在持有期间运行 COMMAND，并以其状态退出（锁丢失时为 4，--try 发现锁被占用时为 3）。

COMMAND 会得到 LOCKSCOPE_LOCK_KEY（我们的键的确切字节）、LOCKSCOPE_LOCK_KEY_B64（同一内容的 base64）和 LOCKSCOPE_FENCING_TOKEN（我们的键的创建修订号：在 Txn 中比较它，即可只在持有锁时写入）。环境变量无法携带 NUL 字节，因此有 COMMAND 时，含 NUL 的 NAME 会被拒绝。

COMMAND 运行在自己的会话和进程组中；锁丢失、Ctrl-C、SIGTERM 或出错时，整个进程组都会收到信号，其中任何进程都不会比 lockscopectl 活得更久。离开该进程组的进程（setsid、setpgid：守护进程）无法触及。COMMAND 在安全截止时间减去宽限期时收到 SIGTERM，在安全截止时间收到 SIGKILL：安全截止时间是 etcd 确认的最后一次保活的发送时间加上 TTL，再减去一点余量，在此之前 etcd 不能让我们的租约过期并把锁交给别人。etcd 说租约已不存在时，立即发送 SIGTERM。</translation>
    </message>
    <message>
        <source>A reader of etcd&apos;s RWMutex recipe (shared with readers).</source>
        <translation>作为 etcd RWMutex 配方的读者（与其他读者共享）。</translation>
    </message>
    <message>
        <source>A writer of etcd&apos;s RWMutex recipe.</source>
        <translation>作为 etcd RWMutex 配方的写者。</translation>
    </message>
    <message>
        <source>Our session&apos;s lease TTL in seconds (10).</source>
        <translation>我们会话租约的 TTL，单位为秒（10）。</translation>
    </message>
    <message>
        <source>How long before the safe deadline COMMAND gets SIGTERM, like 2s or 500ms: a third of the TTL by default, at least 0.5 s; at most half the TTL.</source>
        <translation>COMMAND 在安全截止时间之前多久收到 SIGTERM，如 2s 或 500ms：默认为 TTL 的三分之一，至少 0.5 秒；最多为 TTL 的一半。</translation>
    </message>
    <message>
        <source>Take the lock only if it is free; exit 3 if not.</source>
        <translation>仅在锁空闲时获取；否则以 3 退出。</translation>
    </message>
    <message>
        <source>Through etcd&apos;s Lock service instead of our Mutex (exclusive locks, no --try).</source>
        <translation>通过 etcd 的 Lock 服务而非我们的 Mutex（仅排他锁，不能用 --try）。</translation>
    </message>
    <message>
        <source>Allow a TTL over a day.</source>
        <translation>允许超过一天的 TTL。</translation>
    </message>
    <message>
        <source>Exit 1 when a wait fails instead of queueing again.</source>
        <translation>等待失败时以 1 退出，而不是重新排队。</translation>
    </message>
    <message>
        <source>The lock&apos;s name (a key prefix without the trailing /). Any bytes; \xNN is a byte and \\ a backslash.</source>
        <translation>锁名（不带末尾 / 的键前缀）。任意字节；\xNN 表示一个字节，\\ 表示一个反斜杠。</translation>
    </message>
    <message>
        <source>What to run while holding the lock.</source>
        <translation>持有锁期间要运行的命令。</translation>
    </message>
    <message>
        <source>--grace takes a duration like 2s or 500ms, not &quot;%1&quot;</source>
        <translation>--grace 需要一个时长，如 2s 或 500ms，而不是“%1”</translation>
    </message>
    <message>
        <source>lock needs a lock name: lockscopectl lock NAME [--read|--write] [--ttl N] [--grace DURATION] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND]</source>
        <translation>lock 需要一个锁名：lockscopectl lock NAME [--read|--write] [--ttl N] [--grace DURATION] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND]</translation>
    </message>
    <message>
        <source>lock %1 -- COMMAND: the name holds a NUL byte, which the environment cannot carry in LOCKSCOPE_LOCK_KEY; take a name without one</source>
        <translation>lock %1 -- COMMAND：锁名含有 NUL 字节，环境变量 LOCKSCOPE_LOCK_KEY 无法携带它；请换一个不含 NUL 的锁名</translation>
    </message>
    <message>
        <source>--grace %1 is more than half the TTL (--ttl %2): the command would be stopped whenever a keepalive runs late; take a shorter --grace or a longer --ttl</source>
        <translation>--grace %1 超过了 TTL 的一半（--ttl %2）：只要保活稍有延迟，命令就会被停止；请缩短 --grace 或加长 --ttl</translation>
    </message>
    <message>
        <source>Take a lock like etcdctl lock: NAME [--read|--write] [--ttl N] [--grace DURATION] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND ARGS...]; --read or --write: a reader or writer of etcd&apos;s RWMutex recipe.</source>
        <translation>像 etcdctl lock 一样获取锁：NAME [--read|--write] [--ttl N] [--grace DURATION] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND ARGS...]；--read 或 --write：作为 etcd RWMutex 配方的读者或写者。</translation>
    </message>
    <message>
        <source>How keys form locks: auto (each key&apos;s recipe from its shape and lease), or mutex, election, rwmutex or single-key for every key under PREFIX, where auto cannot decide.</source>
        <translation>键如何构成锁：auto（根据每个键的形式和租约判断其锁方式），或在 auto 无法判断时，为 PREFIX 下的所有键指定 mutex、election、rwmutex 或 single-key。</translation>
    </message>
    <message>
        <source>--recipe: %1 is none of auto, mutex, election, rwmutex, single-key</source>
        <translation>--recipe：%1 不是 auto、mutex、election、rwmutex、single-key 之一</translation>
    </message>
    <message>
        <source>mutex (the default: a queue of keys NAME/&lt;lease id&gt;, as etcdctl lock) or single-key (the key NAME itself, taken as python-etcd3, node etcd3&apos;s lock() and tooz take it; its waiters hold no key).</source>
        <translation>mutex（默认：由键 NAME/&lt;租约 ID&gt; 组成的队列，与 etcdctl lock 相同）或 single-key（键 NAME 本身，按 python-etcd3、node etcd3 的 lock() 和 tooz 的方式获取；其等待者不持有键）。</translation>
    </message>
    <message>
        <source>lock --recipe takes mutex or single-key, not &quot;%1&quot; (an RWMutex share is --read or --write, an election is lockscopectl elect)</source>
        <translation>lock --recipe 接受 mutex 或 single-key，而不是“%1”（读写锁的份额请用 --read 或 --write，选举请用 lockscopectl elect）</translation>
    </message>
    <message>
        <source>lock: unknown flag %1 (use --read, --write, --ttl N, --grace DURATION, --try, --server-lock, --recipe NAME, --force, --no-retry, -- COMMAND; see lockscopectl lock --help)</source>
        <translation>lock：未知参数 %1（可用 --read、--write、--ttl N、--grace DURATION、--try、--server-lock、--recipe NAME、--force、--no-retry、-- COMMAND；参见 lockscopectl lock --help）</translation>
    </message>
    <message>
        <source>--recipe single-key is a lock of one key: it goes with neither --server-lock nor --read/--write; leave out one of them</source>
        <translation>--recipe single-key 是单个键的锁：不能与 --server-lock 或 --read/--write 同用；请去掉其中之一</translation>
    </message>
    <message>
        <source>--%1: &quot;%2&quot; is not %3</source>
        <translation>--%1：“%2”不是%3</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a duration like 100ms or 30s</source>
        <translation>时长（如 100ms 或 30s）</translation>
    </message>
    <message>
        <source>whole seconds</source>
        <translation>整数秒</translation>
    </message>
    <message>
        <source>a number from 0 to 1</source>
        <translation>0 到 1 之间的数</translation>
    </message>
    <message>
        <source>Show each endpoint&apos;s status: version, member id, leader, revision, raft term and index, database size, round trip and etcd&apos;s alarms.</source>
        <translation>显示各端点的状态：版本、成员 ID、领导者、修订号、Raft 任期与索引、数据库大小、往返时间和 etcd 的告警。</translation>
    </message>
    <message>
        <source>split brains: %1 overlapping pairs of holds, from %2 holders that held on after another took over
</source>
        <translation>脑裂：%1 对重叠的持有，来自 %2 个在他人接手后仍自认持有的持有者
</translation>
    </message>
    <message>
        <source>Show who waits for whom under PREFIX: root blockers and deadlocks (--json; exit code 5 on a deadlock).</source>
        <translation>显示 PREFIX 下谁在等谁：根阻塞者与死锁（--json；有死锁时退出码为 5）。</translation>
    </message>
    <message>
        <source>%1 waits in %2 for %3 of %4</source>
        <translation>%1 在 %2 中等待 %4 的 %3</translation>
    </message>
    <message>
        <source>DEADLOCK: %1 wait on each other; none lets go until a lease ends</source>
        <translation>死锁：%1 相互等待；在某个租约结束前谁也不会放手</translation>
    </message>
    <message>
        <source>, TTL %1 s of %2 s</source>
        <translation>，TTL 剩 %1 秒（共 %2 秒）</translation>
    </message>
    <message>
        <source>  nobody has renewed its lease for half its TTL: its holder may be hung or cut off, the likely culprit (etcd ends the lease in %1 s)</source>
        <translation>  其租约已有半个 TTL 无人续约：持有者可能已挂起或断开，最可能是元凶（etcd 将在 %1 秒后结束该租约）</translation>
    </message>
    <message>
        <source>nobody waits on anybody</source>
        <translation>没有人在等待任何人</translation>
    </message>
    <message>
        <source>Show who waits for whom across every lock under PREFIX: the root blockers with their waiters, and deadlocks with the lease to revoke to break each. Exits 5 when there is a deadlock.</source>
        <translation>显示 PREFIX 下所有锁之间谁在等谁：根阻塞者及其等待者，以及死锁和打破每个死锁应撤销的租约。存在死锁时退出码为 5。</translation>
    </message>
    <message numerus="yes">
        <source>revision %1 under %2: %n session(s) waiting</source>
        <translation>
            <numerusform>修订版本 %1，%2 下：%n 个会话在等待</numerusform>
        </translation>
    </message>
    <message>
        <source>Each worker holds its lock and then takes the next one in --locks on the same session: with a worker per lock, a real deadlock (see lockscopectl blockers).</source>
        <translation>每个工作者持有自己的锁，然后在同一会话上获取 --locks 中的下一个：每个锁一个工作者时，就是真正的死锁（见 lockscopectl blockers）。</translation>
    </message>
    <message numerus="yes">
        <source>  to break it, revoke %1 (it holds %n lock(s) others wait for): %2</source>
        <translation>
            <numerusform>  要打破它，请撤销 %1（它持有 %n 个他人在等待的锁）：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>root blocker %1 blocks %n session(s), %2 directly (locks held that others wait for: %3%4)</source>
        <translation>
            <numerusform>根阻塞者 %1 阻塞了 %n 个会话，其中 %2 个直接等待它（持有的他人在等待的锁：%3%4）</numerusform>
        </translation>
    </message>
    <message>
        <source>Print per lock what the events say, instead of the events.</source>
        <translation>按锁打印事件所说明的情况，而不是事件本身。</translation>
    </message>
    <message>
        <source>Only this lock&apos;s events (its name, as listed; \xNN is a byte).</source>
        <translation>只显示此锁的事件（锁名如列表所示；\xNN 表示一个字节）。</translation>
    </message>
    <message>
        <source>From this revision or time on.</source>
        <translation>从此修订号或时间开始。</translation>
    </message>
    <message>
        <source>Up to this revision or time.</source>
        <translation>直到此修订号或时间为止。</translation>
    </message>
    <message>
        <source>--lock: %1</source>
        <translation>--lock：%1</translation>
    </message>
    <message>
        <source>--%1 wants a revision or an ISO 8601 time like 2026-11-27T03:10:00Z, not &quot;%2&quot;</source>
        <translation>--%1 需要修订号或 ISO 8601 时间，例如 2026-11-27T03:10:00Z，而不是“%2”</translation>
    </message>
    <message>
        <source>How often to record the whole lock state while locks change, besides at the start and after every gap (a duration like 30s or 5m, at least 1s).</source>
        <translation>锁发生变化时多久记录一次完整的锁状态；此外在开始时和每次监视中断之后也会记录（时长，如 30s 或 5m，至少 1s）。</translation>
    </message>
    <message>
        <source>List what a recording holds: FILE [--lock NAME] [--since T] [--until T] [--report] (--json).</source>
        <translation>列出记录中的内容：FILE [--lock NAME] [--since T] [--until T] [--report]（--json）。</translation>
    </message>
    <message>
        <source>recording the locks under %1 into %2</source>
        <translation>正在把 %1 下的锁记录到 %2</translation>
    </message>
    <message>
        <source>The locks as they were at this revision, while etcd keeps it (before its next compaction): who held, who waited, in what order. No lease TTLs: they are of now.</source>
        <translation>该修订号时的锁状态（在 etcd 下次压缩之前仍保留）：谁持有、谁在等待、按什么顺序。不显示租约 TTL：它们是当前的值。</translation>
    </message>
    <message>
        <source>--revision wants a revision (a whole number above 0), not &quot;%1&quot;</source>
        <translation>--revision 需要一个修订号（大于 0 的整数），而不是“%1”</translation>
    </message>
    <message>
        <source>revision %1 is compacted away: etcd keeps no history before its last compaction. Ask for a later revision, up to %2 (now).</source>
        <translation>修订号 %1 已被压缩：etcd 不保留最近一次压缩之前的历史。请指定更新的修订号，最大为 %2（当前）。</translation>
    </message>
    <message>
        <source>revision %1 is not reached yet: etcd is at %2.</source>
        <translation>修订号 %1 尚未到达：etcd 当前为 %2。</translation>
    </message>
    <message>
        <source>List the lock events and gaps recorded in FILE or in a PostgreSQL database (URL, postgresql://user[:password]@host[:port]/dbname, the password perhaps in PGPASSWORD) by lockscopectl record, or with --report, per lock: acquisitions, hold and wait times (p50, p99, max, in ms), expiries, losses and the longest waits with the holders they waited behind. T is a revision (a whole number) or an ISO 8601 time, UTC unless it names its offset (2026-11-27T03:10:00Z); both ends are included. Reads only; exit code 1 when it cannot be read (missing, damaged, of a newer LockScope, the server unreachable or refusing the password, holding several sources and no --source).</source>
        <translation>列出 lockscopectl record 记录在 FILE 或 PostgreSQL 数据库（URL，postgresql://user[:password]@host[:port]/dbname，密码也可放在 PGPASSWORD 中）中的锁事件和中断；使用 --report 时按锁列出：获取次数、持有和等待时间（p50、p99、最大值，单位 ms）、过期、丢失，以及最长的等待和所等待的持有者。T 是修订号（整数）或 ISO 8601 时间，除非注明时区偏移否则为 UTC（2026-11-27T03:10:00Z）；两端都包含。只读取；无法读取时（不存在、已损坏、来自更新版本的 LockScope、服务器无法连接或拒绝密码、有多个来源而未给出 --source）退出码为 1。</translation>
    </message>
    <message>
        <source>Which recording to read when several recorders (other prefixes or clusters) share the store: its number, as the message listing them says.</source>
        <translation>多个记录器（其他前缀或集群）共用同一存储时要读取哪个记录：它的编号，即列出它们的消息中所给的编号。</translation>
    </message>
    <message>
        <source>The recording (lockscopectl record --to FILE|URL).</source>
        <translation>记录（lockscopectl record --to FILE|URL）。</translation>
    </message>
    <message>
        <source>one FILE or URL is needed, the recording to read</source>
        <translation>需要一个 FILE 或 URL，即要读取的记录</translation>
    </message>
    <message>
        <source>--source wants a recording&apos;s number, like 2, not &quot;%1&quot;</source>
        <translation>--source 需要一个记录的编号，如 2，而不是“%1”</translation>
    </message>
    <message>
        <source>The SQLite file to record into (created when missing), or a PostgreSQL database that several recorders share, as postgresql://user[:password]@host[:port]/dbname (the password may come from PGPASSWORD instead). A recording of the same PREFIX and endpoints there is appended to, after a gap.</source>
        <translation>要记录到的 SQLite 文件（不存在时创建），或多个记录器共用的 PostgreSQL 数据库，写成 postgresql://user[:password]@host[:port]/dbname（密码也可来自 PGPASSWORD）。其中已有相同 PREFIX 和端点的记录时，在一次中断之后接着追加。</translation>
    </message>
    <message>
        <source>Record every lock event under PREFIX (with its revision, time, key, lease and fencing token), checkpoints of the whole lock state, and every gap in the watch into FILE or a PostgreSQL database, until interrupted. Read it with lockscopectl history. Exit code 1 when it cannot be recorded into (damaged, of a newer LockScope, read-only, disk full, the server unreachable or refusing the password, Qt&apos;s PostgreSQL driver missing): what was recorded before stays.</source>
        <translation>把 PREFIX 下的每个锁事件（及其修订号、时间、键、租约和防护令牌）、完整锁状态的检查点以及监视中的每次中断记录到 FILE 或 PostgreSQL 数据库，直到被中断。用 lockscopectl history 读取。无法记录时（已损坏、来自更新版本的 LockScope、只读、磁盘已满、服务器无法连接或拒绝密码、缺少 Qt 的 PostgreSQL 驱动）退出码为 1：此前记录的内容仍然保留。</translation>
    </message>
    <message>
        <source>--to FILE or --to URL is needed: where to record</source>
        <translation>需要 --to FILE 或 --to URL：记录到哪里</translation>
    </message>
    <message>
        <source>the recording holds no state yet</source>
        <translation>记录中还没有状态</translation>
    </message>
    <message>
        <source>the recording began later, at revision %1 (%2): nothing is known of the locks before</source>
        <translation>记录开始得更晚，在修订号 %1（%2）：此前的锁一无所知</translation>
    </message>
    <message>
        <source>revision %1 falls in a gap of the recording (%2): the locks are as last seen before it</source>
        <translation>修订号 %1 处于记录的中断中（%2）：显示中断前最后看到的锁</translation>
    </message>
    <message>
        <source>Instead of events, every lock as it stood at T, replayed from the recording and printed as snapshot prints them (without TTLs and values, which a recording does not keep). Not with --report, --lock, --since or --until.</source>
        <translation>不列出事件，而是列出 T 时刻的每个锁：从记录中回放，按 snapshot 的格式打印（没有 TTL 和值，记录中不保留它们）。不能与 --report、--lock、--since 或 --until 同用。</translation>
    </message>
    <message>
        <source>--at wants a revision or an ISO 8601 time like 2026-11-27T03:10:00Z, not &quot;%1&quot;</source>
        <translation>--at 需要修订号或 ISO 8601 时间，例如 2026-11-27T03:10:00Z，而不是“%1”</translation>
    </message>
    <message>
        <source>--at prints every lock at one moment: leave out --%1</source>
        <translation>--at 打印某一时刻的所有锁：请去掉 --%1</translation>
    </message>
    <message>
        <source>--profile names the connection: leave out --%1</source>
        <translation>--profile 已指定连接：请去掉 --%1</translation>
    </message>
    <message>
        <source>no saved connection profile &quot;%1&quot; (%2); LockScope&apos;s File &gt; Connect… saves them</source>
        <translation>没有名为“%1”的已保存连接配置（%2）；LockScope 的“文件 &gt; 连接…”可保存它们</translation>
    </message>
    <message>
        <source>none is saved</source>
        <translation>尚未保存任何配置</translation>
    </message>
    <message>
        <source>saved: %1</source>
        <translation>已保存：%1</translation>
    </message>
    <message>
        <source>profile %1: %2</source>
        <translation>配置 %1：%2</translation>
    </message>
    <message>
        <source>Locks with series of their own, per cluster; the rest are added up as lock=&quot;(other)&quot;.</source>
        <translation>每个集群中拥有独立序列的锁数；其余的锁合计为 lock=&quot;(other)&quot;。</translation>
    </message>
    <message>
        <source>Also record every lock event, checkpoint and gap into this SQLite file or PostgreSQL database (postgresql://...), as lockscopectl record --to does (each cluster as a source of its own); if a write fails the metrics are served on, and the exit code is 1.</source>
        <translation>同时把每个锁事件、检查点和间隙记录到这个 SQLite 文件或 PostgreSQL 数据库（postgresql://...），与 lockscopectl record --to 相同（每个集群作为独立的来源）；写入失败时仍继续提供指标，退出码为 1。</translation>
    </message>
    <message>
        <source>Serve the locks under PREFIX as Prometheus metrics (text format 0.0.4) on /metrics, live, until interrupted. With several --profile, one exporter serves every cluster, each series labelled with its profile&apos;s name.</source>
        <translation>在 /metrics 上以 Prometheus 指标（文本格式 0.0.4）实时提供 PREFIX 下的锁，直到被中断。给出多个 --profile 时，一个导出器服务所有集群，每个序列都带有其配置的名称标签。</translation>
    </message>
    <message>
        <source>Serve the locks under PREFIX as Prometheus metrics: [--listen HOST:PORT] [--max-locks N]; several clusters with repeated --profile.</source>
        <translation>以 Prometheus 指标提供 PREFIX 下的锁：[--listen HOST:PORT] [--max-locks N]；重复 --profile 可服务多个集群。</translation>
    </message>
    <message>
        <source>Connect as the desktop&apos;s saved connection profile NAME (File &gt; Connect… in LockScope) instead of connection flags; a profile with a user has its password asked on the terminal. Repeat it to run status or snapshot on several clusters, one section each, or to serve several clusters from one exporter.</source>
        <translation>按桌面版保存的连接配置 NAME（LockScope 中的 文件 &gt; 连接…）连接，而不是用连接参数；带用户的配置会在终端询问密码。重复此选项可在多个集群上运行 status 或 snapshot（每个集群一节），或由一个导出器服务多个集群。</translation>
    </message>
    <message>
        <source>%1 runs on one cluster: give one --profile (several go with status, snapshot and exporter)</source>
        <translation>%1 只在一个集群上运行：请只给一个 --profile（多个只适用于 status、snapshot 和 exporter）</translation>
    </message>
    <message>
        <source>Delete what was recorded longer ago than this (a duration like 168h; at least 1s), back to a checkpoint so what is kept still replays. Default: keep all.</source>
        <translation>删除早于此时长记录的内容（时长如 168h，至少 1s），删到某个检查点为止，使保留的部分仍可回放。默认：全部保留。</translation>
    </message>
    <message>
        <source>Delete the oldest of a file&apos;s recording while it takes more than this many megabytes, back to a checkpoint (SQLite only). Default: no limit.</source>
        <translation>文件中的记录超过这么多兆字节时，删除其中最旧的部分，删到某个检查点为止（仅 SQLite）。默认：不限。</translation>
    </message>
    <message>
        <source>--%1 wants a duration of at least 1s, like 30s, 5m or 168h, not &quot;%2&quot;</source>
        <translation>--%1 需要至少 1s 的时长，如 30s、5m 或 168h，而不是“%2”</translation>
    </message>
    <message>
        <source>--max-size wants a whole number of megabytes of at least 1, not &quot;%1&quot;</source>
        <translation>--max-size 需要至少为 1 的整数兆字节，而不是“%1”</translation>
    </message>
    <message>
        <source>Record lock events under PREFIX into an SQLite file: --to FILE [--checkpoint-every DURATION] [--keep DURATION] [--max-size MB].</source>
        <translation>把 PREFIX 下的锁事件记录到 SQLite 文件中：--to FILE [--checkpoint-every DURATION] [--keep DURATION] [--max-size MB]。</translation>
    </message>
</context>
</TS>
