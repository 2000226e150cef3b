#include "app/gui/prefix_bar.h"

#include "app/core/key_text.h"
#include "app/core/recipe_text.h"
#include "app/gui/recent_prefixes.h"
#include "widgets/elided_label.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

namespace lockscope {

PrefixBar::PrefixBar(QWidget* parent)
    : QWidget(parent)
    , prefixBox_(new QComboBox)
    , recipeBox_(new QComboBox)
    , liveDot_(new QLabel)
    , liveLabel_(new ElidedLabel) {
    prefixBox_->setObjectName("prefixBox");
    prefixBox_->setEditable(true);
    prefixBox_->setInsertPolicy(QComboBox::NoInsert); // choose() keeps the recent list
    prefixBox_->setMinimumContentsLength(30);
    prefixBox_->setToolTip(tr("The key prefix whose locks to watch (Ctrl+L); Enter applies it"));
    connect(prefixBox_, &QComboBox::textActivated, this, &PrefixBar::choose);
    // With NoInsert, Enter activates only a listed prefix; a newly typed one is applied here.
    connect(prefixBox_->lineEdit(), &QLineEdit::returnPressed, this,
            [this] { choose(prefixBox_->currentText()); });
    recipeBox_->setObjectName("recipeBox");
    recipeBox_->setToolTip(tr("How keys form locks: auto reads each key's recipe from its shape "
                              "and lease; name one where that cannot decide"));
    recipeBox_->addItem(tr("auto"), static_cast<int>(etcd::RecipeOverride::Auto));
    for (const auto& [recipe, kind] :
         {std::pair{etcd::RecipeOverride::Mutex, etcd::QueueKind::Mutex},
          {etcd::RecipeOverride::Election, etcd::QueueKind::Election},
          {etcd::RecipeOverride::RwMutex, etcd::QueueKind::RwMutex},
          {etcd::RecipeOverride::SingleKey, etcd::QueueKind::SingleKey}}) {
        recipeBox_->addItem(recipeWord(kind), static_cast<int>(recipe));
        recipeBox_->setItemData(recipeBox_->count() - 1, recipeDescription(kind), Qt::ToolTipRole);
    }
    connect(recipeBox_, &QComboBox::activated, this,
            [this] { emit recipeChosen(currentRecipe()); });
    liveLabel_->setObjectName("lockWatchStatus");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto* prefixLabel = new QLabel(tr("Lock &prefix:"));
    prefixLabel->setBuddy(prefixBox_);
    row->addWidget(prefixLabel);
    row->addWidget(prefixBox_);
    auto* recipeLabel = new QLabel(tr("&Recipe:"));
    recipeLabel->setBuddy(recipeBox_);
    row->addWidget(recipeLabel);
    row->addWidget(recipeBox_);
    row->addWidget(liveDot_);
    row->addWidget(liveLabel_, 1);

    QSettings settings;
    prefixBox_->addItems(RecentPrefixes(settings).all());
    prefixBox_->setCurrentIndex(0);
}

void PrefixBar::choose(const QString& prefix) {
    const QString text = prefix.isEmpty() ? QStringLiteral("/") : prefix;
    std::string problem; // the field takes escapes (\xNN, \\) for bytes text cannot hold
    const auto bytes = parseKeyText(text.toStdString(), problem);
    if (!bytes) {
        emit rejected(tr("Prefix not changed: %1").arg(QString::fromStdString(problem)));
        return;
    }
    QSettings settings;
    const QStringList recent = RecentPrefixes(settings).rememberUsed(text);
    {
        const QSignalBlocker quiet(prefixBox_);
        prefixBox_->clear();
        prefixBox_->addItems(recent);
        prefixBox_->setCurrentIndex(0);
    }
    emit prefixChosen(*bytes, text);
}

std::string PrefixBar::currentPrefix() const {
    std::string unused; // the recent prefixes were all parsed before they were kept
    return parseKeyText(prefixBox_->currentText().toStdString(), unused).value_or("/");
}

void PrefixBar::focusPrefix() {
    prefixBox_->setFocus(Qt::ShortcutFocusReason);
    prefixBox_->lineEdit()->selectAll();
}

void PrefixBar::showRecipe(etcd::RecipeOverride recipe) {
    const QSignalBlocker quiet(recipeBox_);
    recipeBox_->setCurrentIndex(recipeBox_->findData(static_cast<int>(recipe)));
}

etcd::RecipeOverride PrefixBar::currentRecipe() const {
    return static_cast<etcd::RecipeOverride>(recipeBox_->currentData().toInt());
}

void PrefixBar::showLiveness(bool live, const QString& why, bool connected) {
    liveDot_->setText(QStringLiteral("<span style='color:%1'>●</span>")
                          .arg(live        ? "#2e7d32"
                               : connected ? "#b07d00"
                                           : "gray"));
    liveLabel_->setText(live ? tr("live") : why);
}

} // namespace lockscope
