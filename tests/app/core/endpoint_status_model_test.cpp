#include "app/core/endpoint_status_model.h"
#include "app/core/json_writer.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace lockscope;

namespace {

EndpointStatus answeredRow(const QString& endpoint, qint64 revision, bool leader = false) {
    EndpointStatus status;
    status.endpoint = endpoint;
    status.version = "3.4.23";
    status.memberId = leader ? 0xabc : 0xdef;
    status.leaderId = 0xabc;
    status.revision = revision;
    status.raftTerm = 2;
    status.raftIndex = 40 + static_cast<quint64>(revision);
    status.dbSize = 20480;
    status.dbSizeInUse = 16384;
    status.roundTripMs = 1.25;
    return status;
}

EndpointStatus failedRow(const QString& endpoint) {
    EndpointStatus status;
    status.endpoint = endpoint;
    status.error = "unavailable: connection refused";
    status.roundTripMs = 3;
    return status;
}

QJsonObject asJson(const EndpointStatus& status) {
    JsonWriter json;
    status.writeJson(json);
    return QJsonDocument::fromJson(QByteArray::fromStdString(json.text())).object();
}

QString cell(const QAbstractItemModel& model, int row, int column) {
    return model.data(model.index(row, column)).toString();
}

} // namespace

class EndpointStatusModelTest : public QObject {
    Q_OBJECT
private slots:
    void passesModelTesterThroughGrowUpdateAndShrink() {
        EndpointStatusModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({answeredRow("a:1", 5, true), failedRow("b:2")});
        model.setRows({answeredRow("a:1", 6, true), answeredRow("b:2", 6), answeredRow("c:3", 6)});
        model.setRows({answeredRow("a:1", 7, true)});
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(EndpointStatusModel::ColumnCount));
    }

    void refreshEmitsOneRangedDataChangedAndNoReset() {
        EndpointStatusModel model;
        model.setRows({answeredRow("a:1", 5, true), answeredRow("b:2", 5), answeredRow("c:3", 5)});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        model.setRows({answeredRow("a:1", 5, true), answeredRow("b:2", 9), answeredRow("c:3", 9)});

        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(1, 0));
        QCOMPARE(changed.at(0).at(1).toModelIndex(),
                 model.index(2, EndpointStatusModel::ColumnCount - 1));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(layout.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(cell(model, 2, EndpointStatusModel::RevisionColumn), QString("9"));

        model.setRows({answeredRow("a:1", 5, true), answeredRow("b:2", 9), answeredRow("c:3", 9)});
        QCOMPARE(changed.count(), 1); // nothing changed, nothing emitted
    }

    void displaysFiguresAsEtcdctlDoes() {
        EndpointStatusModel model;
        model.setRows({answeredRow("a:1", 12, true), failedRow("b:2")});
        QCOMPARE(cell(model, 0, EndpointStatusModel::EndpointColumn), QString("a:1"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::MemberIdColumn), QString("abc"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::VersionColumn), QString("3.4.23"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::DbSizeColumn), QString("20 kB"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::DbSizeInUseColumn), QString("16 kB"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::IsLeaderColumn), QString("true"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::RaftIndexColumn), QString("52"));
        QCOMPARE(cell(model, 0, EndpointStatusModel::RoundTripColumn), QString("1.25 ms"));
        QCOMPARE(model.data(model.index(0, EndpointStatusModel::RevisionColumn),
                            EndpointStatusModel::RawValueRole),
                 QVariant(qint64(12)));
        // A member that did not answer says nothing but its error, and how long that took.
        QCOMPARE(cell(model, 1, EndpointStatusModel::RoundTripColumn), QString("no answer"));
        QVERIFY(model.data(model.index(1, 0), Qt::ToolTipRole)
                    .toString()
                    .endsWith("(failed after 3.00 ms)"));
        QCOMPARE(cell(model, 1, EndpointStatusModel::VersionColumn), QString());
        QCOMPARE(cell(model, 1, EndpointStatusModel::IsLeaderColumn), QString());
        QVERIFY(cell(model, 1, EndpointStatusModel::ErrorColumn).contains("refused"));
        QVERIFY(model.data(model.index(1, 0), Qt::ToolTipRole).toString().contains("refused"));
    }

    void byteSizes_data() {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << "0 B";
        QTest::newRow("bytes") << qint64(999) << "999 B";
        QTest::newRow("kilobytes") << qint64(20480) << "20 kB";
        QTest::newRow("half to even") << qint64(20500) << "20 kB";
        QTest::newRow("rounded up") << qint64(20600) << "21 kB";
        QTest::newRow("fraction") << qint64(1234567) << "1.2 MB";
        QTest::newRow("gigabytes") << qint64(2500000000) << "2.5 GB";
    }
    void byteSizes() {
        QFETCH(qint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(EndpointStatusModel::formatByteSize(bytes), text);
    }

    void jsonHasStableKeysAndNullsForUnknowns() {
        const QJsonObject answered = asJson(answeredRow("a:1", 12, true));
        const QStringList keys = {"endpoint",  "version",        "member_id",     "leader",
                                  "is_leader", "revision",       "raft_term",     "raft_index",
                                  "db_size",   "db_size_in_use", "round_trip_ms", "alarms",
                                  "error"};
        QStringList sortedKeys = keys;
        sortedKeys.sort();
        QCOMPARE(answered.keys(), sortedKeys);
        QCOMPARE(answered["member_id"].toString(), QString("abc"));
        QCOMPARE(answered["is_leader"].toBool(), true);
        QCOMPARE(answered["revision"].toInteger(), 12);
        QCOMPARE(answered["round_trip_ms"].toDouble(), 1.25);
        QVERIFY(answered["error"].isNull());
        QCOMPARE(answered["alarms"].toArray(), QJsonArray());

        const QJsonObject failed = asJson(failedRow("b:2"));
        QCOMPARE(failed.keys(), sortedKeys);
        QVERIFY(failed["revision"].isNull());
        QVERIFY(failed["leader"].isNull());
        QVERIFY(failed["error"].toString().contains("refused"));
        QVERIFY(failed["alarms"].isNull()); // not known

        // An alarm is named: under NOSPACE etcd refuses every write.
        EndpointStatus full = answeredRow("c:3", 12, true);
        full.memberId = 0xabc;
        full.alarms = {{0xabc, 1}};
        const QJsonObject alarmed = asJson(full);
        QCOMPARE(alarmed["alarms"].toArray(), QJsonArray({"NOSPACE"}));
        QVERIFY(alarmed["error"].toString().startsWith("NOSPACE on member abc: "));
        QVERIFY(alarmed["error"].toString().contains("etcdctl alarm disarm"));
        QCOMPARE(alarmed["revision"].toInteger(), 12); // it answered: its figures stand
        EndpointStatusModel model;
        model.setRows({full});
        QVERIFY(model.data(model.index(0, EndpointStatusModel::ErrorColumn))
                    .toString()
                    .startsWith("NOSPACE on member abc"));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(EndpointStatusModelTest)
#include "endpoint_status_model_test.moc"
