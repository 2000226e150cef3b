#include "app/gui/language_menu.h"

#include "app/core/ui_language.h"

#include <QActionGroup>
#include <QMessageBox>
#include <QSettings>

namespace lockscope {

LanguageMenu::LanguageMenu(QWidget* parent)
    : QMenu(tr("&Language"), parent) {
    setObjectName("languageMenu");
    const QString chosen = QSettings().value(uiLanguageSettingKey).toString();
    auto* group = new QActionGroup(this);
    // Each language is named in itself, so a reader finds theirs whatever the menu speaks.
    const std::pair<QString, QString> entries[] = {
        {QString(), tr("&System language")},
        {uiLanguageCode(UiLanguage::English), QStringLiteral("English")},
        {uiLanguageCode(UiLanguage::SimplifiedChinese), QStringLiteral("简体中文")},
    };
    for (const auto& [code, name] : entries) {
        QAction* action = addAction(name);
        action->setObjectName("language_" + (code.isEmpty() ? QStringLiteral("system") : code));
        action->setCheckable(true);
        action->setChecked(code == (uiLanguageFromCode(chosen) ? chosen : QString()));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            if (QSettings().value(uiLanguageSettingKey).toString() == code)
                return;
            QSettings().setValue(uiLanguageSettingKey, code);
            // Every text is translated once, when its widget is built: a restart applies it.
            auto* note = new QMessageBox(QMessageBox::Information, tr("Language"),
                                         tr("LockScope speaks the chosen language from its next "
                                            "start."),
                                         QMessageBox::Ok, window());
            note->setObjectName("languageChangedNote");
            note->setAttribute(Qt::WA_DeleteOnClose);
            note->open();
        });
    }
}

} // namespace lockscope
