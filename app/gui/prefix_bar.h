#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QWidget>
#include <string>

class QComboBox;
class QLabel;

namespace lockscope {

class ElidedLabel;

// The row above the tabs: the key prefix whose locks are watched (editable, with the recent
// prefixes kept in the settings; escapes such as \xNN name bytes text cannot hold) and whether
// the watch is live.
class PrefixBar : public QWidget {
    Q_OBJECT
public:
    explicit PrefixBar(QWidget* parent = nullptr);

    // Applies `text` (empty: "/"): remembers it first among the recent prefixes and emits
    // prefixChosen, or says why not in rejected.
    void choose(const QString& text);
    // The prefix shown, as bytes ("/" when it does not parse).
    std::string currentPrefix() const;
    void focusPrefix();
    // `connected`: a connection is in use (the dot is amber when not live, else grey).
    void showLiveness(bool live, const QString& why, bool connected);
    // Shows the recipe the keys are read with, without emitting recipeChosen.
    void showRecipe(etcd::RecipeOverride recipe);
    etcd::RecipeOverride currentRecipe() const;

signals:
    // `prefix` as bytes, and as typed.
    void prefixChosen(const std::string& prefix, const QString& text);
    void rejected(const QString& message);
    // The user named how the keys form locks (auto: detected per key).
    void recipeChosen(etcd::RecipeOverride recipe);

private:
    QComboBox* prefixBox_;
    QComboBox* recipeBox_;
    QLabel* liveDot_;
    ElidedLabel* liveLabel_; // a reconnect's reason can be long
};

} // namespace lockscope
