#include "app/core/blockers_json.h"

#include "app/core/json_writer.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lease_evidence.h"

namespace lockscope {

namespace {

void writeSession(JsonWriter& json, const etcd::SessionId& session) {
    json.beginObject().key("lease").value(session.lease);
    json.key("lease_hex").value(etcd::leaseHex(session.lease));
    if (session.lease == 0)
        json.bytesField("key", session.key);
    json.endObject();
}

void writeWaits(JsonWriter& json, const std::vector<etcd::Wait>& waits) {
    json.beginArray();
    for (const etcd::Wait& wait : waits) {
        json.beginObject().bytesField("lock", wait.lock);
        json.bytesField("waiting_key", wait.waitingKey).bytesField("on_key", wait.onKey);
        writeSession(json.key("waiter"), wait.waiter);
        writeSession(json.key("on"), wait.on);
        json.endObject();
    }
    json.endArray();
}

} // namespace

std::string blockersJson(const etcd::WaitForGraph& graph,
                         const std::vector<etcd::Deadlock>& deadlocks,
                         const etcd::LockMonitorState& state) {
    JsonWriter json;
    json.beginObject().key("revision").value(state.revision);
    json.key("sessions_waiting").value(static_cast<int64_t>(graph.sessionsWaiting()));
    json.key("deadlocks").beginArray();
    for (const etcd::Deadlock& deadlock : deadlocks) {
        json.beginObject().key("sessions").beginArray();
        for (const etcd::SessionId& session : deadlock.sessions)
            writeSession(json, session);
        json.endArray();
        writeWaits(json.key("waits"), deadlock.waits);
        writeSession(json.key("break_by"), deadlock.breakBy);
        json.key("break_loses_held").value(static_cast<int64_t>(deadlock.breakLosesHeld));
        json.endObject();
    }
    json.endArray().key("root_blockers").beginArray();
    for (const etcd::RootBlocker& root : graph.rootBlockers()) {
        json.beginObject();
        writeSession(json.key("session"), root.session);
        json.key("held").value(static_cast<int64_t>(root.held));
        json.key("direct").value(static_cast<int64_t>(root.direct));
        json.key("transitive").value(static_cast<int64_t>(root.transitive));
        const auto ttl = state.leases.find(root.session.lease);
        const bool known = root.session.lease != 0 && ttl != state.leases.end();
        if (known) {
            json.key("ttl").value(ttl->second.ttlSeconds);
            json.key("granted_ttl").value(ttl->second.grantedTtlSeconds);
        } else {
            json.key("ttl").null().key("granted_ttl").null();
        }
        json.key("unrenewed").value(known && etcd::leaseUnrenewed(ttl->second));
        writeWaits(json.key("waits"), graph.waitsBehind(root.session));
        json.endObject();
    }
    json.endArray().endObject();
    return json.text();
}

} // namespace lockscope
