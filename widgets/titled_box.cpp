#include "widgets/titled_box.h"

#include <QGroupBox>
#include <QVBoxLayout>

namespace lockscope {

QWidget* titledBox(const QString& title, QWidget* content) {
    auto* box = new QGroupBox(title);
    if (content->windowTitle().isEmpty())
        content->setWindowTitle(title); // what it is called where it is exported (export_path.h)
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(content);
    return box;
}

} // namespace lockscope
