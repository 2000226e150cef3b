#include "widgets/problem_list.h"

#include "widgets/elided_label.h"

#include <QAbstractItemModel>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace lockscope {

ProblemList::ProblemList(QWidget* parent)
    : QFrame(parent)
    , heading_(new QLabel)
    , scroll_(new QScrollArea)
    , lines_(new QWidget)
    , linesLayout_(new QVBoxLayout(lines_)) {
    setObjectName("problemList");
    setStyleSheet("lockscope--ProblemList { background: #fdecea; border: 1px solid #f5c2bd; "
                  "border-radius: 4px; } QLabel { color: #8a1c12; }");
    QFont bold = heading_->font();
    bold.setBold(true);
    heading_->setFont(bold);
    auto* dismissAll = new QPushButton(tr("Dismiss all"));
    dismissAll->setObjectName("dismissAllProblems");
    connect(dismissAll, &QPushButton::clicked, this, [this] {
        if (model_)
            model_->removeRows(0, model_->rowCount());
    });
    auto* header = new QHBoxLayout;
    header->addWidget(heading_, 1);
    header->addWidget(dismissAll);

    linesLayout_->setContentsMargins(0, 0, 0, 0);
    linesLayout_->setSpacing(2);
    scroll_->setWidget(lines_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: "
                           "transparent; }");

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(scroll_);
    hide();
}

void ProblemList::setModel(QAbstractItemModel* model) {
    if (model_)
        model_->disconnect(this);
    model_ = model;
    if (model) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(model, signal, this, &ProblemList::rebuild);
        connect(model, &QAbstractItemModel::rowsMoved, this, &ProblemList::rebuild);
        connect(model, &QAbstractItemModel::modelReset, this, &ProblemList::rebuild);
        connect(model, &QAbstractItemModel::dataChanged, this, &ProblemList::rebuild);
    }
    rebuild();
}

void ProblemList::rebuild() {
    while (QLayoutItem* item = linesLayout_->takeAt(0)) {
        if (QWidget* old = item->widget()) {
            old->hide();
            old->deleteLater(); // its dismiss button may be the one clicked just now
        }
        delete item;
    }
    const int rows = model_ ? model_->rowCount() : 0;
    setVisible(rows > 0);
    if (rows == 0)
        return;
    heading_->setText(tr("Problems (%1), newest first: kept until you dismiss them").arg(rows));
    int lineHeight = 0;
    for (int row = 0; row < rows; ++row) {
        QWidget* shown = line(row);
        linesLayout_->addWidget(shown);
        lineHeight = std::max(lineHeight, shown->sizeHint().height());
    }
    linesLayout_->addStretch(1);
    const int visible = std::min(rows, VisibleLines);
    scroll_->setFixedHeight(visible * lineHeight + (visible - 1) * linesLayout_->spacing());
}

QWidget* ProblemList::line(int row) {
    const auto text = [this, row](int column, int role = Qt::DisplayRole) {
        return model_->index(row, column).data(role).toString();
    };
    auto* time = new QLabel(text(0));
    auto* kind = new QLabel(text(1));
    QFont bold = kind->font();
    bold.setBold(true);
    kind->setFont(bold);
    kind->setMinimumWidth(QFontMetrics(bold).horizontalAdvance(tr("Connection ×99")));
    auto* message = new ElidedLabel;
    message->setObjectName("problemMessage");
    message->setText(text(2));
    message->setToolTip(text(2, Qt::ToolTipRole));
    auto* dismiss = new QToolButton;
    dismiss->setObjectName("dismissProblem");
    dismiss->setText(QStringLiteral("✕"));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(tr("Dismiss this problem"));
    // By the row's identity at click time: rows move as problems come and go.
    const QPersistentModelIndex index = model_->index(row, 0);
    connect(dismiss, &QToolButton::clicked, this, [this, index] {
        if (model_ && index.isValid())
            model_->removeRow(index.row());
    });

    // A problem that is over (its model gives it a colour of its own) is not drawn as an alarm.
    if (const QVariant color = model_->index(row, 1).data(Qt::ForegroundRole); color.isValid())
        for (QLabel* label : {time, kind, static_cast<QLabel*>(message)})
            label->setStyleSheet(QStringLiteral("color: %1").arg(color.toString()));
    auto* shown = new QWidget;
    auto* layout = new QHBoxLayout(shown);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(time);
    layout->addWidget(kind);
    layout->addWidget(message, 1);
    layout->addWidget(dismiss);
    return shown;
}

} // namespace lockscope
