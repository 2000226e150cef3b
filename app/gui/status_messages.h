#pragma once

#include <QObject>

class QStatusBar;

namespace lockscope {

// The status bar's passing messages on one line: a message longer than the bar is elided, and
// the bar's tooltip says all of it while it shows.
class StatusMessages : public QObject {
    Q_OBJECT
public:
    explicit StatusMessages(QStatusBar* bar);

    void show(const QString& text, int timeoutMs = 0);

private:
    QStatusBar* bar_;
};

} // namespace lockscope
