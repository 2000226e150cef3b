// Every plot widget written to PNG and PDF (also when never shown, as on a tab not opened), and
// a path that cannot be written giving the system's reason.
#include "support/qtest_registry.h"
#include "widgets/holder_timeline.h"
#include "widgets/latency_plot.h"

#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <memory>
#include <qcustomplot.h>

using namespace lockscope;

namespace {

using Exporter = std::function<bool(const QString&, QString&)>;

double now() {
    return static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

std::shared_ptr<QWidget> plotWithData(const QString& kind, Exporter& exporter) {
    if (kind == "latency") {
        auto plot = std::make_shared<LatencyPlot>();
        for (int i = 0; i < 50; ++i)
            plot->addPoint("Range", now() - 50 + i, 1 + i % 7);
        exporter = [plot = plot.get()](const QString& p, QString& e) {
            return plot->exportTo(p, e);
        };
        return plot;
    }
    auto timeline = std::make_shared<HolderTimeline>();
    timeline->beginHold("/locks/a", {"/locks/a/1"}, now() - 30);
    timeline->beginHold("/locks/a", {"/locks/a/2"}, now() - 10);
    timeline->beginHold("/locks/b", {"/locks/b/7"}, now() - 20);
    exporter = [plot = timeline.get()](const QString& p, QString& e) {
        return plot->exportTo(p, e);
    };
    return timeline;
}

int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace

class PlotExportTest : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(directory_.isValid()); }

    void writesPngAndPdf_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("shown");
        QTest::newRow("latency plot, never shown") << "latency" << false;
        QTest::newRow("latency plot, shown") << "latency" << true;
        QTest::newRow("holder timeline, never shown") << "timeline" << false;
        QTest::newRow("holder timeline, shown") << "timeline" << true;
    }
    void writesPngAndPdf() {
        QFETCH(QString, kind);
        QFETCH(bool, shown);
        Exporter exporter;
        const auto plot = plotWithData(kind, exporter);
        if (shown) {
            plot->resize(700, 300);
            plot->show();
            QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
        }
        const QString name = QString(QTest::currentDataTag()).replace(' ', '_');
        QString error;
        const QString png = directory_.filePath(name + ".png");
        QVERIFY2(exporter(png, error), qPrintable(error));
        const QImage image(png);
        QVERIFY2(!image.isNull(), "the PNG does not load");
        QVERIFY(image.width() >= 640 && image.height() >= 300);
        QVERIFY2(distinctColours(image) > 8, "the PNG looks blank"); // axes, text and data

        const QString pdf = directory_.filePath(name + ".pdf");
        QVERIFY2(exporter(pdf, error), qPrintable(error));
        QFile written(pdf);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        QVERIFY2(bytes.startsWith("%PDF-"), bytes.left(16).constData());
        QVERIFY(bytes.size() > 1000);
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    }

    void saysWhyAPathCannotBeWritten_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("suffix");
        for (const char* kind : {"latency", "timeline"})
            for (const char* suffix : {".png", ".pdf"})
                QTest::newRow(QByteArray(kind) + suffix) << kind << suffix;
    }
    void saysWhyAPathCannotBeWritten() {
        QFETCH(QString, kind);
        QFETCH(QString, suffix);
        Exporter exporter;
        const auto plot = plotWithData(kind, exporter);
        // A directory that does not exist, and a "directory" that is a file: root can write
        // anywhere else, so these are the failures every user can meet.
        QString error;
        const QString missing = directory_.filePath("no-such-directory/plot" + suffix);
        QVERIFY(!exporter(missing, error));
        QVERIFY2(error.contains("No such file or directory"), qPrintable(error));
        QVERIFY(!QFile::exists(missing));

        QFile file(directory_.filePath("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        error.clear();
        QVERIFY(!exporter(file.fileName() + "/plot" + suffix, error));
        QVERIFY2(error.contains("Not a directory"), qPrintable(error));
    }

    void offersExportOnTheContextMenu() {
        for (const QString kind : {"latency", "timeline"}) {
            Exporter exporter;
            const auto plot = plotWithData(kind, exporter);
            QStringList names;
            for (const QAction* action : plot->actions())
                names << action->objectName();
            QCOMPARE(names, QStringList({"exportPngAction", "exportPdfAction"}));
            // The right click lands on the QCustomPlot inside, which takes mouse presses.
            auto* inner = plot->findChild<QCustomPlot*>();
            QVERIFY(inner);
            QCOMPARE(inner->contextMenuPolicy(), Qt::ActionsContextMenu);
            QCOMPARE(inner->actions(), plot->actions());
        }
    }

private:
    QTemporaryDir directory_;
};

LOCKSCOPE_QTEST_MAIN(PlotExportTest)
#include "plot_export_test.moc"
