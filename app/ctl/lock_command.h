#pragma once

#include "app/ctl/ctl_command.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace lockscope {

// `lockscopectl lock NAME [--read|--write] [--ttl N] [--grace DURATION] [--try] [--server-lock]
// [--recipe mutex|single-key] [--force] [--no-retry] [-- COMMAND ARGS...]`, as `etcdctl lock`
// does it, or with --read or --write as a reader or writer of etcd's RWMutex recipe
// (etcdclient/locks/rw_mutex.h), or with --recipe single-key as python-etcd3 takes a lock (the
// name is the key: etcdclient/locks/single_key_lock.h). NAME and COMMAND are exact bytes.
struct LockCommandOptions {
    std::string name;
    etcd::KeyMode mode = etcd::KeyMode::Exclusive; // --read: Read, --write: Write
    int64_t ttlSeconds = 10;                       // etcdctl lock's default
    // How long before the session's safe deadline the command gets SIGTERM (SIGKILL comes at
    // the deadline): TTL/3 unless given, at least 0.5 s, at most TTL/2.
    std::chrono::milliseconds grace{};
    bool help = false; // --help: print the command's help and run nothing
    bool tryOnly = false;
    bool retry = true;       // a waiter whose session is lost queues again after a backoff
    bool serverLock = false; // through etcd's Lock service instead of our Mutex
    bool singleKey = false;  // --recipe single-key: the name is the key (as python-etcd3 locks)
    bool force = false;      // allows a TTL over a day
    std::vector<std::string> command; // empty: hold until SIGINT or SIGTERM
};

// Exit codes beyond ExitOk (or the command's own status), ExitFailed and ExitUsage.
constexpr int ExitLockHeldElsewhere = 3;  // --try, and someone else holds the lock
constexpr int ExitLockLost = 4;           // the lock was lost while we held it
constexpr int ExitCannotRunCommand = 127; // as a shell's: the command could not be started

// Reads the arguments after "lock" (losslessArguments()). Flags may come before or after NAME;
// "--" (or the first word after NAME that is not a flag, as etcdctl allows) starts the
// command. NAME is parseKeyText() of its bytes: raw bytes are themselves, `\xNN` is a byte and
// a literal backslash is written `\\`. A TTL beyond etcd's limit is refused, as are a --grace
// over half the TTL and a NAME with a NUL byte when there is a COMMAND (the environment cannot
// carry it); a TTL over a day needs --force. --help sets `help` and reads no further.
bool parseLockArguments(const QStringList& arguments, LockCommandOptions& options,
                        QString& problem);

// Acquires the lock, then prints its key and holds it until SIGINT or SIGTERM, or runs the
// command with LOCKSCOPE_LOCK_KEY, LOCKSCOPE_LOCK_KEY_B64 and LOCKSCOPE_FENCING_TOKEN (our key's
// create revision) in its environment and exits with its status. The command runs as a
// process::ProcessTree: signals go to its whole group, and nothing of it outlives us. It is
// stopped (SIGTERM, then SIGKILL) by the session's safe deadline, or at once when the lock is
// lost, and we exit ExitLockLost saying what happened when. A waiter whose session is lost, or
// whose wait fails with a transient error, queues again with a new session after a RetryBackoff
// delay (unless --no-retry). The lock and the session are released on every way out, waiting for
// etcd's answers, so no key or lease is left behind.
int runLockCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
