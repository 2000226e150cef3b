#include "app/gui/history_report_dialog.h"

#include "app/core/json_writer.h"
#include "app/core/key_text.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPageSize>
#include <QPdfWriter>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace lockscope {

namespace {

QString spreadCells(const LockHistoryReport::Spread& spread) {
    if (spread.count == 0)
        return "<td colspan=3 align=center>–</td>";
    return QString("<td align=right>%1</td><td align=right>%2</td><td align=right>%3</td>")
        .arg(spread.p50.count())
        .arg(spread.p99.count())
        .arg(spread.max.count());
}

QString shown(const std::string& bytes) {
    return QString::fromStdString(displayKey(bytes)).toHtmlEscaped();
}

QString reportHtml(const LockHistoryReport& report, const QString& span) {
    QString html = "<h3>" + span.toHtmlEscaped() + "</h3>";
    if (report.locks().empty())
        return html + "<p>" + HistoryReportDialog::tr("No lock event in this span.") + "</p>";
    html += "<table border=1 cellspacing=0 cellpadding=3><tr><th rowspan=2>" +
            HistoryReportDialog::tr("Lock") + "</th><th rowspan=2>" +
            HistoryReportDialog::tr("Acquisitions") + "</th><th colspan=3>" +
            HistoryReportDialog::tr("Held, ms") + "</th><th colspan=3>" +
            HistoryReportDialog::tr("Waited, ms") + "</th><th rowspan=2>" +
            HistoryReportDialog::tr("Expiries") + "</th><th rowspan=2>" +
            HistoryReportDialog::tr("Losses") + "</th><th rowspan=2>" +
            HistoryReportDialog::tr("Force releases") + "</th></tr><tr>";
    for (int i = 0; i < 2; ++i)
        html += "<th>p50</th><th>p99</th><th>max</th>";
    html += "</tr>";
    for (const auto& lock : report.locks())
        html += QString("<tr><td>%1</td><td align=right>%2</td>%3%4<td align=right>%5</td>"
                        "<td align=right>%6</td><td align=right>%7</td></tr>")
                    .arg(shown(lock.name))
                    .arg(lock.acquisitions)
                    .arg(spreadCells(lock.holds), spreadCells(lock.waits))
                    .arg(lock.expiries)
                    .arg(lock.losses)
                    .arg(lock.forceReleases);
    html += "</table><h4>" + HistoryReportDialog::tr("Longest waits") + "</h4><ul>";
    for (const auto& lock : report.locks())
        for (const auto& wait : lock.longestWaits) {
            QStringList behind;
            for (const auto& holder : wait.waitedOn)
                behind << shown(holder);
            html += "<li>" +
                    HistoryReportDialog::tr("%1: %2 waited %3%4 ms, acquired %5 (revision %6), "
                                            "behind %7")
                        .arg(shown(lock.name), shown(wait.key), wait.atLeast ? "≥ " : "")
                        .arg(wait.waited.count())
                        .arg(QString::fromStdString(isoTime(wait.acquiredAt)))
                        .arg(wait.revision)
                        .arg(behind.isEmpty() ? HistoryReportDialog::tr("nobody seen")
                                              : behind.join(", ")) +
                    "</li>";
        }
    html += "</ul>";
    if (report.gaps() > 0)
        html += "<p>" +
                HistoryReportDialog::tr("%n gap(s) in this span: times across them are bounds, "
                                        "left out of the percentiles.",
                                        nullptr, static_cast<int>(report.gaps())) +
                "</p>";
    return html;
}

} // namespace

HistoryReportDialog::HistoryReportDialog(std::shared_ptr<const LockHistoryReport> report,
                                         const QString& span, QWidget* parent)
    : QDialog(parent) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Report: %1").arg(span));
    text_ = new QTextBrowser(this);
    text_->setHtml(reportHtml(*report, span));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* pdf = buttons->addButton(tr("Export PDF…"), QDialogButtonBox::ActionRole);
    connect(pdf, &QPushButton::clicked, this, &HistoryReportDialog::choosePdfFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text_);
    layout->addWidget(buttons);
    resize(900, 600);
}

QString HistoryReportDialog::html() const {
    return text_->toHtml();
}

bool HistoryReportDialog::exportPdf(const QString& path, QString& error) const {
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setTitle(windowTitle());
    QTextDocument document;
    document.setHtml(text_->toHtml());
    document.print(&writer);
    if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0) {
        error = tr("%1 could not be written: choose a folder you may write in").arg(path);
        return false;
    }
    return true;
}

void HistoryReportDialog::choosePdfFile() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the report"),
                                                      "lock-report.pdf", tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportPdf(path, error))
        QMessageBox::warning(this, tr("Export the report"), error);
}

} // namespace lockscope
