#include "app/ctl/lock_command.h"

#include "app/core/duration_text.h"
#include "app/core/go_duration.h"
#include "app/core/key_text.h"
#include "app/core/lock_backend.h"
#include "app/core/lossless_arguments.h"
#include "app/core/retry_backoff.h"
#include "app/ctl/signal_mailbox.h"
#include "app/ctl/signal_wait.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "etcdclient/clock.h"
#include "etcdclient/lease_ttl.h"
#include "etcdclient/locks/session.h"
#include "process/process_tree.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <optional>

namespace lockscope {

namespace {

// One lock held by this process, released on every way out.
class LockHolder {
public:
    LockHolder(etcd::Client& client, std::shared_ptr<etcd::Session> session,
               const LockCommandOptions& options)
        : session_(std::move(session))
        , lock_(makeLockBackend(options.serverLock  ? LockBackendKind::ServerLock
                                : options.singleKey ? LockBackendKind::SingleKey
                                                    : LockBackendKind::Mutex,
                                client, session_, options.name, options.mode)) {
        // Wakes the main thread's wait: the command is stopped now, not at the next tick.
        lock_->onLost([lost = lost_](const etcd::Error& e) { lost->put(e); });
    }
    ~LockHolder() {
        // Neither our key nor our lease outlives the process; the revoke alone would delete
        // the key, the unlock says so sooner.
        etcd::releaseAndCloseNow(
            [this](auto done) { lock_->unlock([done](const etcd::Error&) { done(); }); },
            *session_);
    }

    LockBackend& lock() { return *lock_; }
    const etcd::Session& session() const { return *session_; }
    // Why the lock was lost, once it was.
    std::optional<etcd::Error> lost() const { return lost_->read(); }

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
    std::shared_ptr<SignalMailbox<etcd::Error>> lost_ =
        std::make_shared<SignalMailbox<etcd::Error>>();
};

int holdUntilSignal(LockHolder& holder) {
    std::printf("%s\n", displayKey(holder.lock().key()).c_str());
    std::fflush(stdout);
    while (true) {
        if (isTermination(nextSignal()))
            return ExitOk;
        if (auto lost = holder.lost()) {
            say(lost->message);
            return ExitLockLost;
        }
    }
}

using Clock = std::chrono::steady_clock;

// A steady-clock instant as the wall clock shows it, to the millisecond: "12:00:03.100".
QString wallClock(Clock::time_point at) {
    const auto ms = static_cast<qint64>(std::llround(etcd::unixSeconds(at) * 1000));
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss.zzz"));
}

// Why and when the command's process group is being stopped: SIGTERM at once, SIGKILL at
// killAt unless the whole group is gone before.
struct Stopping {
    QString why;
    bool lockLost; // exit ExitLockLost, not with the command's status
    Clock::time_point killAt;
    Clock::time_point termSent = Clock::now();
    std::optional<Clock::time_point> killSent{};

