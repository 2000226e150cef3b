#pragma once

#include "app/lab/lab_options.h"

#include <QSet>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace etcd {
class Client;
}

namespace lockscope {

namespace lab {
class ContentionLab;
}

// The contention lab inside LockScope: settings, Start / Step / Stop, and live figures (rate,
// the fencing demo's counts, split brains found by the checker). Its workers' locks show in the
// main views like anyone else's.
class LabPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = 500;

    explicit LabPanel(QWidget* parent = nullptr);
    ~LabPanel() override;

    // The lab works through this client (null: disabled until there is one).
    void setClient(etcd::Client* client);
    // Stops the lab and lets go of the client; `released` runs (on the client's thread, or at
    // once without a lab) when every worker's session is revoked: then the client may go.
    void detachClient(std::function<void()> released);
    lab::LabOptions options() const;
    void setOptions(const lab::LabOptions& options);

    void start();
    void step();
    void stop();
    bool running() const;
    QString figures() const; // the text the panel shows, for tests

signals:
    // A split brain the checker found: for the timeline.
    void overlapFound(const QString& lock, double fromUnixSeconds, double toUnixSeconds);

private:
    void launch(bool once);
    void refresh();
    void updateButtons();

    etcd::Client* client_ = nullptr;
    std::shared_ptr<lab::ContentionLab> lab_;
    QTimer refreshTimer_;
    QSet<QString> overlapsShown_; // split brains already sent to the timeline
    int64_t lastAcquisitions_ = 0;

    QSpinBox* workers_;
    QLineEdit* locks_;
    QSpinBox* hold_;
    QSpinBox* think_;
    QSpinBox* ttl_;
    QDoubleSpinBox* stall_;
    QDoubleSpinBox* crash_;
    QDoubleSpinBox* slow_;
    QCheckBox* fencing_;
    QPushButton* start_;
    QPushButton* step_;
    QPushButton* stop_;
    QLabel* figures_;
};

} // namespace lockscope
