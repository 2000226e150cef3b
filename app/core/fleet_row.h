#pragma once

#include <QString>
#include <optional>

namespace lockscope {

// One open cluster's figures now, as the cluster sidebar and the fleet overview show them.
struct FleetRow {
    quintptr id = 0; // which open cluster (the window's, never shown)
    QString cluster; // its name: a profile's, "sandbox" or its endpoints
    QString prefix;  // the lock prefix watched, empty before one is chosen
    QString state;   // "Connected", "Reconnecting…", "Authentication failed", … (translated)
    bool healthy = true; // connected and watching, no problem standing
    int64_t revision = 0;
    QString leader;
    std::size_t locks = 0;
    // Over at most MaxLocksWalked locks a second on the GUI thread: unknown past that.
    std::optional<std::size_t> held;
    std::size_t waiting = 0;
    std::optional<qint64> longestWaitMs; // the longest wait now, unknown as held is
    int expiredLastHour = 0;
    int lostLastHour = 0;
    int deadlocks = 0;
    double slowestRoundTripMs = -1; // the slowest member's last answer; -1 before any
    int problems = 0;               // standing, on this cluster
};

} // namespace lockscope