    QString report(Clock::time_point gone) const {
        return killSent ? QCoreApplication::translate(
                              "lockscopectl", "%1; SIGTERM to the command's process group at %2, "
                                              "SIGKILL at %3")
                              .arg(why, wallClock(termSent), wallClock(*killSent))
                        : QCoreApplication::translate(
                              "lockscopectl", "%1; SIGTERM to the command's process group at %2, "
                                              "all of it gone by %3")
                              .arg(why, wallClock(termSent), wallClock(gone));
    }
};

// Runs the command while holding the lock. It must be gone by the session's safe deadline
// (docs/design.md, 3a): a successor may take the lock once etcd expires our lease, which it
// may do from Session::deadline() on, even when we cannot tell that we are cut off.
int runWhileHolding(LockHolder& holder, const LockCommandOptions& options) {
    const std::string key = holder.lock().key();
    process::ProcessTree command(
        {.argv = options.command,
         .environment = {
             "LOCKSCOPE_LOCK_KEY=" + key,
             "LOCKSCOPE_LOCK_KEY_B64=" + QByteArray::fromStdString(key).toBase64().toStdString(),
             "LOCKSCOPE_FENCING_TOKEN=" + std::to_string(holder.lock().fencingToken())}});
    if (!command.started()) {
        say(command.error()); // e.g. "cannot run no-such-tool: not found in PATH"
        return ExitCannotRunCommand;
    }
    const etcd::Session& session = holder.session();
    std::optional<Stopping> stopping;
    while (true) {
        const auto now = Clock::now();
        const auto safeDeadline = session.safeDeadline();
        if (!stopping) {
            if (auto lost = holder.lost()) {
                // etcd said so (or our key was deleted): a successor may hold it already.
                stopping = Stopping{QCoreApplication::translate("lockscopectl", "lock lost: %1")
                                        .arg(QString::fromStdString(lost->message)),
                                    true, std::min(now + options.grace, safeDeadline)};
            } else if (now >= safeDeadline - options.grace) {
                // Computed from the last keepalive etcd confirmed, never from when we noticed.
                const auto deadline = session.deadline();
                const auto confirmed = deadline - std::chrono::seconds(session.ttlSeconds());
                stopping =
                    Stopping{QCoreApplication::translate(
                                 "lockscopectl", "lock lost: no keepalive confirmed since %1; etcd "
                                                 "expires the lease at the earliest at %2")
                                 .arg(wallClock(confirmed), wallClock(deadline)),
                             true, safeDeadline};
            } else if (command.exitCode()) {
                stopping = Stopping{
                    QCoreApplication::translate(
                        "lockscopectl", "the command exited, leaving processes in its group"),
                    false, std::min(now + options.grace, safeDeadline)};
            }
            if (stopping)
                command.signal(SIGTERM);
        }
        if (stopping && !stopping->killSent && now >= stopping->killAt) {
            command.signal(SIGKILL);
            stopping->killSent = now;
        }
        const bool gone = command.reap();
        // A process in uninterruptible sleep dies only when its I/O ends; one whose parent left
        // the group is not ours to reap.
        const bool stuck = !gone && stopping && stopping->killSent &&
                           now - *stopping->killSent > std::chrono::seconds(1);
        if (gone || stuck) {
            if (!stopping)
                return command.exitCode().value_or(ExitFailed);
            say(stopping->report(Clock::now()) +
                (stuck ? QCoreApplication::translate("lockscopectl",
                                                     "; some of its processes outlive SIGKILL")
                       : QString()));
            return stopping->lockLost ? ExitLockLost : command.exitCode().value_or(ExitFailed);
        }
        // Woken early by SIGCHLD and by a lost lock, and each 100 ms for the deadlines.
        const auto next = !stopping            ? safeDeadline - options.grace
                          : stopping->killSent ? now + std::chrono::milliseconds(100)
                                               : stopping->killAt;
        const auto wait = std::clamp(std::chrono::ceil<std::chrono::milliseconds>(next - now),
                                     std::chrono::milliseconds(1), std::chrono::milliseconds(100));
        const int sig = nextSignal(wait);
        if (isTermination(sig))
            command.signal(sig); // pass it on; we release once the command has exited
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
    return {options.command.empty() ? holdUntilSignal(holder) : runWhileHolding(holder, options),
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

// The value of flag `name` when arguments[i] is "name value" (i then moves on to the value) or
// "name=value"; nothing when it is another argument.
std::optional<QString> flagValue(const QStringList& arguments, int& i, const QString& name) {
    const QString& arg = arguments[i];
    if (arg == name)
        return i + 1 < arguments.size() ? arguments[++i] : QString();
    if (arg.startsWith(name + '='))
        return arg.mid(name.size() + 1);
    return std::nullopt;
}

// The longest --grace for a TTL: keepalives go every TTL/6 and one unanswered for TTL/3 moves
// to the next member, so a longer grace would stop the command whenever a keepalive is late.
std::chrono::milliseconds longestGrace(int64_t ttlSeconds) {
    return std::chrono::milliseconds(ttlSeconds * 1000 / 2);
}

// `lock --help`: the flags are read by hand (a COMMAND follows, and NAME is bytes), but shown
// as the other commands show theirs.
QString lockHelp() {
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "lockscopectl",
        "Take lock NAME as etcdctl lock does, print its key and hold it until Ctrl-C or "
        "SIGTERM, then release it; or run COMMAND while holding it and exit with its status "
        "(4 when the lock was lost, 3 when --try found it held).\n\n"
        "COMMAND gets LOCKSCOPE_LOCK_KEY (our key's exact bytes), LOCKSCOPE_LOCK_KEY_B64 (the "
        "same in base64) and LOCKSCOPE_FENCING_TOKEN (our key's create revision: compare it in "
        "a Txn to write only while holding). The environment cannot carry a NUL byte, so a "
        "NAME with one is refused when there is a COMMAND.\n\n"
        "COMMAND runs in a session and process group of its own; a lost lock, Ctrl-C, SIGTERM "
        "or an error signals the whole group, and nothing of it outlives lockscopectl. A "
        "process that leaves the group (setsid, setpgid: a daemon) is beyond reach. COMMAND "
        "gets SIGTERM at the safe deadline less the grace and SIGKILL at the safe deadline: "
        "the send time of the last keepalive etcd confirmed plus the TTL, less a margin, "
        "before which etcd cannot expire our lease and hand the lock on. When etcd says the "
        "lease is gone, SIGTERM comes at once."));
    const auto option = [](const QString& name, const char* description,
                           const QString& value = {}) {
        return QCommandLineOption(name, QCoreApplication::translate("lockscopectl", description),
                                  value);
    };
    parser.addOptions({
        option("read",
               QT_TRANSLATE_NOOP("lockscopectl", "A reader of etcd's RWMutex recipe (shared with "
                                                 "readers).")),
        option("write", QT_TRANSLATE_NOOP("lockscopectl", "A writer of etcd's RWMutex recipe.")),
        option("ttl", QT_TRANSLATE_NOOP("lockscopectl", "Our session's lease TTL in seconds (10)."),
               "N"),
        option("grace",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "How long before the safe deadline COMMAND gets SIGTERM, like "
                                 "2s or 500ms: a third of the TTL by default, at least 0.5 s; "
                                 "at most half the TTL."),
               "duration"),
        option("try", QT_TRANSLATE_NOOP("lockscopectl",
                                        "Take the lock only if it is free; exit 3 if not.")),
        option("server-lock",
               QT_TRANSLATE_NOOP("lockscopectl", "Through etcd's Lock service instead of our "
                                                 "Mutex (exclusive locks, no --try).")),
        option("recipe",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "mutex (the default: a queue of keys NAME/<lease id>, as "
                                 "etcdctl lock) or single-key (the key NAME itself, taken as "
                                 "python-etcd3, node etcd3's lock() and tooz take it; its "
                                 "waiters hold no key)."),
               "NAME"),
        option("force", QT_TRANSLATE_NOOP("lockscopectl", "Allow a TTL over a day.")),
        option("no-retry",
               QT_TRANSLATE_NOOP("lockscopectl", "Exit 1 when a wait fails instead of queueing "
                                                 "again.")),
        QCommandLineOption({"h", "help"},
                           QCoreApplication::translate("lockscopectl", "Show this help.")),
    });
    parser.addPositionalArgument(
        "name", QCoreApplication::translate("lockscopectl",
                                            "The lock's name (a key prefix without the trailing "
                                            "/). Any bytes; \\xNN is a byte and \\\\ a "
                                            "backslash."));
    parser.addPositionalArgument(
        "command",
        QCoreApplication::translate("lockscopectl", "What to run while holding the lock."),
        "[-- command args...]");
    return QCoreApplication::translate("lockscopectl", "Usage: %1\n")
               .arg(QStringLiteral("lockscopectl [connection flags] lock NAME [flags] [-- "
                                   "COMMAND ARGS...]")) +
           parser.helpText().section('\n', 1);
}

} // namespace

