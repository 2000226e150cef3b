#include "app/core/lease_countdown.h"

#include <QCoreApplication>
#include <cmath>

namespace lockscope {

std::optional<LeaseCountdown> LeaseCountdown::of(const std::map<int64_t, etcd::LeaseTtl>& leases,
                                                 int64_t lease) {
    const auto found = leases.find(lease);
    if (found == leases.end())
        return std::nullopt;
    return LeaseCountdown{found->second};
}

QVariant LeaseCountdown::data(std::chrono::steady_clock::time_point now, int role) const {
    const double remaining = ttl.remainingAt(now);
    if (ttl.stale) {
        // A countdown from a lookup this old says nothing of the lease now: no number, and no
        // bar (a red one would say it runs out).
        switch (role) {
        case Qt::DisplayRole: return QCoreApplication::translate("LeaseCountdown", "stale");
        case Qt::ToolTipRole:
            return QCoreApplication::translate(
                       "LeaseCountdown",
                       "Granted %1 s; last looked up %2 s ago, longer than this lease's TTL "
                       "lets a countdown stand for it: etcd may have renewed or ended it since")
                .arg(ttl.grantedTtlSeconds)
                .arg(std::chrono::duration_cast<std::chrono::seconds>(now - ttl.fetchedAt).count());
        case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return remaining < 0 ? QCoreApplication::translate("LeaseCountdown", "expired")
                             : QStringLiteral("%1 s").arg(std::ceil(remaining));
    case Qt::ToolTipRole:
        return QCoreApplication::translate("LeaseCountdown", "Granted %1 s%2")
            .arg(ttl.grantedTtlSeconds)
            .arg(ttl.jumpedUp ? QCoreApplication::translate("LeaseCountdown",
                                                            "; renewed since the previous look")
                              : QString());
    case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case TtlRemainingRole: return remaining;
    case TtlGrantedRole: return static_cast<qint64>(ttl.grantedTtlSeconds);
    }
    return {};
}

bool LeaseCountdown::operator==(const LeaseCountdown& other) const {
    return ttl.ttlSeconds == other.ttl.ttlSeconds &&
           ttl.grantedTtlSeconds == other.ttl.grantedTtlSeconds &&
           ttl.fetchedAt == other.ttl.fetchedAt && ttl.jumpedUp == other.ttl.jumpedUp &&
           ttl.stale == other.ttl.stale;
}

} // namespace lockscope
