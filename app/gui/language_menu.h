#pragma once

#include <QMenu>

namespace lockscope {

// View ▸ Language: the system's language, English or Simplified Chinese, kept in QSettings
// (uiLanguageSettingKey) and used from the next start, which the menu says when one is chosen.
class LanguageMenu : public QMenu {
    Q_OBJECT
public:
    explicit LanguageMenu(QWidget* parent = nullptr);
};

} // namespace lockscope