bool parseLockArguments(const QStringList& arguments, LockCommandOptions& options,
                        QString& problem) {
    const auto takeCommand = [&](int from) {
        for (int i = from; i < arguments.size(); ++i)
            options.command.push_back(argumentBytes(arguments[i]));
    };
    std::optional<std::chrono::milliseconds> grace;
    for (int i = 1; i < arguments.size(); ++i) {
        const QString& arg = arguments[i];
        if (arg == "--") {
            takeCommand(i + 1);
            break;
        }
        if (arg == "--help" || arg == "-h") {
            options.help = true;
            return true;
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
        } else if (const auto recipe = flagValue(arguments, i, "--recipe")) {
            if (*recipe != "mutex" && *recipe != "single-key") {
                problem = QCoreApplication::translate(
                              "lockscopectl",
                              "lock --recipe takes mutex or single-key, not \"%1\" (an RWMutex "
                              "share is --read or --write, an election is lockscopectl elect)")
                              .arg(displayKeyText(argumentBytes(*recipe)));
                return false;
            }
            options.singleKey = *recipe == "single-key";
        } else if (const auto ttl = flagValue(arguments, i, "--ttl")) {
            bool ok = false;
            options.ttlSeconds = ttl->toLongLong(&ok);
            if (!ok || options.ttlSeconds <= 0) {
                problem =
                    QCoreApplication::translate(
                        "lockscopectl", "--ttl takes a whole number of seconds above 0, not \"%1\"")
                        .arg(displayKeyText(argumentBytes(*ttl)));
                return false;
            }
        } else if (const auto graceText = flagValue(arguments, i, "--grace")) {
            grace = parseGoDuration(*graceText);
            if (!grace) {
                problem = QCoreApplication::translate(
                              "lockscopectl", "--grace takes a duration like 2s or 500ms, not "
                                              "\"%1\"")
                              .arg(displayKeyText(argumentBytes(*graceText)));
                return false;
            }
        } else if (arg.startsWith("-")) {
            problem = QCoreApplication::translate("lockscopectl",
                                                  "lock: unknown flag %1 (use --read, --write, "
                                                  "--ttl N, --grace DURATION, --try, "
                                                  "--server-lock, --recipe NAME, --force, "
                                                  "--no-retry, -- "
                                                  "COMMAND; see lockscopectl lock --help)")
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
            "lock needs a lock name: lockscopectl lock NAME [--read|--write] [--ttl N] "
            "[--grace DURATION] [--try] [--server-lock] [--force] [--no-retry] [-- COMMAND]");
        return false;
    }
    if (!options.command.empty() && options.name.find('\0') != std::string::npos) {
        problem = QCoreApplication::translate(
                      "lockscopectl",
                      "lock %1 -- COMMAND: the name holds a NUL byte, which the environment "
                      "cannot carry in LOCKSCOPE_LOCK_KEY; take a name without one")
                      .arg(displayKeyText(options.name));
        return false;
    }
    if (options.serverLock && options.tryOnly) {
        problem = QCoreApplication::translate(
            "lockscopectl", "--try and --server-lock do not go together: etcd's Lock service "
                            "has no try-lock; leave out one of them");
        return false;
    }
    if (options.singleKey && (options.serverLock || options.mode != etcd::KeyMode::Exclusive)) {
        problem = QCoreApplication::translate(
            "lockscopectl", "--recipe single-key is a lock of one key: it goes with neither "
                            "--server-lock nor --read/--write; leave out one of them");
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
    options.grace = grace.value_or(std::max(
        std::chrono::milliseconds(options.ttlSeconds * 1000 / 3), std::chrono::milliseconds(500)));
    if (options.grace > longestGrace(options.ttlSeconds)) {
        problem = QCoreApplication::translate(
                      "lockscopectl",
                      "--grace %1 is more than half the TTL (--ttl %2): the command would be "
                      "stopped whenever a keepalive runs late; take a shorter --grace or a "
                      "longer --ttl")
                      .arg(durationText(options.grace))
                      .arg(options.ttlSeconds);
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
    if (options.help) {
        std::fputs(qPrintable(lockHelp()), stdout);
        return ExitOk;
    }
    blockHoldSignals(); // before the client starts its thread, so they wait for sigtimedwait
    return hold(connection, options);
}

} // namespace lockscope
