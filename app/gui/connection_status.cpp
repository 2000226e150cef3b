#include "app/gui/connection_status.h"

#include "widgets/elided_label.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>

namespace lockscope {

ConnectionStatus::ConnectionStatus(QStatusBar* bar)
    : QObject(bar)
    , labels_(new QWidget)
    , connection_(new QLabel)
    , endpoint_(new ElidedLabel)
    , leader_(new QLabel)
    , revision_(new QLabel)
    , term_(new QLabel)
    , roundTrip_(new QLabel) {
    connection_->setObjectName("connectionLabel");
    endpoint_->setObjectName("endpointLabel");
    auto* layout = new QHBoxLayout(labels_);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QLabel* label : std::initializer_list<QLabel*>{connection_, endpoint_, leader_, revision_,
                                                        term_, roundTrip_})
        layout->addWidget(label);
    layout->setStretchFactor(endpoint_, 1);
    bar->addWidget(labels_, 1);
    setState(tr("Not connected"), "gray");
}

// The labels are the bar's children: they go with the cluster that shows them.
ConnectionStatus::~ConnectionStatus() {
    delete labels_;
}

void ConnectionStatus::setVisible(bool visible) {
    labels_->setVisible(visible);
}

void ConnectionStatus::setState(const QString& text, const QString& color) {
    stateText_ = text;
    connection_->setText(QStringLiteral("<span style='color:%1'>●</span> %2").arg(color, text));
}

QString ConnectionStatus::setPlace(const QString& origin, const QString& endpoints) {
    const QString place = origin.isEmpty() ? endpoints : origin + " " + endpoints;
    endpoint_->setText(place);
    return place;
}

void ConnectionStatus::showAnswer(const EndpointStatus& status, const QString& origin,
                                  const QHash<quint64, QString>& memberNames) {
    setState(tr("Connected"), "#2e7d32");
    const QString using_ = tr("using %1").arg(status.endpoint);
    endpoint_->setText(origin.isEmpty() ? using_ : origin + " · " + using_);
    const QString leaderId = EndpointStatus::hexId(status.leaderId);
    const QString leaderName = memberNames.value(status.leaderId);
    leader_->setText(
        tr("Leader: %1").arg(leaderName.isEmpty() ? leaderId : leaderName + " (" + leaderId + ")"));
    revision_->setText(tr("Revision: %1").arg(status.revision));
    term_->setText(tr("Raft term: %1").arg(status.raftTerm));
    roundTrip_->setText(tr("Round trip: %1 ms").arg(status.roundTripMs, 0, 'f', 2));
}

void ConnectionStatus::clearFigures() {
    for (QLabel* label : {leader_, revision_, term_, roundTrip_})
        label->clear();
}

} // namespace lockscope
