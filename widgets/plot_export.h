#pragma once

#include <QString>
#include <functional>

class QCustomPlot;
class QWidget;

namespace lockscope {

// Writes `plot` as it is drawn now to `path`: PDF (vector) when the name ends in .pdf, else
// PNG. False with `error` saying why, in the system's words when the file cannot be written
// ("Permission denied", "No such file or directory").
bool exportPlot(QCustomPlot& plot, const QString& path, QString& error);

// Writes the plot of `owner` to a path (what exportPlot() does, after bringing the view up to
// date); false with the reason in the second argument.
using PlotExporter = std::function<bool(const QString& path, QString& error)>;

// Gives `owner` the actions "Export as PNG…" and "Export as PDF…" (object names
// exportPngAction and exportPdfAction), also as the context menu of its `plot` (which takes the
// right click): each asks for a file (named after the owner's object name by default) and says
// why when writing fails.
void addPlotExportActions(QWidget* owner, QCustomPlot* plot, PlotExporter exporter);

} // namespace lockscope
