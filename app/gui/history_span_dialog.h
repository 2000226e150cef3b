#pragma once

#include "app/core/lock_history_store.h"
#include "app/core/recorded_history.h"

#include <QDialog>

class QLabel;
class QLineEdit;

namespace lockscope {

// Span…'s question: which part of a recording to open. Each end is a time (ISO 8601, UTC unless
// it names its offset) or a revision, as `lockscope --history --since/--until` take them, so a
// time or revision copied from an alert or a log goes in as it is. An end left empty is open; an
// end typed wrong is said so, and the dialog stays.
class HistorySpanDialog : public QDialog {
    Q_OBJECT
public:
    // `summary`: the recording as opened (its times, and the part read now, which the ends start
    // from).
    HistorySpanDialog(const RecordedHistorySummary& summary, QWidget* parent = nullptr);

    // The span typed, once accepted.
    const LockHistoryStore::Filter& span() const { return span_; }

private:
    void readSpan();

    QLineEdit* from_ = nullptr;
    QLineEdit* to_ = nullptr;
    QLabel* problem_ = nullptr;
    LockHistoryStore::Filter span_;
};

} // namespace lockscope
