// The window's menus, offscreen, against a real etcd with a real `etcdctl lock` holder: the
// listed menus and actions, the Lock menu acting as the lock actions bar does (on the selected
// lock's holder when no queue row is selected), Help's pages and About's versions, and every
// plot's export. Saves screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the test's build directory).
#include "app/core/lock_watch.h"
#include "app/gui/about_dialog.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/main_window.h"
#include "app/gui/program_versions.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "main_window_probes.h"
#include "process/child_process.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"
#include "widgets/shortcuts_dialog.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <memory>
#include <qcustomplot.h>

using namespace lockscope;
using lockscope::test::restPointer;
using lockscope::test::saveScreenshot;
using lockscope::test::selectLock;
using lockscope::test::waitersShown;
using lockscope::test::whenModal;

namespace {

constexpr int UiTimeoutMs = 10000;

QString plain(const QString& text) {
    return QString(text).remove('&');
}

QMenu* menuTitled(MainWindow& window, const QString& title) {
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && plain(action->text()) == title)
            return action->menu();
    return nullptr;
}

QStringList actionTexts(const QMenu* menu) {
    QStringList texts;
    for (const QAction* action : menu->actions())
        if (!action->isSeparator())
            texts << plain(action->text());
    return texts;
}

QAction* actionNamed(QMenu* menu, const QString& name) {
    for (QAction* action : menu->actions())
        if (action->objectName() == name)
            return action;
    return nullptr;
}

// Saves a menu as it looks open.
bool saveMenuScreenshot(MainWindow& window, QMenu* menu, const QString& name) {
    menu->popup(window.mapToGlobal(QPoint(20, 20)));
    const bool shown = QTest::qWaitForWindowExposed(menu);
    const bool saved = shown && saveScreenshot(*menu, name);
    menu->hide();
    return saved;
}

} // namespace

class MainWindowMenusIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanup() { etcdctls_.clear(); }

    void cleanupTestCase() { etcd_.stop(); }

    void menuBarHoldsTheListedMenusAndActions() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList titles;
        for (const QAction* action : window.menuBar()->actions())
            titles << plain(action->text());
        QCOMPARE(titles, QStringList({"File", "Lock", "View", "Sandbox", "Help"}));
        QCOMPARE(actionTexts(menuTitled(window, "File")),
                 QStringList({"Connect…", "Close this cluster", "Export event log…",
                              "Open history…", "Open this cluster's history", "Recording settings…",
                              "Rewind to revision…", "Quit"}));
        QCOMPARE(actionTexts(menuTitled(window, "Lock")),
                 QStringList({"Acquire…", "Release", "Pause keepalive", "Force release…",
                              "Copy key", "Campaign…", "Proclaim…", "Resign"}));
        // A page each (whatever pages the window has), then the rest.
        auto* tabs = window.findChild<QTabWidget*>("mainTabs");
        QStringList pages;
        for (int page = 0; page < tabs->count(); ++page)
            pages << tabs->tabText(page);
        for (const char* page : {"Locks", "Timeline", "Cluster", "Lab"})
            QVERIFY2(pages.contains(page), page);
        QCOMPARE(actionTexts(menuTitled(window, "View")),
                 QStringList{"Fleet overview"} + pages +
                     QStringList({"Lock prefix…", "Filter locks…", "Presentation mode", "Read-only",
                                  "Language"}));
        QCOMPARE(actionTexts(menuTitled(window, "Help")),
                 QStringList({"Keyboard shortcuts", "How etcd locks work", "About LockScope"}));
        // Not a copy: the Lock menu holds the bar's own actions, shortcuts and all.
        auto* bar = qobject_cast<LockActionsBar*>(window.lockActionsBar());
        QVERIFY(bar);
        QCOMPARE(menuTitled(window, "Lock")->actions(), bar->lockActions());
        QCOMPARE(bar->lockActions().first()->shortcut(), QKeySequence("Ctrl+Shift+A"));

        QVERIFY(saveScreenshot(window, "menus_window.png"));
        for (const QString title : {"Lock", "View", "Help"})
            QVERIFY(saveMenuScreenshot(window, menuTitled(window, title),
                                       QStringLiteral("menus_%1.png").arg(title.toLower())));
    }

    void viewMenuShowsEachPageAndReadOnly() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tabs = window.findChild<QTabWidget*>("mainTabs");
        QMenu* view = menuTitled(window, "View");
        for (const char* page : {"lockCharts", "clusterPage", "labPanel", "locksPage"}) {
            QAction* show = actionNamed(view, QString(page) + "ViewAction");
            QVERIFY2(show, page);
            show->trigger();
            QCOMPARE(tabs->currentWidget()->objectName(), QString(page));
            QVERIFY(show->isChecked());
        }
        // A tab chosen by hand is checked in the menu too.
        tabs->setCurrentWidget(window.findChild<QWidget*>("clusterPage"));
        QVERIFY(actionNamed(view, "clusterPageViewAction")->isChecked());
        QVERIFY(!actionNamed(view, "locksPageViewAction")->isChecked());

        QAction* acquire = window.findChild<QAction*>("acquireAction");
        QVERIFY(acquire->isVisible());
        actionNamed(view, "readOnlyAction")->trigger();
        QVERIFY(!acquire->isVisible());
        actionNamed(view, "readOnlyAction")->trigger();
        QVERIFY(acquire->isVisible());
    }

    // With no queue row selected, the Lock menu's actions take the selected lock's holder (a
    // real `etcdctl lock`), and their tooltips name it.
    void lockMenuActsOnTheSelectedLocksHolder() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/menus/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        process::ChildProcess* holder = startEtcdctlLock("/menus/job");
        std::optional<std::string> line;
        QVERIFY(
            QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); }, 15000));
        const QString holderKey = QString::fromStdString(*line);
        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/menus/job"), 0, UiTimeoutMs);
        QVERIFY(selectLock(window, "/menus/job"));

        QMenu* lock = menuTitled(window, "Lock");
        QAction* copyKey = actionNamed(lock, "copyKeyAction");
        QAction* forceRelease = actionNamed(lock, "forceReleaseAction");
        QTRY_VERIFY_WITH_TIMEOUT(copyKey->isEnabled() && forceRelease->isEnabled(), UiTimeoutMs);
        // Opening the menu says whose key they take, for the pointer and the keyboard alike.
        lock->popup(window.mapToGlobal(QPoint(20, 20)));
        QVERIFY(QTest::qWaitForWindowExposed(lock));
        for (QAction* described : {copyKey, forceRelease})
            QVERIFY2(described->toolTip().contains("the holder's key " + holderKey),
                     qPrintable(described->toolTip()));
        lock->hide();
        QVERIFY(saveMenuScreenshot(window, lock, "menus_lock_on_holder.png"));
        QGuiApplication::clipboard()->clear();
        copyKey->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), holderKey);

        // The shortcut works from another page, where the bar is not shown.
        window.findChild<QTabWidget*>("mainTabs")
            ->setCurrentWidget(window.findChild<QWidget*>("clusterPage"));
        QGuiApplication::clipboard()->clear();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), holderKey);
    }

    void helpShowsShortcutsAndHowLocksWork() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMenu* help = menuTitled(window, "Help");
        actionNamed(help, "shortcutsAction")->trigger();
        auto* shortcuts = window.findChild<ShortcutsDialog*>("shortcutsDialog");
        QVERIFY(shortcuts && shortcuts->isVisible());
        const auto rows = shortcuts->shortcuts();
        for (const auto& expected : {std::pair<QString, QString>{"Lock → Acquire", "Ctrl+Shift+A"},
                                     {"Lock → Release", "Ctrl+Shift+R"},
                                     {"Lock → Force release", "Ctrl+Shift+Del"},
                                     {"Lock → Copy key", "Ctrl+Shift+C"},
                                     {"View → Timeline", "Ctrl+3"},
                                     {"View → Lock prefix", "Ctrl+L"},
                                     {"View → Filter locks", "Ctrl+F"},
                                     {"File → Connect", "Ctrl+O"},
                                     {"Help → How etcd locks work", "F1"}})
            QVERIFY2(rows.contains(expected), qPrintable(expected.first));
        QVERIFY(saveScreenshot(*shortcuts, "help_shortcuts.png"));

        actionNamed(help, "lockPrimerAction")->trigger();
        auto* primer = window.findChild<QDialog*>("lockPrimerDialog");
        QVERIFY(primer && primer->isVisible());
        const QString text = primer->findChild<QTextBrowser*>("lockPrimerText")->toPlainText();
        for (const char* topic : {"lease", "create revision", "predecessor", "fencing token"})
            QVERIFY2(text.contains(topic, Qt::CaseInsensitive), topic);
        QVERIFY(saveScreenshot(*primer, "help_lock_primer.png"));
    }

    // About shows the etcd version the server reports in its Status reply, once it arrives.
    void aboutShowsTheVersionsAndTheServersEtcd() {
        const auto status = etcd::call(etcd_.client(), &etcd::Client::status, {});
        QVERIFY2(status, status.error().message.c_str());
        const QString serverVersion = QString::fromStdString(status->version());
        QVERIFY(serverVersion.startsWith("3."));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        actionNamed(menuTitled(window, "Help"), "aboutAction")->trigger();
        auto* about = window.findChild<AboutDialog*>("aboutDialog");
        QVERIFY(about && about->isVisible());
        QCOMPARE(about->serverText(), QString("not connected"));
        const ProgramVersions versions = ProgramVersions::current();
        QStringList labels;
        for (const QLabel* label : about->findChildren<QLabel*>())
            labels << label->text();
        const QString shown = labels.join('\n');
        for (const QString& version : {versions.lockscope, versions.qt, versions.grpc})
            QVERIFY2(shown.contains(version), qPrintable(shown));

        window.connectTo(etcd_.cluster().clientOptions());
        const QString endpoint = QString::fromStdString(etcd_.cluster().endpoint(0));
        QTRY_COMPARE_WITH_TIMEOUT(
            about->serverText(), QString("etcd %1 (%2)").arg(serverVersion, endpoint), UiTimeoutMs);
        QVERIFY(saveScreenshot(*about, "help_about.png"));
    }

    // Every plot (three on Timeline, one on Cluster, any other page's) offers PNG and PDF export;
    // the Cluster page's, through its action and the file dialog, writes both and says why a
    // path cannot be written.
    void everyPlotExportsToPngAndPdf() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto plots = window.findChildren<QCustomPlot*>();
        QStringList owners;
        for (const QCustomPlot* plot : plots)
            owners << plot->parentWidget()->objectName();
        for (const char* name :
             {"holderTimeline", "waitPlot", "queueDepthPlot", "latencyPlot", "serverWaitPlot"})
            QVERIFY2(owners.contains(name), qPrintable(owners.join(", ")));
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        auto* latency = window.findChild<QWidget*>("latencyPlot");
        QTRY_VERIFY_WITH_TIMEOUT(
            qobject_cast<LatencyPlot*>(latency)->pointCount("Maintenance.Status") > 0, UiTimeoutMs);
        for (QCustomPlot* plot : plots) {
            QWidget* owner = plot->parentWidget();
            QCOMPARE(plot->contextMenuPolicy(), Qt::ActionsContextMenu);
            QCOMPARE(plot->actions(), owner->actions());
            for (const char* format : {"Png", "Pdf"}) {
                auto* action =
                    owner->findChild<QAction*>(QStringLiteral("export%1Action").arg(format));
                QVERIFY2(action && owner->actions().contains(action),
                         qPrintable(owner->objectName()));
                const QString path =
                    directory.filePath(owner->objectName() + "." + QString(format).toLower());
                QString problem;
                QVERIFY(exportThrough(action, path, problem));
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
                QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
            }
        }

        QFile file(directory.filePath("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QString problem;
        QVERIFY(exportThrough(latency->findChild<QAction*>("exportPdfAction"),
                              file.fileName() + "/round-trips.pdf", problem));
        qInfo("the warning said: %s", qPrintable(problem));
        QVERIFY2(problem.contains("Could not write " + file.fileName() + "/round-trips.pdf: ") &&
                     problem.contains("Not a directory"),
                 qPrintable(problem));
    }

private:
    // Triggers an export action, answers its file dialog with `path`, and gives the text of the
    // warning that followed, if any, in `problem`. False when no file dialog came.
    static bool exportThrough(QAction* action, const QString& path, QString& problem) {
        problem.clear();
        bool dialogHandled = false;
        bool warningHandled = false;
        std::unique_ptr<QTimer> warningPoll;
        const auto dialogPoll = whenModal(
            [&](QWidget* modal) {
                auto* dialog = qobject_cast<QFileDialog*>(modal);
                if (!dialog) {
                    modal->close();
                    return;
                }
                // Typed, as a user would: selectFile() keeps the suggested name.
                auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
                if (!name) {
                    modal->close();
                    return;
                }
                name->setText(path);
                warningPoll = whenModal(
                    [&problem](QWidget* warning) {
                        if (auto* box = qobject_cast<QMessageBox*>(warning))
                            problem = box->text();
                        warning->close();
                    },
                    warningHandled, 2000);
                static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept, as OK does
            },
            dialogHandled);
        action->trigger(); // returns once the dialog (and any warning) is answered
        return dialogHandled;
    }

    process::ChildProcess* startEtcdctlLock(const std::string& name) {
        etcdctls_.push_back(test::etcdctlLock(etcd_.cluster().endpointList(), name));
        return etcdctls_.back().get();
    }

    test::LocalEtcd etcd_;
    std::vector<std::unique_ptr<process::ChildProcess>> etcdctls_;
};

LOCKSCOPE_QTEST_MAIN(MainWindowMenusIntegrationTest)
#include "main_window_menus_integration_test.moc"
