// The window in English (the source language) and in Simplified Chinese: its menus, pages
// and table headers, and View ▸ Language keeping the choice for the next start. No server:
// the window is built, not connected.
#include "app/core/ui_language.h"
#include "app/gui/main_window.h"
#include "support/qtest_registry.h"
#include "test_settings.h"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QTest>

using namespace lockscope;

namespace {

QStringList menuTitles(const MainWindow& window) {
    QStringList titles;
    for (const QAction* action : window.menuBar()->actions())
        titles << action->text();
    return titles;
}

QStringList tabTitles(const MainWindow& window) {
    const auto* tabs = window.findChild<QTabWidget*>("mainTabs");
    QStringList titles;
    for (int i = 0; tabs && i < tabs->count(); ++i)
        titles << tabs->tabText(i);
    return titles;
}

// The pages' headings, labels, buttons and box titles.
QStringList pageTexts(const MainWindow& window) {
    QStringList texts;
    for (const QLabel* label : window.findChildren<QLabel*>())
        texts << label->text();
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>())
        texts << button->text();
    for (const QGroupBox* box : window.findChildren<QGroupBox*>())
        texts << box->title();
    return texts;
}

} // namespace

class MainWindowLanguageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { useFreshTestSettings("LockScopeLanguageTest"); }

    // Before any catalogue is installed: the source texts.
    void englishWindow() {
        MainWindow window;
        QCOMPARE(menuTitles(window), QStringList({"&File", "&Lock", "&View", "&Sandbox", "&Help"}));
        QCOMPARE(tabTitles(window), QStringList({"Locks", "Blockers", "Timeline", "Cluster",
                                                 "Metrics", "Lab", "Stage"}));
        const QStringList texts = pageTexts(window);
        for (const char* text : {"Holder and queue", "Lock events", "Members", "Start"})
            QVERIFY2(texts.contains(text), text);
    }

    void chineseWindow() {
        installTranslations(*QCoreApplication::instance(), UiLanguage::SimplifiedChinese);
        MainWindow window;
        QCOMPARE(menuTitles(window),
                 QStringList({"文件(&F)", "锁(&L)", "视图(&V)", "沙箱(&S)", "帮助(&H)"}));
        QCOMPARE(tabTitles(window),
                 QStringList({"锁", "阻塞", "时间线", "集群", "指标", "实验室", "舞台"}));
        const QStringList texts = pageTexts(window);
        for (const char* text : {"持有者与等待队列", "锁事件", "成员", "开始"})
            QVERIFY2(texts.contains(QString::fromUtf8(text)), text);
        QVERIFY2(!texts.contains("Holder and queue"), qPrintable(texts.join('|')));
        const auto* language = window.findChild<QMenu*>("languageMenu");
        QVERIFY(language);
        QCOMPARE(language->title(), QString("语言(&L)"));
        QStringList entries;
        for (const QAction* action : language->actions())
            entries << action->text();
        // Each language named in itself, whatever the window speaks.
        QCOMPARE(entries, QStringList({"跟随系统语言(&S)", "English", "简体中文"}));
    }

    void languageMenuKeepsTheChoiceForTheNextStart() {
        MainWindow window;
        window.show();
        auto* system = window.findChild<QAction*>("language_system");
        auto* chinese = window.findChild<QAction*>("language_zh_CN");
        auto* english = window.findChild<QAction*>("language_en");
        QVERIFY(system && chinese && english);
        QVERIFY(system->isChecked()); // nothing chosen yet

        chinese->trigger();
        QCOMPARE(QSettings().value(uiLanguageSettingKey).toString(), QString("zh_CN"));
        auto* note = window.findChild<QMessageBox*>("languageChangedNote");
        QVERIFY(note);
        QTRY_VERIFY(note->isVisible());
        QCOMPARE(note->text(), QString("LockScope 将在下次启动时使用所选语言。"));
        note->accept();

        english->trigger();
        QCOMPARE(QSettings().value(uiLanguageSettingKey).toString(), QString("en"));
        QCOMPARE(chosenUiLanguage(QSettings().value(uiLanguageSettingKey).toString(), {"zh-CN"}),
                 UiLanguage::English);
        system->trigger();
        QCOMPARE(QSettings().value(uiLanguageSettingKey).toString(), QString());

        MainWindow reopened; // the menu shows what is stored
        QVERIFY(reopened.findChild<QAction*>("language_system")->isChecked());
        QSettings().setValue(uiLanguageSettingKey, "zh_CN");
        MainWindow again;
        QVERIFY(again.findChild<QAction*>("language_zh_CN")->isChecked());
        QSettings().clear();
    }
};

LOCKSCOPE_QTEST_MAIN(MainWindowLanguageTest)
#include "main_window_language_test.moc"
