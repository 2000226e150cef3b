// Which language LockScope speaks (the setting, else the first of the user's languages it
// knows) and that the built-in catalogue and Qt's own load for it.
#include "app/core/ui_language.h"
#include "support/qtest_registry.h"

#include <QCoreApplication>
#include <QTest>

using namespace lockscope;

Q_DECLARE_METATYPE(lockscope::UiLanguage)

class UiLanguageTest : public QObject {
    Q_OBJECT
private slots:
    void followsTheFirstLanguageItSpeaks_data() {
        QTest::addColumn<QStringList>("preferred");
        QTest::addColumn<UiLanguage>("expected");
        const auto zh = UiLanguage::SimplifiedChinese;
        const auto en = UiLanguage::English;
        QTest::newRow("LANG=zh_CN.UTF-8") << QStringList{"zh-CN", "zh-Hans-CN", "zh"} << zh;
        QTest::newRow("zh alone") << QStringList{"zh"} << zh;
        QTest::newRow("Singapore") << QStringList{"zh-SG"} << zh;
        QTest::newRow("Taiwan reads Traditional") << QStringList{"zh-TW", "zh-Hant-TW"} << en;
        QTest::newRow("Hong Kong reads Traditional") << QStringList{"zh-HK"} << en;
        QTest::newRow("English before Chinese") << QStringList{"en-US", "zh-CN"} << en;
        QTest::newRow("French, then Chinese") << QStringList{"fr-FR", "fr", "zh-CN"} << zh;
        QTest::newRow("German only") << QStringList{"de-DE", "de"} << en;
        QTest::newRow("LANG=C") << QStringList{"C"} << en;
        QTest::newRow("nothing") << QStringList{} << en;
    }
    void followsTheFirstLanguageItSpeaks() {
        QFETCH(QStringList, preferred);
        QFETCH(UiLanguage, expected);
        QCOMPARE(uiLanguageFor(preferred), expected);
    }

    void theSettingWinsOverTheSystem() {
        QCOMPARE(chosenUiLanguage("zh_CN", {"en-US"}), UiLanguage::SimplifiedChinese);
        QCOMPARE(chosenUiLanguage("en", {"zh-CN"}), UiLanguage::English);
        QCOMPARE(chosenUiLanguage("", {"zh-CN"}), UiLanguage::SimplifiedChinese);
        QCOMPARE(chosenUiLanguage("", {"en-GB"}), UiLanguage::English);
        // A value from elsewhere (a newer LockScope, a hand edit) follows the system.
        QCOMPARE(chosenUiLanguage("tlh", {"zh-CN"}), UiLanguage::SimplifiedChinese);
    }

    void codesRoundTrip() {
        for (UiLanguage language : {UiLanguage::English, UiLanguage::SimplifiedChinese})
            QCOMPARE(uiLanguageFromCode(uiLanguageCode(language)), language);
        QCOMPARE(uiLanguageFromCode(""), std::nullopt);
        QCOMPARE(uiLanguageFromCode("zh_TW"), std::nullopt);
    }

    // English first: it installs nothing, so the texts stay the sources.
    void englishInstallsNoCatalogue() {
        installTranslations(*QCoreApplication::instance(), UiLanguage::English);
        QCOMPARE(QCoreApplication::translate("lockscopectl", "no command given"),
                 QString("no command given"));
    }

    void chineseLoadsOursAndQts() {
        installTranslations(*QCoreApplication::instance(), UiLanguage::SimplifiedChinese);
        QCOMPARE(QCoreApplication::translate("lockscopectl", "no command given"),
                 QString("未给出命令"));
        QCOMPARE(QCoreApplication::translate("lockscope::MainWindow", "&File"),
                 QString("文件(&F)"));
        QCOMPARE(QCoreApplication::translate("lockscope::ProblemLogModel",
                                             "%n times, first at %1, last at %2", nullptr, 3),
                 QString("3 次，首次于 %1，最近于 %2"));
        // Qt's own (package qt6-translations-l10n): its help option's description.
        QCOMPARE(QCoreApplication::translate("QCommandLineParser", "Displays version information."),
                 QString("显示版本信息。"));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(UiLanguageTest)
#include "ui_language_test.moc"
