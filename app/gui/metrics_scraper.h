#pragma once

#include "app/core/etcd_member_metrics.h"
#include "etcdclient/client_options.h"

#include <QObject>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace lockscope {

// Reads each member's /metrics on its client URL (where etcd 3.4 serves them, with the same
// TLS as its gRPC), every interval, without blocking: Qt Network's replies come back on this
// (the GUI) thread. One request per member is in flight at a time; one that takes longer than
// the client's command timeout is aborted and reported. Destroying the scraper aborts its
// requests, so no late answer reaches a page that moved on.
class MetricsScraper : public QObject {
    Q_OBJECT
public:
    static constexpr int DefaultIntervalMs = 2000;

    explicit MetricsScraper(const etcd::ClientOptions& options, QObject* parent = nullptr);
    ~MetricsScraper() override;

    // The members, in the order of the options' endpoints, with their /metrics URLs.
    const std::vector<QUrl>& urls() const { return urls_; }
    // Scrapes every member now and then every `intervalMs`.
    void start(int intervalMs = DefaultIntervalMs);

signals:
    // `unixSeconds`: when the answer came.
    void scraped(int member, const lockscope::EtcdMemberMetrics& metrics, double unixSeconds);
    // What kept the member's metrics from being read, in words, with what to do.
    void failed(int member, const QString& reason);

private:
    void scrapeAll();
    void finish(int member, QNetworkReply* reply);

    QNetworkAccessManager* network_ = nullptr; // shared (networkAccessFor)
    QSslConfiguration tls_;
    QString tlsProblem_; // the TLS files could not be read: said instead of scraping
    std::vector<QUrl> urls_;
    std::vector<QNetworkReply*> inFlight_;
    std::chrono::milliseconds timeout_;
    QTimer timer_;
};

} // namespace lockscope
