#include "app/gui/history_span_dialog.h"

#include "app/core/history_bound.h"
#include "app/core/json_writer.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace lockscope {

namespace {

QString isoText(std::chrono::system_clock::time_point at) {
    return QString::fromStdString(isoTime(at));
}

} // namespace

HistorySpanDialog::HistorySpanDialog(const RecordedHistorySummary& summary, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Which part of the recording?"));
    auto* form = new QFormLayout(this);
    auto* about = new QLabel(
        tr("Each end a time (ISO 8601, UTC unless it says otherwise) or a revision; an empty end "
           "is open. The recording runs from %1 to %2. At most %L3 events, gaps and anomaly "
           "changes are read: a longer part is read from its start on as far as they go (without "
           "a start, back from its end).")
            .arg(summary.recordedFrom ? isoText(*summary.recordedFrom) : QString(),
                 summary.recordedUntil ? isoText(*summary.recordedUntil) : QString())
            .arg(summary.maxEntries),
        this);
    about->setWordWrap(true);
    form->addRow(about);
    from_ = new QLineEdit(this);
    from_->setObjectName("spanFrom");
    to_ = new QLineEdit(this);
    to_->setObjectName("spanTo");
    if (!summary.moments.empty()) {
        from_->setText(isoText(summary.moments.front().at));
        to_->setText(isoText(summary.moments.back().at));
    }
    form->addRow(tr("From:"), from_);
    form->addRow(tr("To:"), to_);
    problem_ = new QLabel(this);
    problem_->setObjectName("spanProblem");
    problem_->setStyleSheet("color: #b00020;");
    problem_->setWordWrap(true);
    problem_->hide();
    form->addRow(problem_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &HistorySpanDialog::readSpan);
    resize(560, sizeHint().height());
}

void HistorySpanDialog::readSpan() {
    LockHistoryStore::Filter span;
    for (const auto& [edit, revision, time] : {std::tuple{from_, &span.sinceRevision, &span.since},
                                               std::tuple{to_, &span.untilRevision, &span.until}}) {
        const QString text = edit->text().trimmed();
        if (!text.isEmpty() && !readHistoryBound(text, *revision, *time)) {
            problem_->setText(tr("\"%1\" is neither a time like 2026-11-27T03:10:00Z nor a "
                                 "revision.")
                                  .arg(text));
            problem_->show();
            edit->setFocus();
            edit->selectAll();
            return;
        }
    }
    if ((span.since && span.until && *span.since > *span.until) ||
        (span.sinceRevision && span.untilRevision && *span.sinceRevision > *span.untilRevision)) {
        problem_->setText(tr("From comes after To: nothing lies between them."));
        problem_->show();
        return;
    }
    span_ = span;
    accept();
}

} // namespace lockscope
