#pragma once

#include "app/lab/lab_options.h"

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lockscope {

namespace lab {
class ContentionLab;
}

class Workspace;

// The Lab tab: the contention lab's settings, Start / Step / Stop, and live figures (rate, the
// fencing demo's counts, split brains found by the checker). The lab itself is the Workspace's,
// which stops it with the connection; its workers' locks show in the main views like anyone
// else's.
class LabPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = 500;

    explicit LabPage(QWidget* parent = nullptr);
    ~LabPage() override;

    // The lab runs in this Workspace (null: disabled until there is one). Letting go of one
    // keeps its last figures shown.
    void setWorkspace(Workspace* workspace);
    lab::LabOptions options() const;
    void setOptions(const lab::LabOptions& options);

    void start();
    void step();
    void stop();
    bool running() const;
    QString figures() const; // the text the page shows, for tests

signals:
    // A split brain the checker found, and the fencing tokens of its two holds: for the
    // timeline and the stage.
    void overlapFound(const QString& lock, double fromUnixSeconds, double toUnixSeconds,
                      qint64 firstToken, qint64 secondToken);

private:
    void launch(bool once);
    void refresh();
    void updateButtons();
    bool usable() const;
    lab::ContentionLab* lab() const;

    QPointer<Workspace> workspace_;
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
    QCheckBox* deadlock_;
    QPushButton* start_;
    QPushButton* step_;
    QPushButton* stop_;
    QLabel* figures_;
};

} // namespace lockscope
