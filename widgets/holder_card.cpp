#include "widgets/holder_card.h"

#include "widgets/elided_label.h"
#include "widgets/ttl_bar.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <cmath>

namespace lockscope {

namespace {

// Looks like a label and can be selected and copied. Unlike a QLabel, whose every new text asks
// its parents to lay out again (up to the tab widget, which then repaints all of itself), a line
// edit's size does not depend on its text: a new holder repaints the card's fields only.
QLineEdit* valueField() {
    auto* field = new QLineEdit;
    field->setReadOnly(true);
    field->setFrame(false);
    field->setFocusPolicy(Qt::ClickFocus);
    QPalette palette = field->palette();
    palette.setColor(QPalette::Base, Qt::transparent);
    field->setPalette(palette);
    return field;
}

void showValue(QLineEdit* field, const QString& text) {
    if (field->text() == text) // the card is refreshed with every batch; the same text repaints
        return;
    field->setText(text);
    field->setCursorPosition(0); // the start of a long key, not its end
    field->setToolTip(text);     // all of it, however long
}

QString toneColours(HolderCard::OwnLock::Tone tone) {
    switch (tone) {
    case HolderCard::OwnLock::Tone::Pending: return "background: #fff4d6; color: #6b4e00;";
    case HolderCard::OwnLock::Tone::Good: return "background: #e3f4e4; color: #1b5e20;";
    case HolderCard::OwnLock::Tone::Bad:
        return "background: #fdecea; color: #8a1c12; font-weight: bold;";
    case HolderCard::OwnLock::Tone::Ended: break;
    }
    return "background: #eeeeee; color: #424242;";
}

} // namespace

HolderCard::HolderCard(QWidget* parent)
    : QFrame(parent)
    , title_(new QLabel)
    , ownLock_(new ElidedLabel)
    , key_(valueField())
    , lease_(valueField())
    , fencingToken_(valueField())
    , heldFor_(new QLabel)
    , ttl_(new TtlBar)
    , value_(valueField())
    , recipe_(valueField())
    , details_(new QWidget) {
    setFrameShape(QFrame::StyledPanel);
    key_->setObjectName("holderKey");
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    key_->setFont(bold);
    // The text that changes with every refresh. At a fixed size its changes stay inside the card:
    // any other layout change climbs to the window, whose tab widget then repaints all of it.
    heldFor_->setObjectName("holderHeldFor");
    heldFor_->setFixedSize(heldFor_->fontMetrics().horizontalAdvance("≥ 999 h 59 min"),
                           heldFor_->sizeHint().height());

    auto* form = new QFormLayout(details_);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Key"), key_);
    form->addRow(tr("Lease"), lease_);
    form->addRow(tr("Fencing token"), fencingToken_);
    form->addRow(tr("Held for"), heldFor_);
    form->addRow(tr("TTL"), ttl_);
    form->addRow(tr("Value"), value_);
    form->addRow(tr("Recipe"), recipe_);

    ownLock_->setObjectName("ownLockState");
    ownLock_->hide();
    // The same height with a holder as without: a lock nobody holds between two that are held
    // does not move the queue below up and down.
    QSizePolicy keepSpace = details_->sizePolicy();
    keepSpace.setRetainSizeWhenHidden(true);
    details_->setSizePolicy(keepSpace);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(ownLock_);
    layout->addWidget(title_);
    layout->addWidget(details_);
    clear(tr("No lock selected"));
}

void HolderCard::setHolder(const Holder& holder) {
    title_->setText(holder.election ? tr("Leader") : tr("Holder"));
    auto* form = static_cast<QFormLayout*>(details_->layout());
    const auto label = [form](QWidget* field, const QString& text) {
        auto* shown = static_cast<QLabel*>(form->labelForField(field));
        if (shown->text() != text) // a new label text lays the card out again
            shown->setText(text);
    };
    label(fencingToken_, holder.election ? tr("Revision") : tr("Fencing token"));
    label(heldFor_, holder.election ? tr("Leading for") : tr("Held for"));
    label(value_, holder.election ? tr("Proposal") : tr("Value"));
    showValue(key_, holder.key);
    showValue(lease_, holder.leaseHex);
    showValue(fencingToken_, QString::number(holder.fencingToken));
    heldFor_->setText(holder.heldFor);
    heldFor_->setToolTip(holder.heldForWhy);
    showValue(value_, holder.value.isEmpty() ? tr("(empty)") : holder.value);
    showValue(recipe_, holder.recipe);
    recipe_->setToolTip(holder.recipeWhy);

    // Tenths of a second, so the bar moves smoothly between whole seconds.
    using Staleness = Holder::Staleness;
    const bool counting = holder.ttlRemainingSeconds && holder.ttlStale == Staleness::Fresh;
    const double remaining = counting ? *holder.ttlRemainingSeconds : 0;
    const QString text =
        !holder.leased                             ? tr("no lease: held until its key is deleted")
        : !holder.ttlRemainingSeconds              ? tr("not looked up yet")
        : holder.ttlStale == Staleness::EtcdSilent ? tr("stale: etcd is not answering")
        : holder.ttlStale == Staleness::NotLookedUp
            ? tr("stale: not looked up within its TTL")
            : (remaining < 0
                   ? tr("lease gone")
                   : tr("%1 s of %2 s").arg(std::ceil(remaining)).arg(holder.ttlGrantedSeconds));
    ttl_->setTtl(static_cast<int>(std::max(0.0, remaining) * 10),
                 static_cast<int>(std::max<qint64>(1, holder.ttlGrantedSeconds) * 10), text,
                 counting && TtlCountdownDelegate::fraction(remaining, holder.ttlGrantedSeconds) <
                                 TtlCountdownDelegate::LowFraction);
    details_->show();
}

void HolderCard::clear(const QString& why) {
    title_->setText(why);
    key_->clear();
    details_->hide();
}

void HolderCard::setOwnLock(const std::optional<OwnLock>& own) {
    if (!own) {
        ownLock_->hide();
        return;
    }
    const QString style = QStringLiteral("QLabel { %1 border-radius: 3px; padding: 3px 6px; }")
                              .arg(toneColours(own->tone));
    if (ownLock_->styleSheet() != style) // a new style sheet re-polishes, even the same one
        ownLock_->setStyleSheet(style);
    ownLock_->setText(own->text);
    ownLock_->show();
}

QString HolderCard::key() const {
    return details_->isHidden() ? QString() : key_->text();
}

} // namespace lockscope
