#include "app/ctl/lock_state_output.h"

#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lease_countdown.h"
#include "app/core/lock_json.h"
#include "app/core/lock_queue_model.h"
#include "app/core/recipe_text.h"
#include "app/ctl/text_table.h"

#include <QCoreApplication>
#include <charconv>
#include <cstdio>
#include <unordered_map>

namespace lockscope {

namespace {

// The length Qt gives a valid UTF-8 text (displayKey's always is): its UTF-16 code units.
qsizetype utf16Length(std::string_view utf8) {
    qsizetype length = 0;
    for (const char c : utf8) {
        const auto u = static_cast<unsigned char>(c);
        if ((u & 0xc0) != 0x80) // not a continuation byte; 4-byte sequences take 2 units
            length += u >= 0xf0 ? 2 : 1;
    }
    return length;
}

// The snapshot table's rows of one queue, worded cell for cell as LockQueueModel words its
// columns Lock, Kind, Position, Key, Lease, CreateRevision, Ttl, GrantedTtl, Predecessor and
// Value (a hundred thousand keys through the model's QVariants cost most of a snapshot), for
// every kind but an RWMutex (whose positions name each key's mode: printLockState uses the
// model for it). TTL cells are of one moment (`now`) for the whole table, per lease.
class QueueRows {
public:
    QueueRows(TextTable& table, const std::map<int64_t, etcd::LeaseTtl>& leases)
        : table_(table)
        , leases_(leases)
        , now_(std::chrono::steady_clock::now())
        , holder_(LockQueueModel::tr("holder"))
        , leader_(LockQueueModel::tr("leader")) {}

    void add(const etcd::LockQueue& queue) {
        const etcd::QueueKind kind = queue.kind();
        const Text kindText(recipeWord(kind));
        const Text& first = kind == etcd::QueueKind::Election ? leader_ : holder_;
        const std::string lock = displayKey(queue.name);
        const qsizetype lockWidth = utf16Length(lock);
        std::string key, previous; // this key's text and the one before it (a waiter's predecessor)
        const etcd::LockKey* previousKey = nullptr;
        char digits[24];
        const auto decimal = [&](auto number) {
            return std::string_view(
                digits, std::to_chars(digits, digits + sizeof digits, number).ptr - digits);
        };
        for (std::size_t row = 0; row < queue.keys.size(); ++row) {
            const etcd::LockKey& k = queue.keys[row];
            key = displayKey(k.key);
            table_.addCell(lock, lockWidth, false);
            add(kindText, false);
            if (row > 0) {
                const std::string_view position = decimal(row);
                table_.addCell(position, static_cast<qsizetype>(position.size()), true);
            } else {
                add(first, true);
            }
            table_.addCell(key, utf16Length(key), false);
            char hex[16];
            const std::string_view lease(
                hex,
                std::to_chars(hex, hex + sizeof hex, static_cast<uint64_t>(k.lease), 16).ptr - hex);
            table_.addCell(lease, static_cast<qsizetype>(lease.size()), false);
            const std::string_view revision = decimal(k.createRevision);
            table_.addCell(revision, static_cast<qsizetype>(revision.size()), true);
            const Ttl& ttl = ttlOf(k.lease);
            add(ttl.text, ttl.right);
            add(ttl.granted, true);
            const etcd::LockKey* waitsOn = queue.waitsOn(row);
            if (!waitsOn) {
                table_.addCell(std::string_view(), 0, false);
            } else if (waitsOn == previousKey) {
                table_.addCell(previous, utf16Length(previous), false);
            } else {
                const std::string text = displayKey(waitsOn->key);
                table_.addCell(text, utf16Length(text), false);
            }
            if (k.value.empty())
                table_.addCell(std::string_view(), 0, false);
            else
                table_.addCell(shortValueText(k.value), false);
            previous.swap(key);
            previousKey = &k;
        }
    }

private:
    // A cell's text as the model's QString gives it, in UTF-8 once for every row that shows it.
    struct Text {
        Text() = default;
        explicit Text(const QString& text)
            : utf8(text.toStdString())
            , width(text.size()) {}
        std::string utf8;
        qsizetype width = 0;
    };
    struct Ttl {
        Text text; // as LeaseCountdown's cell says it, empty without a lookup
        bool right = false;
        Text granted; // the Granted column: "%1 s", empty without a lookup
    };
    void add(const Text& text, bool right) { table_.addCell(text.utf8, text.width, right); }
    const Ttl& ttlOf(int64_t lease) {
        const auto [at, added] = ttls_.try_emplace(lease);
        if (added)
            if (const auto countdown = LeaseCountdown::of(leases_, lease)) {
                at->second.text = Text(countdown->data(now_, Qt::DisplayRole).toString());
                const QVariant alignment = countdown->data(now_, Qt::TextAlignmentRole);
                at->second.right =
                    alignment.isValid() && (alignment.value<Qt::Alignment>() & Qt::AlignRight);
                at->second.granted =
                    Text(LockQueueModel::tr("%1 s").arg(countdown->ttl.grantedTtlSeconds));
            }
        return at->second;
    }

    TextTable& table_;
    const std::map<int64_t, etcd::LeaseTtl>& leases_;
    std::chrono::steady_clock::time_point now_;
    Text holder_, leader_;
    std::unordered_map<int64_t, Ttl> ttls_;
};

} // namespace

void printLockState(const etcd::LockMonitorState& state, const std::string& prefix, bool json) {
    if (json) {
        JsonWriter json(stdout);
        writeLockStateJson(state, json);
        json.flush();
        std::putchar('\n');
        return;
    }
    // One table of every lock's queue in turn, without the Waiting column: one read cannot tell
    // how long a key has waited. One model shows each queue in turn, its rows copied as text: a
    // proxy stacking a model per lock found each row among them all (100k locks: hours).
    LockQueueModel queue;
    TextTable table(queue,
                    {LockQueueModel::Lock, LockQueueModel::Kind, LockQueueModel::Position,
                     LockQueueModel::Key, LockQueueModel::Lease, LockQueueModel::CreateRevision,
                     LockQueueModel::Ttl, LockQueueModel::GrantedTtl, LockQueueModel::Predecessor,
                     LockQueueModel::Value});
    std::size_t keys = 0;
    for (const auto& [name, lock] : state.locks)
        keys += lock->keys.size();
    table.reserve(keys, 160); // a Go lock key's row: its lock, key, waits-on key, lease, TTLs
    QueueRows rows(table, state.leases);
    for (const auto& [name, lock] : state.locks) {
        if (lock->kind() != etcd::QueueKind::RwMutex) {
            rows.add(*lock);
            continue;
        }
        queue.setQueue(&*lock, state.leases);
        table.addRows(queue);
    }
    const int lockCount = static_cast<int>(state.locks.size());
    std::fputs(
        qPrintable(QCoreApplication::translate("lockscopectl", "revision %1, %n lock(s) under %2\n",
                                               nullptr, lockCount)
                       .arg(state.revision)
                       .arg(QString::fromStdString(displayKey(prefix)))),
        stdout);
    if (!state.locks.empty())
        table.write(stdout);
    for (const auto& [name, anomalies] : state.anomalies)
        for (const auto& anomaly : anomalies)
            std::fputs(
                qPrintable(QCoreApplication::translate("lockscopectl", "anomaly: %1: %2: %3\n")
                               .arg(QString::fromStdString(displayKey(anomaly.key)),
                                    etcd::anomalyKindName(anomaly.kind),
                                    QString::fromStdString(anomaly.detail))),
                stdout);
}

} // namespace lockscope
