#pragma once

#include <QFrame>
#include <optional>

class QLabel;
class QLineEdit;

namespace lockscope {

class ElidedLabel;
class TtlBar;

// Who holds a lock, at a glance: key, lease, fencing token, how long it has held, its TTL as a
// bar against the TTL it was granted, and the key's value; above them, when this window took the
// lock, where ours stands. An election's leader reads as one: its revision (no fencing token)
// and its proposal. Fed with plain values.
class HolderCard : public QFrame {
    Q_OBJECT
public:
    struct Holder {
        QString key;
        QString leaseHex;
        qint64 fencingToken = 0;                   // the key's create revision
        QString heldFor;                           // "12.3 s", "≥ 2 min 05 s"
        std::optional<double> ttlRemainingSeconds; // unknown until looked up; -1 when gone
        qint64 ttlGrantedSeconds = 0;
        QString value;
        QString heldForWhy;    // for a "≥": why it is a lower bound (the tooltip)
        bool election = false; // a leader and its proposal, not a lock holder and its value
        bool leased = true;    // false: a key without a lease, held until it is deleted
        QString recipe = {};   // the lock's recipe ("single key"), and which clients write it
        QString recipeWhy = {};
        // Whether the TTL stands for the lease now, and if not why: no countdown then.
        enum class Staleness {
            Fresh,
            NotLookedUp, // its last look-up is older than its TTL (too many leases to look up)
            EtcdSilent,  // etcd has not answered the watch for a while: nothing shown is current
        };
        Staleness ttlStale = Staleness::Fresh;
    };

    // Our own lock's state, coloured by how it stands.
    struct OwnLock {
        enum class Tone { Pending, Good, Bad, Ended };
        QString text; // one line; elided when long, whole in the tooltip
        Tone tone = Tone::Ended;
    };

    explicit HolderCard(QWidget* parent = nullptr);

    void setHolder(const Holder& holder);
    // No lock selected, or nobody holds it: `why` says which.
    void clear(const QString& why);
    // Shows where our own lock stands, whoever holds it now (nullopt: we never took it).
    void setOwnLock(const std::optional<OwnLock>& own);

    QString key() const;

private:
    QLabel* title_;
    ElidedLabel* ownLock_;
    QLineEdit* key_;
    QLineEdit* lease_;
    QLineEdit* fencingToken_;
    QLabel* heldFor_;
    TtlBar* ttl_;
    QLineEdit* value_;
    QLineEdit* recipe_;
    QWidget* details_;
};

} // namespace lockscope
