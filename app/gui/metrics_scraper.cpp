#include "app/gui/metrics_scraper.h"

#include "etcdclient/endpoint.h"
#include "etcdclient/tls_files.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QSslCertificate>
#include <QSslKey>
#include <map>

namespace lockscope {

namespace {

// A PEM private key of any algorithm etcd's certificates use.
QSslKey readKey(const QByteArray& pem) {
    for (QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
        QSslKey key(pem, algorithm, QSsl::Pem);
        if (!key.isNull())
            return key;
    }
    return {};
}

// One for the scrapers of every cluster that trusts the same CAs with the same client
// certificate: each QNetworkAccessManager runs a thread of its own, one more for each cluster
// open, yet a manager reuses its connection to a host and port whatever TLS configuration a
// request carries, so clusters with other certificates must not share one. Scrapers live on
// the GUI thread, as the managers do.
QNetworkAccessManager* networkAccessFor(const QSslConfiguration& tls) {
    static std::map<QByteArray, QPointer<QNetworkAccessManager>> managers;
    QByteArray identity = tls.localCertificate().digest(QCryptographicHash::Sha256);
    for (const QSslCertificate& ca : tls.caCertificates())
        identity += ca.digest(QCryptographicHash::Sha256);
    QPointer<QNetworkAccessManager>& manager = managers[identity];
    if (!manager)
        manager = new QNetworkAccessManager(QCoreApplication::instance());
    return manager;
}

} // namespace

MetricsScraper::MetricsScraper(const etcd::ClientOptions& options, QObject* parent)
    : QObject(parent)
    , tls_(QSslConfiguration::defaultConfiguration())
    , timeout_(options.commandTimeout) {
    const bool tlsFiles = !options.caFile.empty() || !options.certFile.empty();
    for (const std::string& text : options.endpoints) {
        etcd::Endpoint endpoint;
        std::string error;
        if (!etcd::parseEndpoint(text, endpoint, error))
            continue; // the connection itself says what is wrong with it
        const bool tls = endpoint.tls || tlsFiles;
        urls_.push_back(
            QUrl(QStringLiteral("%1://%2/metrics")
                     .arg(tls ? "https" : "http", QString::fromStdString(endpoint.target))));
    }
    inFlight_.assign(urls_.size(), nullptr);

    // The client reads and checks the same files before it dials, and names what is wrong.
    const auto files = etcd::readTlsFiles(options);
    if (!files) {
        tlsProblem_ = QString::fromStdString(files.error().message);
    } else {
        if (!files->caPem.empty())
            tls_.setCaCertificates(
                QSslCertificate::fromData(QByteArray::fromStdString(files->caPem), QSsl::Pem));
        const auto certificates =
            QSslCertificate::fromData(QByteArray::fromStdString(files->certPem), QSsl::Pem);
        if (!certificates.isEmpty()) {
            tls_.setLocalCertificate(certificates.front());
            tls_.setPrivateKey(readKey(QByteArray::fromStdString(files->keyPem)));
        }
    }
    network_ = networkAccessFor(tls_);
    connect(&timer_, &QTimer::timeout, this, &MetricsScraper::scrapeAll);
}

MetricsScraper::~MetricsScraper() {
    for (QNetworkReply* reply : inFlight_)
        if (reply) {
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater(); // the shared manager, its parent, lives on
        }
}

void MetricsScraper::start(int intervalMs) {
    timer_.start(intervalMs);
    scrapeAll();
}

void MetricsScraper::scrapeAll() {
    for (int member = 0; member < static_cast<int>(urls_.size()); ++member) {
        if (!tlsProblem_.isEmpty()) {
            emit failed(member, tlsProblem_);
            continue;
        }
        if (inFlight_[member])
            continue; // the last request still runs; its timeout reports it
        QNetworkRequest request(urls_[member]);
        request.setSslConfiguration(tls_);
        request.setTransferTimeout(static_cast<int>(timeout_.count()));
        QNetworkReply* reply = network_->get(request);
        inFlight_[member] = reply;
        connect(reply, &QNetworkReply::finished, this,
                [this, member, reply] { finish(member, reply); });
    }
}

void MetricsScraper::finish(int member, QNetworkReply* reply) {
    reply->deleteLater();
    inFlight_[member] = nullptr;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError) {
        QString reason = reply->errorString();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            reason = tr("no answer within %1 ms").arg(timeout_.count());
        emit failed(member, tr("%1 could not be read: %2; check that the member runs and that "
                               "its client URL serves /metrics")
                                .arg(urls_[member].toString(), reason));
        return;
    }
    if (status != 200) {
        emit failed(member, tr("%1 answered HTTP %2").arg(urls_[member].toString()).arg(status));
        return;
    }
    const QByteArray body = reply->readAll();
    std::string error;
    const auto samples =
        parsePrometheusText(std::string_view(body.constData(), body.size()), error);
    if (!samples) {
        emit failed(member, tr("%1 is not Prometheus text: %2")
                                .arg(urls_[member].toString(), QString::fromStdString(error)));
        return;
    }
    emit scraped(member, etcdMemberMetrics(*samples),
                 static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
}

} // namespace lockscope
