#pragma once

#include <QString>

class QAbstractItemModel;

namespace lockscope {

// Renders a table model as text the way etcdctl's table output looks: a boxed grid with
// upper-case headers, cells aligned as the model's TextAlignmentRole says.
QString renderTextTable(const QAbstractItemModel& model);

} // namespace lockscope
