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
           ttl.fetchedAt == other.ttl.fetchedAt && ttl.jumpedUp == other.ttl.jumpedUp;
}

} // namespace lockscope
