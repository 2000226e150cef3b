#pragma once

#include <QMenu>

namespace lockscope {

class Sandbox;

// The Sandbox menu: Stop or Restart each member of the sandbox's cluster, to show failover (or,
// with one member, a lost connection) live. Says so when the window is not on a sandbox.
class SandboxMenu : public QMenu {
    Q_OBJECT
public:
    explicit SandboxMenu(QWidget* parent = nullptr);

    // The sandbox whose members the menu stops and restarts; it must outlive the menu's use.
    void setSandbox(Sandbox* sandbox);
};

} // namespace lockscope
