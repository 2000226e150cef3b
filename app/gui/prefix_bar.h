#pragma once

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

signals:
    // `prefix` as bytes, and as typed.
    void prefixChosen(const std::string& prefix, const QString& text);
    void rejected(const QString& message);

private:
    QComboBox* prefixBox_;
    QLabel* liveDot_;
    ElidedLabel* liveLabel_; // a reconnect's reason can be long
};

} // namespace lockscope
