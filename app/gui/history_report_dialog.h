#pragma once

#include "app/core/lock_history_report.h"

#include <QDialog>
#include <memory>

class QTextBrowser;

namespace lockscope {

// The report of a span of a recording (lockscopectl history --report's figures, per lock): how
// often each lock was taken, hold and wait times, expiries and losses, the longest waits and
// whom they waited behind. Exportable to PDF.
class HistoryReportDialog : public QDialog {
    Q_OBJECT
public:
    // `span` says which part of the recording, for the title and the PDF.
    HistoryReportDialog(std::shared_ptr<const LockHistoryReport> report, const QString& span,
                        QWidget* parent = nullptr);

    // The report as shown (HTML).
    QString html() const;
    // Writes it to `path` as PDF; false, with why in `error`, when that failed.
    bool exportPdf(const QString& path, QString& error) const;

private:
    void choosePdfFile();

    QTextBrowser* text_ = nullptr;
};

} // namespace lockscope
