#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <deque>
#include <functional>

namespace lockscope {

// What a problem is about. The window decides on this value, never on the text shown for it
// (ProblemLogModel::kindText), which follows the language.
enum class ProblemKind { Connection, Authentication, Lock, Sandbox, Recording };

// The problems the window has met, newest first, each kept until the user dismisses it (a
// later success does not hide an earlier failure). The same problem again (same kind and
// text) is counted on its row and moves to the top, so a failure repeated every second is one
// row. Problems of several clusters share the list, each naming its cluster. A problem that names
// the condition it stands for (a connection that does not answer, an outage of the view) is marked
// recovered, with the time, once that condition clears; it stays listed, as a record, until
// dismissed. Bounded: past `capacity` the oldest go.
class ProblemLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Kind, Message, ColumnCount };
    static constexpr int DefaultCapacity = 100;

    struct Problem {
        ProblemKind kind;
        QString text;   // what went wrong and what to do
        QString detail; // more, for the tooltip (may be empty)
        QDateTime first;
        QDateTime last;
        int count = 1;
        QString condition;     // what clears it (recover()); empty: only dismissing does
        QDateTime recovered;   // null while it stands
        QString recoveredNote; // how it ended, for the tooltip
        QString cluster;       // the cluster it happened on, as the window names it; may be empty
    };

    explicit ProblemLogModel(QObject* parent = nullptr, int capacity = DefaultCapacity);

    // `condition` names what clears it, as a value the window decides on (never shown);
    // `cluster` names where it happened, shown before the text.
    void add(ProblemKind kind, const QString& text, const QString& detail = {},
             const QDateTime& at = QDateTime::currentDateTime(), const QString& condition = {},
             const QString& cluster = {});
    // `condition` cleared at `at`: its standing problems are marked recovered, with `note`.
    void recover(const QString& condition, const QDateTime& at = QDateTime::currentDateTime(),
                 const QString& note = {});
    // Every problem of `cluster` that still stands is marked recovered at `at`, with `note`: the
    // cluster was closed, so nothing will clear them now.
    void recoverCluster(const QString& cluster, const QDateTime& at, const QString& note);
    // The Kind column's word for `kind`, translated.
    static QString kindText(ProblemKind kind);
    const Problem& problemAt(int row) const { return problems_[static_cast<std::size_t>(row)]; }
    // How many clusters have a problem that still stands.
    int clustersWithStandingProblems() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // Dismissing is removing.
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

private:
    void recoverWhere(const std::function<bool(const Problem&)>& matches, const QDateTime& at,
                      const QString& note);

    std::deque<Problem> problems_;
    int capacity_;
};

} // namespace lockscope
