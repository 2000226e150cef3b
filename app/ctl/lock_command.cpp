#include "app/ctl/lock_command.h"

#include "app/core/key_text.h"
#include "app/core/lock_backend.h"
#include "app/core/lossless_arguments.h"
#include "app/core/retry_backoff.h"
#include "app/ctl/signal_wait.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "etcdclient/lease_ttl.h"
#include "etcdclient/locks/session.h"
#include "process/spawn.h"

#include <QCoreApplication>
#include <QStringList>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <optional>

namespace lockscope {

namespace {

// What the client's thread tells the main thread.
struct Outcome {
    std::mutex mutex;
    std::optional<etcd::Error> lost;

    std::optional<etcd::Error> readLost() {
        std::lock_guard lock(mutex);
        return lost;
    }
};

// One lock held by this process, released on every way out.
class LockHolder {
public:
    LockHolder(etcd::Client& client, std::shared_ptr<etcd::Session> session,
               const LockCommandOptions& options)
        : session_(std::move(session))
        , lock_(makeLockBackend(options.serverLock ? LockBackendKind::ServerLock
                                                   : LockBackendKind::Mutex,
                                client, session_, options.name, options.mode)) {
        lock_->onLost([outcome = outcome_](const etcd::Error& e) {
            std::lock_guard lock(outcome->mutex);
            outcome->lost = e;
        });
    }
    ~LockHolder() {
        // Neither our key nor our lease outlives the process; the revoke alone would delete
        // the key, the unlock says so sooner.
        etcd::releaseAndCloseNow(
            [this](auto done) { lock_->unlock([done](const etcd::Error&) { done(); }); },
            *session_);
    }

    LockBackend& lock() { return *lock_; }
    Outcome& outcome() { return *outcome_; }

    // Queues and waits; a signal meanwhile cancels the wait.
    etcd::Error lock(bool& interrupted) {
        return waitUnlessInterrupted([this](ErrorCallback done) { lock_->lock(std::move(done)); },
                                     [this] { lock_->cancel(); }, interrupted);
    }

