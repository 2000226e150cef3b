#include "app/gui/password_keyring.h"

#include "etcdclient/client_options.h"

#include <QStringList>
#include <qt6keychain/keychain.h>

namespace lockscope {

namespace {

const QString service = QStringLiteral("LockScope");

// Starts `job` and hands it to `finished` when it ends, unless `context` is gone by then. The
// job deletes itself once finished: it must outlive a closed window, since the keyring answers
// into it.
template <class Job, class Finished>
void run(Job* job, const QString& account, QObject* context, Finished finished) {
    job->setKey(account);
    job->setInsecureFallback(false); // never a plain-text file when there is no keyring
    QObject::connect(job, &QKeychain::Job::finished, context,
                     [finished = std::move(finished)](QKeychain::Job* done) {
                         finished(static_cast<Job*>(done));
                     });
    job->start();
}

QString problemOf(const QKeychain::Job& job) {
    return job.error() == QKeychain::NoError ? QString() : job.errorString();
}

} // namespace

PasswordKeyring::PasswordKeyring(QObject* parent)
    : QObject(parent) {}

void PasswordKeyring::read(const QString& account, ReadDone done) {
    run(new QKeychain::ReadPasswordJob(service), account, this,
        [done = std::move(done)](QKeychain::ReadPasswordJob* job) {
            if (job->error() == QKeychain::NoError)
                done(job->textData(), {});
            else if (job->error() == QKeychain::EntryNotFound)
                done(std::nullopt, {});
            else
                done(std::nullopt, job->errorString());
        });
}

void PasswordKeyring::write(const QString& account, const QString& password, Done done) {
    auto* job = new QKeychain::WritePasswordJob(service);
    job->setTextData(password);
    run(job, account, this,
        [done = std::move(done)](QKeychain::WritePasswordJob* job) { done(problemOf(*job)); });
}

void PasswordKeyring::remove(const QString& account, Done done) {
    run(new QKeychain::DeletePasswordJob(service), account, this,
        [done = std::move(done)](QKeychain::DeletePasswordJob* job) {
            done(job->error() == QKeychain::EntryNotFound ? QString() : problemOf(*job));
        });
}

QString PasswordKeyring::accountOf(const etcd::ClientOptions& options) {
    QStringList endpoints;
    for (const std::string& endpoint : options.endpoints)
        endpoints << QString::fromStdString(endpoint);
    return QString::fromStdString(options.username) + "@" + endpoints.join(',');
}

} // namespace lockscope
