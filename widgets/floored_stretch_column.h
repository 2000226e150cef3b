#pragma once

class QTableView;

namespace lockscope {

// Gives `column` of `view` the width its other columns leave, and never less than `floor`: past
// that the table scrolls sideways. QHeaderView::Stretch squeezes such a column down to the
// header's minimum section size instead, which on a 1024 px screen left the queue's keys as
// "…1e2699a509" while the columns after them were off to the right anyway. Calling it again on
// the same view moves the floor.
void stretchColumnWithFloor(QTableView* view, int column, int floor);

} // namespace lockscope
