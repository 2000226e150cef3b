// ProblemLogModel alone: problems kept newest first until removed, a repeat counted on its row.
#include "app/core/problem_log_model.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace lockscope;

class ProblemLogModelTest : public QObject {
    Q_OBJECT
private slots:
    void keepsProblemsNewestFirstUntilRemoved() {
        ProblemLogModel problems;
        QAbstractItemModelTester tester(&problems);
        const QDateTime t0 = QDateTime::fromString("2026-11-24T08:00:00", Qt::ISODate);
        problems.add(ProblemKind::Connection, "Cannot reach the cluster: refused", {}, t0);
        problems.add(ProblemKind::Lock, "Lost the lock /a: lease revoked", {}, t0.addSecs(5));
        QCOMPARE(problems.rowCount(), 2);
        QCOMPARE(problems.problemAt(0).kind, ProblemKind::Lock);
        QCOMPARE(problems.index(0, ProblemLogModel::Time).data().toString(), QString("08:00:05"));

        // The same problem again: one row, counted, moved to the top, its times kept.
        problems.add(ProblemKind::Connection, "Cannot reach the cluster: refused", "detail",
                     t0.addSecs(9));
        QCOMPARE(problems.rowCount(), 2);
        QCOMPARE(problems.problemAt(0).count, 2);
        QCOMPARE(problems.problemAt(0).first, t0);
        QCOMPARE(problems.problemAt(0).last, t0.addSecs(9));
        QCOMPARE(problems.index(0, ProblemLogModel::Kind).data().toString(),
                 QString("Connection ×2"));
        const QString tip =
            problems.index(0, ProblemLogModel::Message).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("detail") && tip.contains("2 times, first at 08:00:00"),
                 qPrintable(tip));

        QVERIFY(problems.removeRow(1));
        QCOMPARE(problems.rowCount(), 1);
        QCOMPARE(problems.problemAt(0).kind, ProblemKind::Connection);
        QVERIFY(!problems.removeRow(1));
    }

    // A problem naming its condition is marked recovered, with the time, when it clears, and
    // stays listed; one that comes back stands again. A problem of another condition, or of
    // none, stays as it is.
    void aClearedConditionMarksItsProblemsRecoveredWithTheTime() {
        ProblemLogModel problems;
        QAbstractItemModelTester tester(&problems);
        const QDateTime t0 = QDateTime::fromString("2026-11-24T08:00:00", Qt::ISODate);
        problems.add(ProblemKind::Lock, "Lost the lock /a", {}, t0);
        for (int i = 0; i < 19; ++i)
            problems.add(ProblemKind::Connection, "Cannot reach the cluster", {}, t0.addSecs(i),
                         "unanswered");
        problems.add(ProblemKind::Connection, "etcd alarm: NOSPACE", {}, t0, "alarm");
        QSignalSpy changed(&problems, &QAbstractItemModel::dataChanged);
        problems.recover("unanswered", t0.addSecs(30), "answered again");
        QCOMPARE(changed.count(), 1);
        const int row = 1; // newest first: the alarm, then the connection
        QCOMPARE(problems.problemAt(row).recovered, t0.addSecs(30));
        QCOMPARE(problems.index(row, ProblemLogModel::Kind).data().toString(),
                 QString("Connection ×19, recovered 08:00:30"));
        QVERIFY(problems.index(row, ProblemLogModel::Message)
                    .data()
                    .toString()
                    .endsWith("answered again"));
        QVERIFY(problems.index(row, ProblemLogModel::Kind).data(Qt::ForegroundRole).isValid());
        QVERIFY(!problems.problemAt(0).recovered.isValid());
        QVERIFY(!problems.problemAt(2).recovered.isValid());
        QVERIFY(!problems.index(0, ProblemLogModel::Kind).data(Qt::ForegroundRole).isValid());

        problems.recover("unanswered", t0.addSecs(40)); // already recovered: kept as it was
        QCOMPARE(problems.problemAt(row).recovered, t0.addSecs(30));
        problems.add(ProblemKind::Connection, "Cannot reach the cluster", {}, t0.addSecs(50),
                     "unanswered");
        QCOMPARE(problems.problemAt(0).count, 20);
        QVERIFY(!problems.problemAt(0).recovered.isValid());
        QCOMPARE(problems.index(0, ProblemLogModel::Kind).data().toString(),
                 QString("Connection ×20"));
    }

    void aMessageIsOneLineAndTheTooltipHasAllOfIt() {
        ProblemLogModel problems;
        problems.add(ProblemKind::Sandbox, "etcd did not start:\nno such file");
        QCOMPARE(problems.index(0, ProblemLogModel::Message).data().toString(),
                 QString("etcd did not start: no such file"));
        QCOMPARE(problems.index(0, ProblemLogModel::Message).data(Qt::ToolTipRole).toString(),
                 QString("etcd did not start:\nno such file"));
    }

    void theOldestGoPastTheCapacity() {
        ProblemLogModel problems(nullptr, 3);
        for (int i = 0; i < 5; ++i)
            problems.add(ProblemKind::Lock, QString("problem %1").arg(i));
        QCOMPARE(problems.rowCount(), 3);
        QCOMPARE(problems.problemAt(0).text, QString("problem 4"));
        QCOMPARE(problems.problemAt(2).text, QString("problem 2"));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(ProblemLogModelTest)
#include "problem_log_model_test.moc"
