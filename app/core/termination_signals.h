#pragma once

#include <QObject>

class QSocketNotifier;

namespace lockscope {

// Turns SIGINT and SIGTERM into a clean QCoreApplication::quit(), so destructors run: a sandbox
// etcd is stopped and its data directory removed even when LockScope is stopped from a
// terminal (Ctrl-C reaches LockScope only; the sandbox runs in its own process group).
class TerminationSignals : public QObject {
    Q_OBJECT
public:
    // Installs the handlers; one instance per process, living on the application's thread.
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;

private:
    QSocketNotifier* notifier_ = nullptr;
};

} // namespace lockscope
