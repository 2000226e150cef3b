// The window on a 1024 x 700 screen (and, run again, on a 1600 x 1000 one: the screen that
// LOCKSCOPE_TEST_SCREEN names), in English and in Simplified Chinese, showing a held lock
// with waiters and its events: it fits the screen, every button on every page lies on the
// screen, no table header nor plot legend is cut (QFontMetrics against the cells' widths), and
// the queue's keys show at least their last two segments (the lease, and what precedes it).
// Saves screenshots of each page to $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/ui_language.h"
#include "app/gui/main_window.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QHeaderView>
#include <QScreen>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <csignal>
#include <qcustomplot.h>

using namespace lockscope;
using lockscope::test::saveScreenshot;

namespace {

constexpr int UiTimeoutMs = 15000;

// Where `widget` lies on the screen.
QRect onScreen(const QWidget& widget) {
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size());
}

// The visible buttons of `page` that do not lie wholly on `screen`, by their text.
QStringList buttonsOffScreen(const QWidget& page, const QRect& screen) {
    QStringList off;
    for (const QAbstractButton* button : page.findChildren<QAbstractButton*>())
        if (button->isVisibleTo(page.window()) && button->isVisible() &&
            !screen.contains(onScreen(*button)))
            off << button->text() + " " + QString::number(onScreen(*button).right());
    return off;
}

// The visible header sections of `page`'s tables whose text is wider than the section.
QStringList headersCut(const QWidget& page) {
    QStringList cut;
    for (const QHeaderView* header : page.findChildren<QHeaderView*>()) {
        if (!header->isVisible() || !header->model() || header->orientation() != Qt::Horizontal)
            continue;
        const QFontMetrics metrics(header->font());
        const int margins =
            2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int section = 0; section < header->count(); ++section) {
            if (header->isSectionHidden(section))
                continue;
            const QString text = header->model()->headerData(section, Qt::Horizontal).toString();
            const int needed = metrics.horizontalAdvance(text) + margins;
            if (needed > header->sectionSize(section))
                cut << QString("%1 (%2 > %3)")
                           .arg(text)
                           .arg(needed)
                           .arg(header->sectionSize(section));
        }
    }
    return cut;
}

// The legend items of `page`'s plots that do not fit their plot, by their text.
QStringList legendsCut(const QWidget& page) {
    QStringList cut;
    for (QCustomPlot* plot : page.findChildren<QCustomPlot*>()) {
        if (!plot->isVisible() || !plot->legend->visible())
            continue;
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
            if (!item)
                continue;
            const QString text = item->plottable()->name();
            const QFontMetrics metrics(item->font());
            const QRect rect = item->rect();
            const int needed = metrics.horizontalAdvance(text);
            if (rect.right() > plot->width() || rect.bottom() > plot->height() ||
                rect.width() < needed)
                cut << text;
        }
    }
    return cut;
}

} // namespace

class SmallScreenLayoutIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
        const std::string endpoints = etcd_.cluster().endpointList();
        holder_ = test::etcdctlLock(endpoints, "/layout/a-rather-long-lock-name/badsuffix");
        QVERIFY(holder_->readLine(std::chrono::seconds(10)));
        waiter_ = test::etcdctlLock(endpoints, "/layout/a-rather-long-lock-name/badsuffix");
    }

    void cleanupTestCase() {
        for (auto* etcdctl : {holder_.get(), waiter_.get()}) {
            etcdctl->signal(SIGKILL);
            etcdctl->wait(std::chrono::seconds(10));
        }
        etcd_.stop();
    }

    void fitsInEnglish() { checkFits("en"); }

    void fitsInChinese() {
        installTranslations(*QCoreApplication::instance(), UiLanguage::SimplifiedChinese);
        checkFits("zh_CN");
    }

    // A window made larger than its screen (as a screen change would leave it) fits again once
    // the screen says its available area changed.
    void aScreenChangeFitsTheWindowAgain() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QScreen* screen = window.screen();
        QTRY_VERIFY(screen->availableGeometry().contains(window.frameGeometry()));
        window.resize(screen->size() + QSize(200, 200));
        QVERIFY(!screen->availableGeometry().contains(window.frameGeometry()));
        emit screen->availableGeometryChanged(screen->availableGeometry());
        QVERIFY2(screen->availableGeometry().contains(window.frameGeometry()),
                 qPrintable(QString("%1x%2").arg(window.width()).arg(window.height())));
    }

private:
    void checkFits(const QString& language) {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/layout/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 2, UiTimeoutMs);
        const QRect screen = window.screen()->availableGeometry();
        const QString size = QString("%1x%2").arg(screen.width()).arg(screen.height());
        QCOMPARE(size, qEnvironmentVariable("LOCKSCOPE_TEST_SCREEN", "1024x700"));
        QVERIFY2(screen.contains(window.frameGeometry()),
                 qPrintable(QString("window %1x%2 at %3,%4")
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(window.frameGeometry().x())
                                .arg(window.frameGeometry().y())));
        const auto* queue = window.findChild<QTableView*>("queueTable");
        QVERIFY(queue);
        const QString tail =
            QString::fromStdString(window.lockWatch()->queue()->entryAt(0).key).section('/', -2);
        const int needed = queue->fontMetrics().horizontalAdvance("…/" + tail) + 8;
        QVERIFY2(queue->columnWidth(LockQueueModel::Key) >= needed,
                 qPrintable(QString("key column %1 px, \"…/%2\" needs %3")
                                .arg(queue->columnWidth(LockQueueModel::Key))
                                .arg(tail)
                                .arg(needed)));
        auto* tabs = window.findChild<QTabWidget*>("mainTabs");
        for (int page = 0; page < tabs->count(); ++page) {
            tabs->setCurrentIndex(page);
            QWidget* shown = tabs->widget(page);
            QTest::qWait(50); // laid out and painted once; the checks below read geometry
            const QString name =
                shown->objectName().isEmpty() ? tabs->tabText(page) : shown->objectName();
            QVERIFY(saveScreenshot(
                window, QString("layout_%1_%2_%3.png").arg(size, language, QString::number(page))));
            const QStringList off = buttonsOffScreen(window, screen);
            QVERIFY2(off.isEmpty(), qPrintable(name + ": " + off.join(", ")));
            const QStringList cut = headersCut(*shown);
            QVERIFY2(cut.isEmpty(), qPrintable(name + ": " + cut.join(", ")));
            const QStringList legends = legendsCut(*shown);
            QVERIFY2(legends.isEmpty(), qPrintable(name + ": " + legends.join(", ")));
        }
    }

    test::LocalEtcd etcd_;
    std::unique_ptr<process::ChildProcess> holder_;
    std::unique_ptr<process::ChildProcess> waiter_;
};

LOCKSCOPE_QTEST_MAIN(SmallScreenLayoutIntegrationTest)
#include "small_screen_layout_integration_test.moc"
