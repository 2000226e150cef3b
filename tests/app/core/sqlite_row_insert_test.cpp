// SqliteRowInsert on a real SQLite file, beside Qt SQL's own binding: every kind of value a
// recording writes reads back with the type and value Qt's binding gives it, a row SQLite
// refuses says why and leaves the statement usable, a row of too few values is refused, and a
// closed connection is refused.
#include "app/core/sqlite_row_insert.h"
#include "support/qtest_registry.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;

namespace {

// Each column of the row `n` as SQLite holds it: its type and its value as an SQL literal.
QStringList storedRow(const QSqlDatabase& db, int columns, int n) {
    QStringList parts;
    for (int i = 0; i < columns; ++i)
        parts << QString("typeof(c%1) || ':' || quote(c%1)").arg(i);
    QSqlQuery query(db);
    if (!query.exec(QString("SELECT %1 FROM t WHERE n = %2").arg(parts.join(", ")).arg(n)) ||
        !query.next())
        return {query.lastError().text()};
    QStringList stored;
    for (int i = 0; i < columns; ++i)
        stored << query.value(i).toString();
    return stored;
}

QString insertInto(const QString& table, int n, int columns) {
    return QString("INSERT INTO %1 VALUES (%2%3)")
        .arg(table)
        .arg(n)
        .arg(QString(", ?").repeated(columns));
}

} // namespace

class SqliteRowInsertTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        QVERIFY(dir.isValid());
        db = QSqlDatabase::addDatabase("QSQLITE", "rows");
        db.setDatabaseName(dir.filePath(QString(QTest::currentTestFunction()) + ".db"));
        QVERIFY(db.open());
    }
    void cleanup() {
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase("rows");
    }

    void eachValueBindsAsQtsOwnBindingDoes() {
        const QVariantList row{QVariant(),
                               QString(),
                               QString(""),
                               QString("锁 ü 'quoted'"),
                               QByteArray(),
                               QByteArray(""),
                               QByteArray("\xff\0x", 3),
                               static_cast<qlonglong>(-1) << 40,
                               7,
                               true,
                               2.5,
                               QVariant::fromValue(4'000'000'000u),
                               QVariant::fromValue(static_cast<qulonglong>(1) << 62)};
        const int columns = static_cast<int>(row.size());
        QStringList names;
        for (int i = 0; i < columns; ++i)
            names << QString("c%1").arg(i);
        QSqlQuery query(db);
        QVERIFY(query.exec(QString("CREATE TABLE t(n, %1)").arg(names.join(", "))));

        QVERIFY(query.prepare(insertInto("t", 1, columns)));
        for (int i = 0; i < columns; ++i)
            query.bindValue(i, row[i]);
        QVERIFY2(query.exec(), qPrintable(query.lastError().text()));

        QSqlError error;
        auto insert = SqliteRowInsert::prepare(db, insertInto("t", 2, columns), error);
        QVERIFY2(insert, qPrintable(error.text()));
        QVERIFY2(insert->insert(row), qPrintable(insert->error().text()));

        const QStringList byQt = storedRow(db, columns, 1);
        const QStringList ours = storedRow(db, columns, 2);
        QCOMPARE(ours, byQt);
        // And what that is, so that both cannot be wrong alike.
        QCOMPARE(ours[0], QString("null:NULL"));
        QCOMPARE(ours[1], QString("null:NULL"));
        QCOMPARE(ours[2], QString("text:''"));
        QCOMPARE(ours[3], QString("text:'锁 ü ''quoted'''"));
        QCOMPARE(ours[4], QString("null:NULL"));
        QCOMPARE(ours[5], QString("blob:X''"));
        QCOMPARE(ours[6], QString("blob:X'FF0078'"));
        QCOMPARE(ours[7], QString("integer:-1099511627776"));
        QCOMPARE(ours[9], QString("integer:1"));
        QCOMPARE(ours[10], QString("real:2.5"));
        QCOMPARE(ours[11], QString("integer:4000000000"));
        QCOMPARE(ours[12], QString("text:'4611686018427387904'")); // as Qt's driver has it
    }

    void aRowSqliteRefusesSaysWhyAndTheNextRowGoesIn() {
        QSqlQuery query(db);
        QVERIFY(query.exec("CREATE TABLE t(n INTEGER PRIMARY KEY, c0 NOT NULL)"));
        QSqlError error;
        auto insert = SqliteRowInsert::prepare(db, "INSERT INTO t VALUES (?, ?)", error);
        QVERIFY2(insert, qPrintable(error.text()));
        QVERIFY(!insert->insert({1, QVariant()}));
        QVERIFY2(insert->error().databaseText().contains("NOT NULL"),
                 qPrintable(insert->error().databaseText()));
        QVERIFY(insert->insert({2, "ok"}));
        QCOMPARE(storedRow(db, 1, 2), QStringList{"text:'ok'"});
        // A value short is refused, not bound from the row before.
        QVERIFY(!insert->insert({3}));
        QCOMPARE(insert->error().databaseText(), QString("1 values for 2 parameters"));
        QVERIFY(query.exec("SELECT count(*) FROM t") && query.next());
        QCOMPARE(query.value(0).toInt(), 1);
    }

    void aStatementThatDoesNotPrepareSaysWhy() {
        QSqlError error;
        QVERIFY(!SqliteRowInsert::prepare(db, "INSERT INTO missing VALUES (?)", error));
        QVERIFY2(error.databaseText().contains("no such table"), qPrintable(error.databaseText()));
    }

    void aClosedConnectionIsRefused() {
        db.close();
        QSqlError error;
        QVERIFY(!SqliteRowInsert::prepare(db, "SELECT 1", error));
        QVERIFY(error.isValid());
    }

private:
    QTemporaryDir dir;
    QSqlDatabase db;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(SqliteRowInsertTest)
#include "sqlite_row_insert_test.moc"
