#pragma once

#include <QDialog>

class QLabel;

namespace lockscope {

// Help → About: LockScope's version and those of Qt, gRPC and the etcd server in use. The
// server's comes from the Status replies the connection already asks for in the background
// (setServer()), so opening the dialog never waits on the network.
class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // The etcd version `endpoint` reported; an empty endpoint means not connected, an empty
    // version not answered yet.
    void setServer(const QString& endpoint, const QString& version);
    QString serverText() const;

private:
    QLabel* server_;
};

} // namespace lockscope
