#pragma once

#include <QFrame>
#include <QPointer>

class QAbstractItemModel;
class QLabel;
class QScrollArea;
class QVBoxLayout;

namespace lockscope {

// The problems area: one line per row of a model (its columns: time, kind, message; the
// tooltip of the message says all), newest first, each with a button that dismisses it
// (removes the row), and "Dismiss all". A few lines show at once and the rest scroll; messages
// are elided, so no message can widen the window. Hidden while there is nothing to show.
class ProblemList : public QFrame {
    Q_OBJECT
public:
    static constexpr int VisibleLines = 3;

    explicit ProblemList(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model);
    QAbstractItemModel* model() const { return model_; }

private:
    void rebuild();
    QWidget* line(int row);

    QPointer<QAbstractItemModel> model_;
    QLabel* heading_;
    QScrollArea* scroll_;
    QWidget* lines_;
    QVBoxLayout* linesLayout_;
};

} // namespace lockscope
