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

    // The name as typed, every byte: white space at either end is part of the lock's name.
    QString nameText() const;
    // Empty, or, the first time a name with white space at either end is accepted, why that
    // needs a second look; accepting the same text again goes ahead.
    QString edgeSpaceProblem();
    qint64 ttlValue() const; // 0 when the field holds no number
    void setTtlValue(qint64 seconds);
    // Shows `problem` (or hides the line when empty); true when there is none.
    bool showProblem(const QString& problem);

    QLineEdit* const name_;
    QLineEdit* const ttl_;
    QFormLayout* const form_;
    QLabel* const problem_;

private:
    const QString acceptText_;
    QString edgeSpacesConfirmed_; // the spaced name accepted once already
};

} // namespace lockscope
