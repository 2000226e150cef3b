#include "app/gui/sandbox_menu.h"

#include "app/core/sandbox.h"

namespace lockscope {

SandboxMenu::SandboxMenu(QWidget* parent)
    : QMenu(tr("&Sandbox"), parent) {
    setObjectName("sandboxMenu");
    addAction(tr("Not on a sandbox (start LockScope without endpoints, or with --sandbox=N)"))
        ->setEnabled(false);
}

void SandboxMenu::setSandbox(Sandbox* sandbox) {
    clear();
    for (int member = 0; member < sandbox->members(); ++member) {
        QAction* action = addAction(QString());
        action->setObjectName(QStringLiteral("sandboxMember%1").arg(member));
        auto label = [sandbox, action, member] {
            action->setText(sandbox->memberRunning(member) ? tr("Stop member %1").arg(member)
                                                           : tr("Restart member %1").arg(member));
        };
        label();
        connect(sandbox, &Sandbox::membersChanged, action, label);
        connect(action, &QAction::triggered, sandbox, [sandbox, member] {
            if (sandbox->memberRunning(member))
                sandbox->stopMember(member);
            else
                sandbox->restartMember(member);
        });
    }
}

} // namespace lockscope
