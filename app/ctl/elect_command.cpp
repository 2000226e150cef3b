#include "app/ctl/elect_command.h"

#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/ctl/ctl_command.h"
#include "app/ctl/signal_mailbox.h"
#include "app/ctl/signal_wait.h"
#include "app/ctl/stdin_lines.h"
#include "etcdclient/blocking.h"
#include "etcdclient/locks/election.h"
#include "etcdclient/locks/leader_observer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

namespace {

// etcdctl elect's session TTL (Go's concurrency.NewSession default).
constexpr int64_t electTtlSeconds = 60;

struct ElectOptions {
    std::string name;
    std::string proposal;
    bool listen = false;
};

// A leader as etcdctl elect prints it: its key, then its proposal.
void printLeader(const std::string& key, const std::string& proposal) {
    std::printf("%s\n%s\n", displayKey(key).c_str(), proposal.c_str());
    std::fflush(stdout);
}

int listen(etcd::Client& client, const std::string& name) {
    auto ended = std::make_shared<SignalMailbox<etcd::Error>>();
    auto observer = etcd::LeaderObserver::create(
        client, name,
        [](const etcd::LeaderObserver::Leader& leader) {
            printLeader(leader.key, leader.proposal); // stdio is thread-safe
        },
        [ended](const etcd::Error& error) { ended->put(error); });
    observer->start();
    while (true) {
        if (isTermination(nextSignal())) {
            observer->stop();
            return ExitOk;
        }
        if (auto error = ended->read()) {
            say(QCoreApplication::translate("lockscopectl", "observing election %1 stopped: %2")
                    .arg(displayKeyText(name), QString::fromStdString(error->message)));
            return exitCodeFor(error->code);
        }
    }
}

// Leads until interrupted or until leadership is lost; each stdin line is proclaimed.
int lead(etcd::Election& election, const SignalMailbox<etcd::Error>& lost) {
    printLeader(election.key(), election.proposal());
    StdinLines input;
    while (true) {
        if (isTermination(nextSignal(std::chrono::milliseconds(50))))
            return ExitOk;
        if (auto error = lost.read()) {
            say(QCoreApplication::translate("lockscopectl", "leadership of %1 lost: %2")
                    .arg(displayKeyText(election.name()), QString::fromStdString(error->message)));
            return ExitLeadershipLost;
        }
        for (const std::string& line : input.take()) {
            const auto proclaimed = etcd::proclaimNow(election, line);
            if (!proclaimed)
                say(QCoreApplication::translate("lockscopectl",
                                                "proclaiming \"%1\" failed: %2; still leading "
                                                "with the previous proposal")
                        .arg(displayKeyText(line),
                             QString::fromStdString(proclaimed.error().message)));
            else if (!proclaimed.value())
                say(QCoreApplication::translate("lockscopectl",
                                                "proclaiming \"%1\" failed: we no longer lead")
                        .arg(displayKeyText(line)));
        }
    }
}

int campaign(etcd::Client& client, const ElectOptions& options) {
    auto session = etcd::startSession(client, electTtlSeconds);
    if (!session) {
        say(QCoreApplication::translate("lockscopectl", "cannot start a session: %1")
                .arg(QString::fromStdString(session.error().message)));
        return exitCodeFor(session.error().code);
    }
    auto election = etcd::Election::create(client, *session, options.name);
    auto lost = std::make_shared<SignalMailbox<etcd::Error>>();
    election->onLost([lost](const etcd::Error& error) { lost->put(error); });
    bool interrupted = false;
    const etcd::Error campaigned = waitUnlessInterrupted(
        [&](ErrorCallback done) { election->campaign(options.proposal, std::move(done)); },
        [&] { election->cancel(); }, interrupted);
    int exitCode = ExitOk;
    if (interrupted) {
        say(QCoreApplication::translate("lockscopectl", "interrupted while campaigning in %1; "
                                                        "our candidacy was withdrawn")
                .arg(displayKeyText(options.name)));
        exitCode = ExitFailed;
    } else if (!campaigned.ok()) {
        say(QCoreApplication::translate("lockscopectl", "campaigning in %1 failed: %2")
                .arg(displayKeyText(options.name), QString::fromStdString(campaigned.message)));
        exitCode = exitCodeFor(campaigned.code);
    } else {
        exitCode = lead(*election, *lost);
    }
    // Neither our key nor our lease outlives the process; the revoke alone would delete the
    // key, the resign says so sooner.
    etcd::releaseAndCloseNow(
        [&](auto done) { election->resign([done = std::move(done)](auto) { done(); }); },
        **session);
    return exitCode;
}

} // namespace

int runElectCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    const QString usage = QStringLiteral("lockscopectl [connection flags] elect NAME PROPOSAL | "
                                         "elect -l NAME");
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "lockscopectl",
        "Campaign in election NAME with PROPOSAL as etcdctl elect does: once leading, print our "
        "key and the proposal on two lines and lead until Ctrl-C, then resign. While leading, "
        "each line typed on standard input is proclaimed as the new proposal. With --listen, "
        "print each leader's key and proposal instead, as they change."));
    const QCommandLineOption listenOption(
        {"l", "listen"},
        QCoreApplication::translate("lockscopectl", "Observe the election: print each new "
                                                    "leader's key and proposal; do not campaign."));
    const QCommandLineOption helpOption(
        {"h", "help"}, QCoreApplication::translate("lockscopectl", "Show this help."));
    parser.addOptions({listenOption, helpOption});
    parser.addPositionalArgument(
        "name", QCoreApplication::translate("lockscopectl", "The election's name (a key prefix "
                                                            "without the trailing /). Any bytes; "
                                                            "\\xNN is a byte and \\\\ a "
                                                            "backslash."));
    parser.addPositionalArgument(
        "proposal",
        QCoreApplication::translate("lockscopectl", "Our proposal, stored as our key's value."),
        "[proposal]");
    if (const auto done = parseCommandLine(parser, arguments, helpOption, usage))
        return *done;

    ElectOptions options;
    options.listen = parser.isSet(listenOption);
    const QStringList positional = parser.positionalArguments();
    const int wanted = options.listen ? 1 : 2;
    if (positional.size() != wanted)
        return usageProblem(
            "elect", options.listen
                         ? QCoreApplication::translate("lockscopectl",
                                                       "--listen takes one NAME and no proposal")
                         : QCoreApplication::translate("lockscopectl",
                                                       "a NAME and a PROPOSAL are needed, like: "
                                                       "elect /elections/db host-a"));
    std::string why;
    const auto name = parseKeyText(argumentBytes(positional.first()), why);
    if (!name || name->empty())
        return usageProblem(
            "elect", QCoreApplication::translate("lockscopectl", "NAME: %1")
                         .arg(name ? QCoreApplication::translate("lockscopectl", "it is empty")
                                   : QString::fromStdString(why)));
    options.name = *name;
    if (!options.listen)
        options.proposal = argumentBytes(positional.at(1));

    blockHoldSignals(); // before the client starts its thread, so they wait for sigtimedwait
    int exitCode = ExitOk;
    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    return options.listen ? listen(*client, options.name) : campaign(*client, options);
}

} // namespace lockscope
