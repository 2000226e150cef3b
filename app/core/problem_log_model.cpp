#include "app/core/problem_log_model.h"

namespace lockscope {

ProblemLogModel::ProblemLogModel(QObject* parent, int capacity)
    : QAbstractTableModel(parent)
    , capacity_(std::max(1, capacity)) {}

void ProblemLogModel::add(ProblemKind kind, const QString& text, const QString& detail,
                          const QDateTime& at) {
    const auto same = std::find_if(problems_.begin(), problems_.end(), [&](const Problem& p) {
        return p.kind == kind && p.text == text;
    });
    if (same != problems_.end()) {
        const int row = static_cast<int>(same - problems_.begin());
        Problem again = *same;
        again.last = at;
        again.detail = detail;
        ++again.count;
        if (row > 0) {
            beginMoveRows({}, row, row, {}, 0);
            problems_.erase(same);
            problems_.push_front(again);
            endMoveRows();
        } else {
            problems_.front() = again;
        }
        emit dataChanged(index(0, 0), index(0, ColumnCount - 1));
        return;
    }
    beginInsertRows({}, 0, 0);
    problems_.push_front({kind, text, detail, at, at, 1});
    endInsertRows();
    if (rowCount() > capacity_)
        removeRows(capacity_, rowCount() - capacity_);
}

QString ProblemLogModel::kindText(ProblemKind kind) {
    switch (kind) {
    case ProblemKind::Connection: return tr("Connection");
    case ProblemKind::Authentication: return tr("Authentication");
    case ProblemKind::Lock: return tr("Lock");
    case ProblemKind::Sandbox: return tr("Sandbox");
    }
    return {};
}

int ProblemLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

int ProblemLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Problem& problem = problemAt(index.row());
    if (role == Qt::ToolTipRole) {
        QString tip = problem.text;
        if (!problem.detail.isEmpty())
            tip += "\n\n" + problem.detail;
        if (problem.count > 1)
            tip += "\n\n" +
                   tr("%n times, first at %1, last at %2", nullptr, problem.count)
                       .arg(problem.first.toString("HH:mm:ss"), problem.last.toString("HH:mm:ss"));
        return tip;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: return problem.last.toString("HH:mm:ss");
    case Kind:
        return problem.count > 1
                   ? QStringLiteral("%1 ×%2").arg(kindText(problem.kind)).arg(problem.count)
                   : kindText(problem.kind);
    case Message: return QString(problem.text).replace('\n', ' '); // one line; all in the tooltip
    }
    return {};
}

QVariant ProblemLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case Kind: return tr("Kind");
    case Message: return tr("Problem");
    }
    return {};
}

bool ProblemLogModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    problems_.erase(problems_.begin() + row, problems_.begin() + row + count);
    endRemoveRows();
    return true;
}

} // namespace lockscope
