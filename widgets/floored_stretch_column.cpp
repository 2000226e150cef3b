#include "widgets/floored_stretch_column.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <algorithm>

namespace lockscope {

namespace {

// Lives as a child of the view: fits the column when the viewport or another column changes.
class FlooredStretch : public QObject {
public:
    FlooredStretch(QTableView* view, int column, int floor)
        : QObject(view)
        , view_(view)
        , column_(column)
        , floor_(floor) {
        setObjectName(Name);
        QHeaderView* header = view->horizontalHeader();
        header->setSectionResizeMode(column, QHeaderView::Interactive);
        view->viewport()->installEventFilter(this);
        connect(header, &QHeaderView::sectionResized, this, [this](int section) {
            if (section != column_) // its own resize is ours
                fit();
        });
        connect(header, &QHeaderView::sectionCountChanged, this, &FlooredStretch::fit);
    }

    static constexpr const char* Name = "flooredStretchColumn";

    void set(int column, int floor) {
        column_ = column;
        floor_ = floor;
        view_->horizontalHeader()->setSectionResizeMode(column, QHeaderView::Interactive);
        fit();
    }

    void fit() {
        const QHeaderView* header = view_->horizontalHeader();
        if (column_ >= header->count())
            return;
        int others = 0;
        for (int section = 0; section < header->count(); ++section)
            if (section != column_ && !header->isSectionHidden(section))
                others += header->sectionSize(section);
        const int width = std::max(floor_, view_->viewport()->width() - others);
        if (header->sectionSize(column_) != width)
            view_->horizontalHeader()->resizeSection(column_, width);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize)
            fit();
        return QObject::eventFilter(watched, event);
    }

private:
    QTableView* view_;
    int column_;
    int floor_;
};

} // namespace

void stretchColumnWithFloor(QTableView* view, int column, int floor) {
    // Found by name: the class has no meta-object of its own for findChild to cast with.
    if (auto* kept = view->findChild<QObject*>(FlooredStretch::Name, Qt::FindDirectChildrenOnly))
        static_cast<FlooredStretch*>(kept)->set(column, floor);
    else
        (new FlooredStretch(view, column, floor))->fit();
}

} // namespace lockscope
