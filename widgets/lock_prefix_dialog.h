#pragma once

#include <QDialog>

class QComboBox;
class QPushButton;

namespace lockscope {

// Asks which key prefix to watch for locks, offering the cluster's recent prefixes. Two uses:
// the first connection to a cluster (a real cluster keeps its locks somewhere of its own, and
// "/" is its whole keyspace), and a prefix found to hold too many keys that are not locks,
// where it offers to narrow it or to load it all anyway. Text as the prefix field takes it.
class LockPrefixDialog : public QDialog {
    Q_OBJECT
public:
    // The first connection to `cluster` (its endpoints, as shown); `recent`: the prefixes used
    // lately on other clusters, the newest first, offered in the list.
    static LockPrefixDialog* askFirst(const QString& cluster, const QStringList& recent,
                                      QWidget* parent);
    // `prefix` holds `keys` keys, about `otherKeys` of them not lock keys: narrowing needs a
    // prefix other than it; Load anyway watches it as it is.
    static LockPrefixDialog* warnBroad(const QString& prefix, qint64 keys, qint64 otherKeys,
                                       const QStringList& recent, QWidget* parent);

    // The prefix to watch: typed or picked, or the broad one after Load anyway.
    QString prefix() const;
    bool loadAnyway() const { return loadAnyway_; }
    QString message() const; // what the dialog says above the field

private:
    LockPrefixDialog(const QString& message, const QStringList& recent, const QString& initial,
                     QWidget* parent);

    QComboBox* prefixBox_;
    QPushButton* watchButton_;
    QString broad_; // the prefix warned about (warnBroad); empty otherwise
    bool loadAnyway_ = false;
};

} // namespace lockscope
