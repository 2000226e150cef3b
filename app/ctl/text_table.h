#pragma once

#include <QList>
#include <QString>

class QAbstractItemModel;

namespace lockscope {

// Renders a table model as text the way etcdctl's table output looks: a boxed grid with
// upper-case headers, cells aligned as the model's TextAlignmentRole says. `columns` picks
// which of the model's columns to show and in what order; empty shows them all.
QString renderTextTable(const QAbstractItemModel& model, QList<int> columns = {});

} // namespace lockscope
