#pragma once

#include <QString>

class QWidget;

namespace lockscope {

// `content` in a group box with `title` above it: how a page labels each of its parts. The title
// is also the content's window title, unless it has one: the name its exports are offered.
QWidget* titledBox(const QString& title, QWidget* content);

} // namespace lockscope
