#include "app/core/ui_language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace lockscope {

QString uiLanguageCode(UiLanguage language) {
    return language == UiLanguage::SimplifiedChinese ? QStringLiteral("zh_CN")
                                                     : QStringLiteral("en");
}

std::optional<UiLanguage> uiLanguageFromCode(const QString& code) {
    for (UiLanguage language : {UiLanguage::English, UiLanguage::SimplifiedChinese})
        if (code == uiLanguageCode(language))
            return language;
    return std::nullopt;
}

UiLanguage uiLanguageFor(const QStringList& preferredLanguages) {
    for (const QString& tag : preferredLanguages) {
        const QLocale locale(tag);
        if (locale.language() == QLocale::English)
            return UiLanguage::English;
        // "zh" alone, "zh-CN", "zh-Hans-*" and "zh-SG" read Simplified; "zh-TW", "zh-HK" and
        // "zh-Hant-*" come out as Traditional Han script.
        if (locale.language() == QLocale::Chinese &&
            locale.script() != QLocale::TraditionalHanScript)
            return UiLanguage::SimplifiedChinese;
    }
    return UiLanguage::English;
}

UiLanguage chosenUiLanguage(const QString& setting, const QStringList& systemLanguages) {
    return uiLanguageFromCode(setting).value_or(uiLanguageFor(systemLanguages));
}

void installTranslations(QCoreApplication& app, UiLanguage language) {
    if (language == UiLanguage::English)
        return;
    const QString suffix = uiLanguageCode(language);
    // Embedded by qt_add_translations (app/CMakeLists.txt) under :/i18n.
    auto* own = new QTranslator(&app);
    if (own->load(QStringLiteral(":/i18n/lockscope_") + suffix))
        QCoreApplication::installTranslator(own);
    auto* qt = new QTranslator(&app);
    if (qt->load(QStringLiteral("qtbase_") + suffix,
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

} // namespace lockscope
