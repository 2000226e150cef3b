#include "app/core/lock_json.h"

#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "etcdclient/hex_id.h"

#include <charconv>

namespace lockscope {

namespace {

void writeKey(JsonWriter& json, const etcd::LockKey& key, const etcd::LockMonitorState& state) {
    json.bytesField("key", key.key);
    json.key("lease").value(key.lease);
    char hex[16]; // leaseHex without a string of its own: to_chars writes the same digits
    json.key("lease_hex")
        .value(std::string_view(
            hex, std::to_chars(hex, hex + sizeof hex, static_cast<uint64_t>(key.lease), 16).ptr));
    json.key("create_revision").value(key.createRevision);
    json.key("mod_revision").value(key.modRevision);
    json.bytesField("value", key.value, displayValue(key.value));
    auto ttl = state.leases.find(key.lease);
    if (ttl == state.leases.end()) {
        json.key("ttl").null();
        json.key("granted_ttl").null();
    } else {
        json.key("ttl").value(ttl->second.ttlSeconds);
        json.key("granted_ttl").value(ttl->second.grantedTtlSeconds);
    }
}

} // namespace

std::string lockStateJson(const etcd::LockMonitorState& state) {
    JsonWriter json;
    writeLockStateJson(state, json);
    return json.text();
}

void writeLockStateJson(const etcd::LockMonitorState& state, JsonWriter& json) {
    json.beginObject().key("revision").value(state.revision).key("locks").beginArray();
    for (const auto& [name, queue] : state.locks) {
        json.beginObject().bytesField("name", name);
        const etcd::QueueKind kind = queue->kind();
        const bool rw = kind == etcd::QueueKind::RwMutex;
        // An RWMutex's keys say what they ask for, and its leading readers hold together.
        auto writeQueued = [&](const etcd::LockKey& key) {
            writeKey(json, key, state);
            if (rw)
                json.key("mode").value(etcd::keyModeName(key.mode));
        };
        const std::size_t holders = queue->holderCount();
        json.key("kind").value(etcd::queueKindName(kind));
        json.key("recipe").value(etcd::queueKindName(kind));
        json.key("recipe_assumed").value(queue->assumed.has_value());
        json.key("waiters_visible").value(queue->waitersVisible());
        json.key("holder").beginObject();
        writeQueued(queue->keys.front());
        json.endObject();
        if (rw) {
            json.key("holders").beginArray();
            for (std::size_t i = 0; i < holders; ++i) {
                json.beginObject();
                writeQueued(queue->keys[i]);
                json.endObject();
            }
            json.endArray();
        }
        json.key("waiters").beginArray();
        for (std::size_t i = holders; i < queue->keys.size(); ++i) {
            json.beginObject();
            writeQueued(queue->keys[i]);
            json.key("position").value(static_cast<int64_t>(i));
            json.bytesField("waits_for", queue->waitsOn(i)->key);
            json.endObject();
        }
        json.endArray().endObject();
    }
    json.endArray().key("anomalies").beginArray();
    for (const auto& [name, anomalies] : state.anomalies)
        for (const auto& a : anomalies)
            json.beginObject()
                .bytesField("key", a.key)
                .key("kind")
                .value(etcd::anomalyKindName(a.kind))
                .key("detail")
                .value(a.detail)
                .endObject();
    json.endArray().endObject();
}

std::string lockEventJson(const etcd::LockEvent& event) {
    return lockEventJson(event, etcd::lockEventKindName(event.kind));
}

std::string lockEventJson(const etcd::LockEvent& event, const char* eventName) {
    JsonWriter json;
    json.beginObject()
        .key("event")
        .value(eventName)
        .bytesField("lock", event.lock)
        .key("recipe")
        .value(etcd::queueKindName(event.recipe))
        .bytesField("key", event.key)
        .key("lease")
        .value(event.lease)
        .key("lease_hex")
        .value(etcd::leaseHex(event.lease))
        .key("revision")
        .value(event.revision)
        .key("create_revision")
        .value(event.createRevision)
        .key("observed_at")
        .value(isoTime(event.observedAt));
    json.key("waited_ms");
    event.waited ? json.value(static_cast<int64_t>(event.waited->count())) : json.null();
    json.key("held_ms");
    event.held ? json.value(static_cast<int64_t>(event.held->count())) : json.null();
    json.key("recovered").value(event.recovered);
    json.key("at_least").value(event.atLeast);
    json.key("waited_at_most_ms");
    event.waitedAtMost ? json.value(static_cast<int64_t>(event.waitedAtMost->count()))
                       : json.null();
    json.key("held_at_most_ms");
    event.heldAtMost ? json.value(static_cast<int64_t>(event.heldAtMost->count())) : json.null();
    json.endObject();
    return json.text();
}

std::string lockEventLine(const etcd::LockEvent& event) {
    std::string line = isoTime(event.observedAt) + "  " + etcd::lockEventKindName(event.kind) +
                       "  " + displayKey(event.lock) + "  " + displayKey(event.key) + "  lease " +
                       etcd::leaseHex(event.lease) + "  rev " + std::to_string(event.revision);
    // "held 900 ms", "held ≥ 900 ms", and after a gap "held 900–2700 ms" or "held ≤ 2700 ms".
    auto duration = [&](const char* what, const std::optional<std::chrono::milliseconds>& at,
                        const std::optional<std::chrono::milliseconds>& atMost) {
        if (!at && !atMost)
            return;
        line += std::string("  ") + what + " ";
        if (at && atMost)
            line += std::to_string(at->count()) + "–" + std::to_string(atMost->count());
        else if (atMost)
            line += "≤ " + std::to_string(atMost->count());
        else
            line += (event.atLeast ? "≥ " : "") + std::to_string(at->count());
        line += " ms";
    };
    duration("waited", event.waited, event.waitedAtMost);
    duration("held", event.held, event.heldAtMost);
    if (event.recovered)
        line += "  (recovered after a gap)";
    return line;
}

} // namespace lockscope
