#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>
#include <optional>

class QCoreApplication;

namespace lockscope {

// The languages LockScope speaks. English is the source language of every text; Simplified
// Chinese comes from resources/translations/lockscope_zh_CN.ts.
enum class UiLanguage { English, SimplifiedChinese };

// Where the window keeps the user's choice (View ▸ Language); absent or empty follows the
// system. lockscopectl always follows the system.
inline constexpr char uiLanguageSettingKey[] = "language";

// The setting's value for a language ("en", "zh_CN"), and back; nullopt for "follow the system"
// (an empty value) and for a value LockScope does not speak.
QString uiLanguageCode(UiLanguage language);
std::optional<UiLanguage> uiLanguageFromCode(const QString& code);

// The first of the user's languages (QLocale::uiLanguages(), most preferred first) that
// LockScope speaks; English when none is. Traditional Chinese is not Simplified Chinese.
UiLanguage uiLanguageFor(const QStringList& preferredLanguages);

// The language to speak: the setting when it names one, else the system's.
UiLanguage chosenUiLanguage(const QString& setting,
                            const QStringList& systemLanguages = QLocale::system().uiLanguages());

// Installs, on `app`, LockScope's catalogue and Qt's own (qtbase) for `language`. English
// needs none. A missing Qt catalogue (package qt6-translations-l10n) leaves Qt's own dialog
// buttons in English and is not an error.
void installTranslations(QCoreApplication& app, UiLanguage language);

} // namespace lockscope
