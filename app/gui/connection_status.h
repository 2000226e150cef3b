#pragma once

#include "app/core/endpoint_status.h"

#include <QHash>
#include <QObject>

class QLabel;
class QWidget;
class QStatusBar;

namespace lockscope {

class ElidedLabel;

// The status bar's account of the connection: its state (a coloured dot and a word), where it
// goes (origin and endpoints, then the member in use), and the answered status's leader,
// revision, Raft term and round trip. One a cluster open in the window, all in the one bar;
// only the cluster shown shows its own.
class ConnectionStatus : public QObject {
    Q_OBJECT
public:
    explicit ConnectionStatus(QStatusBar* bar);
    ~ConnectionStatus() override;

    void setVisible(bool visible);
    void setState(const QString& text, const QString& color);
    // The state last set, for a summary of the cluster elsewhere.
    const QString& stateText() const { return stateText_; }
    // Where the connection goes, before any answer; returns it as shown ("sandbox 127.0.0.1:…").
    QString setPlace(const QString& origin, const QString& endpoints);
    // An answered status, with the leader named from `memberNames` when known.
    void showAnswer(const EndpointStatus& status, const QString& origin,
                    const QHash<quint64, QString>& memberNames);
    // Leader, revision, term and round trip: nothing is known of them now.
    void clearFigures();

private:
    QWidget* labels_; // in the bar, holding the labels below
    QString stateText_;
    QLabel* connection_;
    ElidedLabel* endpoint_; // many endpoints make a long line
    QLabel* leader_;
    QLabel* revision_;
    QLabel* term_;
    QLabel* roundTrip_;
};

} // namespace lockscope
