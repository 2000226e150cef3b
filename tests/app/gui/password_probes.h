#pragma once
// What the password tests read off the screen and out of the keyring. Keyring answers are waited
// for with the event loop turning, up to 10 s; a keyring that does not answer is a problem.

#include "app/gui/password_keyring.h"
#include "widgets/password_dialog.h"

#include <QTest>
#include <memory>
#include <optional>

namespace lockscope::test {

inline PasswordDialog* shownPasswordDialog(QWidget& window) {
    for (auto* dialog : window.findChildren<PasswordDialog*>())
        if (dialog->isVisible())
            return dialog;
    return nullptr;
}

struct KeyringAnswer {
    std::optional<QString> password;
    QString problem; // empty when the keyring answered
};

inline KeyringAnswer readKeyring(PasswordKeyring& keyring, const QString& account) {
    auto answer = std::make_shared<std::optional<KeyringAnswer>>();
    keyring.read(account, [answer](std::optional<QString> password, const QString& problem) {
        *answer = KeyringAnswer{std::move(password), problem};
    });
    if (!QTest::qWaitFor([answer] { return answer->has_value(); }, 10000))
        return {std::nullopt, "the keyring did not answer within 10 s"};
    return **answer;
}

// Waits for a write's or a removal's answer: empty, or what went wrong.
template <class Start> QString keyringDone(Start start) {
    auto problem = std::make_shared<std::optional<QString>>();
    start([problem](const QString& why) { *problem = why; });
    if (!QTest::qWaitFor([problem] { return problem->has_value(); }, 10000))
        return "the keyring did not answer within 10 s";
    return problem->value();
}

inline QString writeKeyring(PasswordKeyring& keyring, const QString& account,
                            const QString& password) {
    return keyringDone([&](auto done) { keyring.write(account, password, done); });
}

inline QString removeFromKeyring(PasswordKeyring& keyring, const QString& account) {
    return keyringDone([&](auto done) { keyring.remove(account, done); });
}

} // namespace lockscope::test
