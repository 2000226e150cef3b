#include "etcdclient/alarms.h"

#include "etcdclient/hex_id.h"
#include "rpc.pb.h"

#include <map>

namespace etcd {

std::vector<RaisedAlarm> raisedAlarms(const etcdserverpb::AlarmResponse& response) {
    std::vector<RaisedAlarm> out;
    for (const auto& alarm : response.alarms())
        if (alarm.alarm() != etcdserverpb::NONE)
            out.push_back({alarm.memberid(), static_cast<int>(alarm.alarm())});
    return out;
}

std::string alarmTypeName(int type) {
    switch (type) {
    case etcdserverpb::NOSPACE: return "NOSPACE";
    case etcdserverpb::CORRUPT: return "CORRUPT";
    default: return "ALARM" + std::to_string(type);
    }
}

std::string alarmCure(int type) {
    switch (type) {
    case etcdserverpb::NOSPACE:
        return "the database reached its quota (--quota-backend-bytes) and etcd refuses every "
               "write until the alarm is disarmed: free space (delete what filled it, compact "
               "old revisions: etcdctl compact REV), defragment each member (etcdctl defrag), "
               "then etcdctl alarm disarm";
    case etcdserverpb::CORRUPT:
        return "a member's data differs from the others' and etcd refuses writes: replace that "
               "member (remove it, wipe its data, add it again), then etcdctl alarm disarm";
    default: return "see etcdctl alarm list";
    }
}

std::string describeAlarms(const std::vector<RaisedAlarm>& alarms) {
    std::map<int, std::vector<uint64_t>> membersByType; // a full cluster raises NOSPACE on each
    for (const RaisedAlarm& alarm : alarms)
        membersByType[alarm.type].push_back(alarm.memberId);
    std::string text;
    for (const auto& [type, members] : membersByType) {
        if (!text.empty())
            text += "; ";
        text += alarmTypeName(type) + (members.size() == 1 ? " on member " : " on members ");
        for (std::size_t i = 0; i < members.size(); ++i)
            text += (i == 0 ? "" : ", ") + hexId(members[i]);
        text += ": " + alarmCure(type);
    }
    return text;
}

} // namespace etcd
