#include "widgets/plot_export.h"

#include "widgets/export_path.h"

#include <QAction>
#include <QFileDialog>
#include <QImageWriter>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <qcustomplot.h>

namespace lockscope {

namespace {

// A plot that was never laid out (its tab never shown) still exports at a readable size.
QSize exportSize(const QCustomPlot& plot) {
    return plot.size().expandedTo(QSize(640, 320));
}

bool writePdf(QCustomPlot& plot, QSaveFile& file) {
    const QSize size = exportSize(plot);
    QPdfWriter pdf(&file);
    pdf.setCreator("LockScope");
    // One point per pixel: the page is the plot's size on screen, with no margins.
    pdf.setResolution(72);
    pdf.setPageLayout(QPageLayout(QPageSize(size, QPageSize::Point, {}, QPageSize::ExactMatch),
                                  QPageLayout::Portrait, QMarginsF()));
    QCPPainter painter;
    if (!painter.begin(&pdf))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    plot.toPainter(&painter, size.width(), size.height());
    return painter.end();
}

} // namespace

bool exportPlot(QCustomPlot& plot, const QString& path, QString& error) {
    // QCustomPlot's savePdf() and savePng() say only false; QPixmap::save() cannot write PDF at
    // all (there is no PDF image format). A QSaveFile opened here knows the system's reason,
    // and a failed write leaves no half-written file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = file.errorString();
        return false;
    }
    bool written = false;
    if (path.endsWith(".pdf", Qt::CaseInsensitive)) {
        written = writePdf(plot, file);
        if (!written)
            error = QObject::tr("the PDF could not be drawn");
    } else {
        const QSize size = exportSize(plot);
        QImageWriter writer(&file, "png");
        written = writer.write(plot.toPixmap(size.width(), size.height()).toImage());
        if (!written)
            error = writer.errorString();
    }
    if (!written) {
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        error = file.errorString();
        return false;
    }
    return true;
}

void addPlotExportActions(QWidget* owner, QCustomPlot* plot, PlotExporter exporter) {
    struct Format {
        const char* objectName;
        QString text, suffix, filter;
    };
    const Format formats[] = {
        {"exportPngAction", QObject::tr("Export as PNG…"), ".png", QObject::tr("PNG (*.png)")},
        {"exportPdfAction", QObject::tr("Export as PDF…"), ".pdf", QObject::tr("PDF (*.pdf)")}};
    for (const Format& format : formats) {
        auto* action = new QAction(format.text, owner);
        action->setObjectName(format.objectName);
        QObject::connect(action, &QAction::triggered, owner, [owner, exporter, format] {
            QString path = QFileDialog::getSaveFileName(
                owner, format.text.chopped(1),
                defaultExportPath(owner->windowTitle(), format.suffix), format.filter);
            if (path.isEmpty())
                return;
            if (!path.endsWith(format.suffix, Qt::CaseInsensitive))
                path += format.suffix;
            QString error;
            if (exporter(path, error))
                rememberExportFolder(path);
            else
                QMessageBox::warning(owner, format.text.chopped(1),
                                     QObject::tr("Could not write %1: %2").arg(path, error));
        });
        owner->addAction(action);
        plot->addAction(action);
    }
    plot->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace lockscope
