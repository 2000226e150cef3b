#include "app/core/problem_log_model.h"

#include <QSet>

namespace lockscope {

namespace {
QString named(const ProblemLogModel::Problem& problem, const QString& text) {
    return problem.cluster.isEmpty() ? text
                                     : ProblemLogModel::tr("%1: %2").arg(problem.cluster, text);
}
} // namespace

ProblemLogModel::ProblemLogModel(QObject* parent, int capacity)
    : QAbstractTableModel(parent)
    , capacity_(std::max(1, capacity)) {}

void ProblemLogModel::add(ProblemKind kind, const QString& text, const QString& detail,
                          const QDateTime& at, const QString& condition, const QString& cluster) {
    const auto same = std::find_if(problems_.begin(), problems_.end(), [&](const Problem& p) {
        return p.kind == kind && p.text == text && p.cluster == cluster;
    });
    if (same != problems_.end()) {
        const int row = static_cast<int>(same - problems_.begin());
        Problem again = *same;
        again.last = at;
        again.detail = detail;
        ++again.count;
        again.recovered = {}; // back again
        again.recoveredNote.clear();
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
    problems_.push_front({kind, text, detail, at, at, 1, condition, {}, {}, cluster});
    endInsertRows();
    if (rowCount() > capacity_)
        removeRows(capacity_, rowCount() - capacity_);
}

void ProblemLogModel::recover(const QString& condition, const QDateTime& at, const QString& note) {
    if (!condition.isEmpty())
        recoverWhere([&](const Problem& p) { return p.condition == condition; }, at, note);
}

void ProblemLogModel::recoverCluster(const QString& cluster, const QDateTime& at,
                                     const QString& note) {
    recoverWhere([&](const Problem& p) { return p.cluster == cluster; }, at, note);
}

void ProblemLogModel::recoverWhere(const std::function<bool(const Problem&)>& matches,
                                   const QDateTime& at, const QString& note) {
    for (std::size_t row = 0; row < problems_.size(); ++row) {
        Problem& problem = problems_[row];
        if (problem.recovered.isValid() || !matches(problem))
            continue;
        problem.recovered = at;
        problem.recoveredNote = note;
        const int shown = static_cast<int>(row);
        emit dataChanged(index(shown, 0), index(shown, ColumnCount - 1));
    }
}

int ProblemLogModel::clustersWithStandingProblems() const {
    QSet<QString> clusters;
    for (const Problem& problem : problems_)
        if (!problem.recovered.isValid())
            clusters.insert(problem.cluster);
    return static_cast<int>(clusters.size());
}

QString ProblemLogModel::kindText(ProblemKind kind) {
    switch (kind) {
    case ProblemKind::Connection: return tr("Connection");
    case ProblemKind::Authentication: return tr("Authentication");
    case ProblemKind::Lock: return tr("Lock");
    case ProblemKind::Sandbox: return tr("Sandbox");
    case ProblemKind::Recording: return tr("Recording");
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
        QString tip = named(problem, problem.text);
        if (!problem.detail.isEmpty())
            tip += "\n\n" + problem.detail;
        if (problem.count > 1)
            tip += "\n\n" +
                   tr("%n times, first at %1, last at %2", nullptr, problem.count)
                       .arg(problem.first.toString("HH:mm:ss"), problem.last.toString("HH:mm:ss"));
        if (problem.recovered.isValid())
            tip += "\n\n" + tr("Recovered at %1").arg(problem.recovered.toString("HH:mm:ss.zzz")) +
                   (problem.recoveredNote.isEmpty() ? QString() : ": " + problem.recoveredNote);
        return tip;
    }
    if (role == Qt::ForegroundRole && problem.recovered.isValid())
        return QStringLiteral("#2e7d32"); // the window's green: no longer going on
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: return problem.last.toString("HH:mm:ss");
    case Kind: {
        const QString kind =
            problem.count > 1
                ? QStringLiteral("%1 ×%2").arg(kindText(problem.kind)).arg(problem.count)
                : kindText(problem.kind);
        return problem.recovered.isValid()
                   ? tr("%1, recovered %2").arg(kind, problem.recovered.toString("HH:mm:ss"))
                   : kind;
    }
    case Message: {
        // One line; all of it in the tooltip.
        QString text = named(problem, QString(problem.text).replace('\n', ' '));
        if (problem.recovered.isValid() && !problem.recoveredNote.isEmpty())
            text += " — " + problem.recoveredNote;
        return text;
    }
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