    etcd::Result<bool> tryLock() {
        return etcd::waitFor<etcd::Result<bool>>(
            [this](auto done) { lock_->tryLock(std::move(done)); });
    }

private:
    std::shared_ptr<etcd::Session> session_;
    std::unique_ptr<LockBackend> lock_;
    std::shared_ptr<Outcome> outcome_ = std::make_shared<Outcome>();
};

int holdUntilSignal(LockHolder& holder) {
    std::printf("%s\n", displayKey(holder.lock().key()).c_str());
    std::fflush(stdout);
    while (true) {
        if (isTermination(nextSignal()))
            return ExitOk;
        if (auto lost = holder.outcome().readLost()) {
            say(lost->message);
            return ExitLockLost;
        }
    }
}

int runWhileHolding(LockHolder& holder, const std::vector<std::string>& command) {
    const process::Spawned child =
        process::spawn({.argv = command,
                        .environment = {"LOCKSCOPE_LOCK_KEY=" + holder.lock().key(),
                                        "LOCKSCOPE_FENCING_TOKEN=" +
                                            std::to_string(holder.lock().fencingToken())}});
    if (!child.ok()) {
        say(child.error); // e.g. "cannot run no-such-tool: not found in PATH"
        return ExitCannotRunCommand;
    }
    while (true) {
        const int sig = nextSignal();
        if (isTermination(sig))
            ::kill(child.pid, sig); // pass it on; we release once the command has exited
        if (const auto exitCode = process::waitForExit(child.pid, std::chrono::milliseconds(0)))
            return *exitCode;
        if (auto lost = holder.outcome().readLost()) {
            process::stopProcess(child.pid, SIGTERM, std::chrono::seconds(5));
            say(QCoreApplication::translate("lockscopectl", "%1; the command was terminated")
                    .arg(QString::fromStdString(lost->message)));
            return ExitLockLost;
        }
    }
}

// How one attempt at the lock ended: an exit code, or a wait that failed and may be retried.
struct Attempt {
    std::optional<int> exitCode;
    etcd::Error waitFailed;
};

// One session, one place in the queue; the holder releases both on the way out.
Attempt attempt(etcd::Client& client, std::shared_ptr<etcd::Session> session,
                const LockCommandOptions& options) {
    LockHolder holder(client, std::move(session), options);
    if (options.tryOnly) {
        auto tried = holder.tryLock();
        if (!tried) {
            say(tried.error().message);
            return {ExitFailed, {}};
        }
        if (!tried.value()) {
            say(QCoreApplication::translate("lockscopectl", "%1 is held by someone else")
                    .arg(QString::fromStdString(displayKey(options.name))));
            return {ExitLockHeldElsewhere, {}};
        }
    } else {
        bool interrupted = false;
        const etcd::Error locked = holder.lock(interrupted);
        if (interrupted) {
            say(QCoreApplication::translate("lockscopectl", "interrupted while waiting for %1; "
                                                            "our place in the queue was removed")
                    .arg(QString::fromStdString(displayKey(options.name))));
            return {ExitFailed, {}};
        }
        if (!locked.ok())
            return {std::nullopt, locked};
    }
    return {options.command.empty() ? holdUntilSignal(holder)
                                    : runWhileHolding(holder, options.command),
            {}};
}

int hold(const ConnectionOptions& connection, const LockCommandOptions& options) {
    int exitCode = ExitOk;
    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    RetryBackoff backoff;
    while (true) {
        auto session = etcd::startSession(*client, options.ttlSeconds);
        etcd::Error failed;
        if (session) {
            const Attempt outcome = attempt(*client, *session, options);
            if (outcome.exitCode)
                return *outcome.exitCode;
            failed = outcome.waitFailed;
        } else if (backoff.attempts() == 0) {
            // Never reached the cluster: nothing to wait for, as etcdctl lock does.
            say(QCoreApplication::translate("lockscopectl", "cannot start a session: %1")
                    .arg(QString::fromStdString(session.error().message)));
            return exitCodeFor(session.error().code);
        } else {
            failed = session.error();
        }
        if (!options.retry || !RetryBackoff::worthRetrying(failed)) {
            say(failed.message);
            return exitCodeFor(failed.code);
        }
        const auto delay = backoff.next();
        const QString name = QString::fromStdString(displayKey(options.name));
        say(QCoreApplication::translate("lockscopectl", "waiting for %1 failed (attempt %2): %3; "
                                                        "queueing again in %4 s")
                .arg(name)
                .arg(backoff.attempts())
                .arg(QString::fromStdString(failed.message),
                     QString::fromStdString(RetryBackoff::seconds(delay))));
        if (interruptedWithin(delay)) {
            say(QCoreApplication::translate("lockscopectl",
                                            "interrupted while waiting for %1 to queue again")
                    .arg(name));
            return ExitFailed;
        }
    }
}

} // namespace

bool parseLockArguments(const QStringList& arguments, LockCommandOptions& options,
                        QString& problem) {
    const auto takeCommand = [&](int from) {
        for (int i = from; i < arguments.size(); ++i)
            options.command.push_back(argumentBytes(arguments[i]));
    };
    for (int i = 1; i < arguments.size(); ++i) {
        const QString& arg = arguments[i];
        if (arg == "--") {
            takeCommand(i + 1);
            break;
        }
        if (arg == "--read" || arg == "--write") {
            const auto mode = arg == "--read" ? etcd::KeyMode::Read : etcd::KeyMode::Write;
            if (options.mode != etcd::KeyMode::Exclusive && options.mode != mode) {
                problem = QCoreApplication::translate(
                    "lockscopectl", "lock: --read and --write exclude each other: take one");
                return false;
            }
            options.mode = mode;
        } else if (arg == "--try") {
            options.tryOnly = true;
        } else if (arg == "--no-retry") {
            options.retry = false;
        } else if (arg == "--server-lock") {
            options.serverLock = true;
        } else if (arg == "--force") {
            options.force = true;
        } else if (arg == "--ttl" || arg.startsWith("--ttl=")) {
            const QString value = arg == "--ttl"
                                      ? (i + 1 < arguments.size() ? arguments[++i] : QString())
                                      : arg.mid(6);
            bool ok = false;
            options.ttlSeconds = value.toLongLong(&ok);
            if (!ok || options.ttlSeconds <= 0) {
                problem =
                    QCoreApplication::translate(
                        "lockscopectl", "--ttl takes a whole number of seconds above 0, not \"%1\"")
                        .arg(displayKeyText(argumentBytes(value)));
                return false;
            }
        } else if (arg.startsWith("-")) {
            problem = QCoreApplication::translate("lockscopectl",
                                                  "lock: unknown flag %1 (use --read, --write, "
                                                  "--ttl N, --try, --server-lock, --force, "
                                                  "--no-retry, -- COMMAND)")
                          .arg(displayKeyText(argumentBytes(arg)));
            return false;
        } else if (options.name.empty()) {
            std::string why;
            const auto name = parseKeyText(argumentBytes(arg), why);
            if (!name || name->empty()) {
                problem = QCoreApplication::translate("lockscopectl", "lock NAME: %1")
                              .arg(name ? QCoreApplication::translate("lockscopectl", "it is empty")
                                        : QString::fromStdString(why));
                return false;
            }
            options.name = *name;
        } else {
            takeCommand(i); // etcdctl's form: the command without "--"
            break;
        }
    }
    if (options.name.empty()) {
        problem = QCoreApplication::translate(
            "lockscopectl",
            "lock needs a lock name: lockscopectl lock NAME [--read|--write] "
            "[--ttl N] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND]");
        return false;
    }
    if (options.serverLock && options.tryOnly) {
        problem = QCoreApplication::translate(
            "lockscopectl", "--try and --server-lock do not go together: etcd's Lock service "
                            "has no try-lock; leave out one of them");
        return false;
    }
    if (options.serverLock && options.mode != etcd::KeyMode::Exclusive) {
        problem = QCoreApplication::translate(
            "lockscopectl", "--server-lock takes exclusive locks only: etcd's Lock service has "
                            "no readers or writers; leave out --read/--write or --server-lock");
        return false;
    }
    if (const std::string ttlProblem = etcd::leaseTtlProblem(options.ttlSeconds);
        !ttlProblem.empty()) {
        problem = QCoreApplication::translate("lockscopectl", "--ttl: %1")
                      .arg(QString::fromStdString(ttlProblem));
        return false;
    }
    if (const std::string warning = etcd::longLeaseTtlWarning(options.ttlSeconds);
        !warning.empty() && !options.force) {
        problem =
            QCoreApplication::translate("lockscopectl", "--ttl: %1; add --force to use it anyway")
                .arg(QString::fromStdString(warning));
        return false;
    }
    return true;
}

int runLockCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    LockCommandOptions options;
    QString problem;
    if (!parseLockArguments(arguments, options, problem)) {
        say(QCoreApplication::translate("lockscopectl", "%1\nRun 'lockscopectl --help' for usage.")
                .arg(problem));
        return ExitUsage;
    }
    blockHoldSignals(); // before the client starts its thread, so they wait for sigtimedwait
    return hold(connection, options);
}

} // namespace lockscope
