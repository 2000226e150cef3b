#pragma once

#include <QString>

class QWidget;

namespace lockscope {

// `content` in a group box with `title` above it: how a page labels each of its parts.
QWidget* titledBox(const QString& title, QWidget* content);

} // namespace lockscope
