#include "app/ctl/lock_command.h"

#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/core/retry_backoff.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "etcdclient/lease_ttl.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/rw_mutex.h"
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

sigset_t lockSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    return set;
}

// Waits up to `wait` (100 ms by default) for one of the blocked signals; 0 when none came.
int nextSignal(std::chrono::milliseconds wait = std::chrono::milliseconds(100)) {
    const sigset_t set = lockSignals();
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait);
    timespec tick{static_cast<time_t>(seconds.count()),
                  static_cast<long>(std::chrono::nanoseconds(wait - seconds).count())};
    const int sig = ::sigtimedwait(&set, nullptr, &tick);
    return sig > 0 ? sig : 0;
}

// Sleeps for `delay` unless SIGINT or SIGTERM comes first: true when one did.
bool interruptedWithin(std::chrono::milliseconds delay) {
    const auto until = std::chrono::steady_clock::now() + delay;
    for (auto left = delay; left.count() > 0;
         left = std::chrono::duration_cast<std::chrono::milliseconds>(
             until - std::chrono::steady_clock::now())) {
        const int sig = nextSignal(left);
        if (sig == SIGINT || sig == SIGTERM)
            return true;
    }
    return false;
}

// What the client's thread tells the main thread.
struct Outcome {
    std::mutex mutex;
    std::optional<etcd::Error> locked;
    std::optional<etcd::Error> lost;

    template <class T> std::optional<T> read(std::optional<T> Outcome::*field) {
        std::lock_guard lock(mutex);
        return this->*field;
    }
};

// One lock held by this process, released on every way out.
class LockHolder {
public:
    LockHolder(etcd::Client& client, std::shared_ptr<etcd::Session> session,
               const std::string& name, etcd::KeyMode mode)
        : session_(std::move(session))
        , mutex_(etcd::createLock(client, session_, name, mode)) {
        mutex_->onLost([outcome = outcome_](const etcd::Error& e) {
            std::lock_guard lock(outcome->mutex);
            outcome->lost = e;
        });
    }
    ~LockHolder() {
        // Neither our key nor our lease outlives the process; the revoke alone would delete
        // the key, the unlock says so sooner.
        etcd::unlockAndCloseNow(*mutex_, *session_);
    }

    etcd::Mutex& mutex() { return *mutex_; }
    Outcome& outcome() { return *outcome_; }

    // Queues and waits; a signal meanwhile cancels the wait.
    etcd::Error lock(bool& interrupted) {
        mutex_->lock([outcome = outcome_](const etcd::Error& e) {
            std::lock_guard lock(outcome->mutex);
            outcome->locked = e;
        });
        while (!outcome_->read(&Outcome::locked)) {
            const int sig = nextSignal();
            if ((sig == SIGINT || sig == SIGTERM) && !interrupted) {
                interrupted = true;
                mutex_->cancel();
            }
        }
        return *outcome_->read(&Outcome::locked);
    }

    etcd::Result<bool> tryLock() { return etcd::tryLockNow(*mutex_); }

private:
    std::shared_ptr<etcd::Session> session_;
    std::shared_ptr<etcd::Mutex> mutex_;
    std::shared_ptr<Outcome> outcome_ = std::make_shared<Outcome>();
};

int holdUntilSignal(LockHolder& holder) {
    std::printf("%s\n", displayKey(holder.mutex().key()).c_str());
    std::fflush(stdout);
    while (true) {
        const int sig = nextSignal();
        if (sig == SIGINT || sig == SIGTERM)
            return ExitOk;
        if (auto lost = holder.outcome().read(&Outcome::lost)) {
            say(lost->message);
            return ExitLockLost;
        }
    }
}

int runWhileHolding(LockHolder& holder, const std::vector<std::string>& command) {
    const process::Spawned child =
        process::spawn({.argv = command,
                        .environment = {"LOCKSCOPE_LOCK_KEY=" + holder.mutex().key(),
                                        "LOCKSCOPE_FENCING_TOKEN=" +
                                            std::to_string(holder.mutex().fencingToken())}});
    if (!child.ok()) {
        say(child.error); // e.g. "cannot run no-such-tool: not found in PATH"
        return ExitCannotRunCommand;
    }
    while (true) {
        const int sig = nextSignal();
        if (sig == SIGINT || sig == SIGTERM)
            ::kill(child.pid, sig); // pass it on; we release once the command has exited
        if (const auto exitCode = process::waitForExit(child.pid, std::chrono::milliseconds(0)))
            return *exitCode;
        if (auto lost = holder.outcome().read(&Outcome::lost)) {
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
    LockHolder holder(client, std::move(session), options.name, options.mode);
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
            problem = QCoreApplication::translate(
                          "lockscopectl", "lock: unknown flag %1 (use --read, --write, "
                                          "--ttl N, --try, --force, --no-retry, -- COMMAND)")
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
            "lockscopectl", "lock needs a lock name: lockscopectl lock NAME [--read|--write] "
                            "[--ttl N] [--try] [--force] [--no-retry] [-- COMMAND]");
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
    // Before the client starts its thread, so the signals wait for sigtimedwait.
    const sigset_t blocked = lockSignals();
    ::pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
    return hold(connection, options);
}

} // namespace lockscope
