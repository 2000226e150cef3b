#include "widgets/holder_card.h"

#include "widgets/ttl_countdown_delegate.h"

#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>
#include <cmath>

namespace lockscope {

namespace {

QLabel* selectableLabel() {
    auto* label = new QLabel;
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

HolderCard::HolderCard(QWidget* parent)
    : QFrame(parent)
    , title_(new QLabel)
    , key_(selectableLabel())
    , lease_(selectableLabel())
    , fencingToken_(selectableLabel())
    , heldFor_(new QLabel)
    , ttl_(new QProgressBar)
    , value_(selectableLabel())
    , details_(new QWidget) {
    setFrameShape(QFrame::StyledPanel);
    key_->setObjectName("holderKey");
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    key_->setFont(bold);
    value_->setWordWrap(true);
    // The text that changes with every refresh. At a fixed size its changes stay inside the card:
    // any other layout change climbs to the window, whose tab widget then repaints all of it.
    heldFor_->setFixedSize(heldFor_->fontMetrics().horizontalAdvance("999 h 59 min"),
                           heldFor_->sizeHint().height());
    ttl_->setTextVisible(true);
    ttl_->setAlignment(Qt::AlignCenter);
    ttl_->setMaximumHeight(18);

    auto* form = new QFormLayout(details_);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Key"), key_);
    form->addRow(tr("Lease"), lease_);
    form->addRow(tr("Fencing token"), fencingToken_);
    form->addRow(tr("Held for"), heldFor_);
    form->addRow(tr("TTL"), ttl_);
    form->addRow(tr("Value"), value_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(details_);
    clear(tr("No lock selected"));
}

void HolderCard::setHolder(const Holder& holder) {
    title_->setText(tr("Holder"));
    key_->setText(holder.key);
    lease_->setText(holder.leaseHex);
    fencingToken_->setText(QString::number(holder.fencingToken));
    heldFor_->setText(holder.heldFor);
    value_->setText(holder.value.isEmpty() ? tr("(empty)") : holder.value);

    // Tenths of a second, so the bar moves smoothly between whole seconds.
    const double remaining = holder.ttlRemainingSeconds.value_or(0);
    ttl_->setRange(0, static_cast<int>(std::max<qint64>(1, holder.ttlGrantedSeconds) * 10));
    ttl_->setValue(static_cast<int>(std::max(0.0, remaining) * 10));
    if (!holder.ttlRemainingSeconds)
        ttl_->setFormat(tr("not looked up yet"));
    else if (remaining < 0)
        ttl_->setFormat(tr("lease gone"));
    else
        ttl_->setFormat(tr("%1 s of %2 s").arg(std::ceil(remaining)).arg(holder.ttlGrantedSeconds));
    const bool low = holder.ttlRemainingSeconds &&
                     TtlCountdownDelegate::fraction(remaining, holder.ttlGrantedSeconds) <
                         TtlCountdownDelegate::LowFraction;
    const QString chunk = low ? "QProgressBar::chunk { background: #d32f2f; }"
                              : "QProgressBar::chunk { background: #43a047; }";
    // Setting a style sheet re-polishes the bar even when it is the same: only on a change, as
    // the card is refreshed with every batch of lock events.
    if (ttl_->styleSheet() != chunk)
        ttl_->setStyleSheet(chunk);
    details_->show();
}

void HolderCard::clear(const QString& why) {
    title_->setText(why);
    key_->clear();
    details_->hide();
}

QString HolderCard::key() const {
    return details_->isHidden() ? QString() : key_->text();
}

} // namespace lockscope
