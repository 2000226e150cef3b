#pragma once

#include <QObject>
#include <QPointer>
#include <string>

namespace etcd {
class Client;
}

namespace lockscope {

// Looks at a prefix before its locks are loaded: how many keys it holds, and whether they are
// lock-shaped (etcd::surveyPrefix, one Range that reads a page of keys at most). A prefix with
// more than MaxOtherKeys keys that are not locks is tooBroad, so the user can narrow it before
// a whole keyspace is loaded; otherwise, or when etcd does not answer (the watch then says
// why), fine. Answers arrive on the GUI thread; nothing waits. A new check drops the last.
class PrefixCheck : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 MaxOtherKeys = 10000;
    static constexpr qint64 SampleKeys = 1000;

    explicit PrefixCheck(QObject* parent = nullptr);

    // The client must outlive the answer, or the check must be dropped (a new check, or the
    // PrefixCheck destroyed) before the client goes.
    void check(etcd::Client& client, const std::string& prefix);
    // The answer of a check under way is dropped (its connection is going).
    void drop() { ++generation_; }

signals:
    void fine(const std::string& prefix);
    void tooBroad(const std::string& prefix, qint64 keys, qint64 otherKeys);

private:
    quint64 generation_ = 0; // of the newest check: older answers are dropped
};

} // namespace lockscope
