#pragma once

#include <QDialog>

class QFormLayout;
class QLabel;
class QLineEdit;

namespace lockscope {

// The frame the Acquire and Campaign dialogs share: a name field (any bytes, as \xNN escapes),
// a session TTL field, a form the subclass fills, a problem line the checks write, and an
// accept button enabled only while the name is not blank.
class NamedFormDialog : public QDialog {
    Q_OBJECT
protected:
    NamedFormDialog(const QString& name, const QString& acceptText, qint64 ttlSeconds,
                    QWidget* parent);

    QString nameText() const;
    qint64 ttlValue() const; // 0 when the field holds no number
    void setTtlValue(qint64 seconds);
    // Shows `problem` (or hides the line when empty); true when there is none.
    bool showProblem(const QString& problem);

    QLineEdit* const name_;
    QLineEdit* const ttl_;
    QFormLayout* const form_;
    QLabel* const problem_;
};

} // namespace lockscope
