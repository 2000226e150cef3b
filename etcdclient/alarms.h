#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etcdserverpb {
class AlarmResponse;
}

namespace etcd {

// An alarm etcd has raised (Maintenance.Alarm, GET): while NOSPACE is raised etcd refuses
// every write, locks included, until it is disarmed.
struct RaisedAlarm {
    uint64_t memberId = 0;
    int type = 0; // etcdserverpb::AlarmType: NOSPACE 1, CORRUPT 2
    bool operator==(const RaisedAlarm&) const = default;
};

std::vector<RaisedAlarm> raisedAlarms(const etcdserverpb::AlarmResponse& response);
// "NOSPACE", "CORRUPT", or "ALARM<n>" for a type this build does not know.
std::string alarmTypeName(int type);
// What the alarm stops and how to cure it, for an operator.
std::string alarmCure(int type);
// "NOSPACE on member 8e9e05c52164694d: <cure>", one part per type of alarm, joined by "; ".
std::string describeAlarms(const std::vector<RaisedAlarm>& alarms);

} // namespace etcd
