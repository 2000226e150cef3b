// EventLogModel: well behaved, bounded from the top, exported as CSV and JSON.
#include "app/core/event_log_model.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;

namespace {

etcd::LockEvent event(etcd::LockEventKind kind, int64_t revision) {
    etcd::LockEvent e;
    e.kind = kind;
    e.lock = "/locks/a";
    e.key = "/locks/a/" + std::to_string(revision);
    e.lease = revision;
    e.revision = revision;
    e.observedAt = std::chrono::system_clock::time_point{} + std::chrono::seconds(1700000000);
    if (kind == etcd::LockEventKind::Acquired)
        e.waited = std::chrono::milliseconds(250);
    return e;
}

std::vector<etcd::LockEvent> events(int first, int count) {
    std::vector<etcd::LockEvent> batch;
    for (int i = 0; i < count; ++i)
        batch.push_back(event(i % 2 ? etcd::LockEventKind::Acquired : etcd::LockEventKind::Enqueued,
                              first + i));
    return batch;
}

// What the model exports to a file named `name` (.csv or .json); empty if it could not.
QByteArray exported(const EventLogModel& model, const QString& name) {
    QTemporaryDir directory;
    const QString path = directory.filePath(name);
    QString error;
    const bool saved =
        name.endsWith(".json") ? model.saveJson(path, error) : model.saveCsv(path, error);
    QFile file(path);
    if (!saved || !file.open(QIODevice::ReadOnly)) {
        qWarning("export failed: %s", qPrintable(error));
        return {};
    }
    return file.readAll();
}

} // namespace

class EventLogModelTest : public QObject {
    Q_OBJECT
private slots:
    // The view's outage: a line when it began (since when the data is stale, and why), one when it
    // ended (both times and the revision re-read), exported as watch --json names them.
    void anOutageIsALineWhenItBeginsAndOneWithBothTimesWhenItEnds() {
        EventLogModel log;
        QAbstractItemModelTester tester(&log);
        const auto at = [](const char* time) {
            return std::chrono::system_clock::time_point(std::chrono::milliseconds(
                QDateTime::fromString(QString("2026-11-24T") + time, Qt::ISODateWithMs)
                    .toMSecsSinceEpoch()));
        };
        log.appendOutage(at("08:00:01.250"), "no answer from etcd for 2.1 s", at("08:00:03.400"));
        log.appendOutage(at("08:00:01.250"), "no answer from etcd for 2.1 s", at("08:00:09.875"),
                         57);
        QCOMPARE(log.rowCount(), 2);
        QCOMPARE(log.causeAt(0), EventCause::OutageBegan);
        QCOMPARE(log.index(0, EventLogModel::Time).data().toString(), QString("08:00:03.400"));
        QCOMPARE(log.index(0, EventLogModel::Kind).data().toString(), QString("stale"));
        QCOMPARE(log.index(0, EventLogModel::Key).data().toString(),
                 QString("data stale since 08:00:01.250: no answer from etcd for 2.1 s"));
        QCOMPARE(log.index(0, EventLogModel::Revision).data(), QVariant());
        QCOMPARE(log.causeAt(1), EventCause::OutageEnded);
        QCOMPARE(log.index(1, EventLogModel::Kind).data().toString(), QString("resynced"));
        QCOMPARE(log.index(1, EventLogModel::Key).data().toString(),
                 QString("outage from 08:00:01.250 to 08:00:09.875, re-read at revision 57"));
        QCOMPARE(log.index(1, EventLogModel::Revision).data().toLongLong(), 57);
        // Whole in the tooltip, however narrow the column.
        QCOMPARE(log.index(1, EventLogModel::Key).data(Qt::ToolTipRole),
                 log.index(1, EventLogModel::Key).data());
        for (int column : {EventLogModel::Lock, EventLogModel::Lease, EventLogModel::Held,
                           EventLogModel::Recovered})
            QCOMPARE(log.index(1, column).data(), QVariant());
    }

    void isAWellBehavedModel() {
        EventLogModel model(nullptr, 5);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append(events(1, 3));
        model.append(events(4, 4));
        model.append(events(8, 9));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void dropsTheOldestPastItsCapacity() {
        EventLogModel model(nullptr, 5);
        model.append(events(1, 4));
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.append(events(5, 3));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed[0][1].toInt(), 0);
        QCOMPARE(removed[0][2].toInt(), 1);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.eventAt(0).revision, 3);
        QCOMPARE(model.eventAt(4).revision, 7);
        QCOMPARE(model.data(model.index(1, EventLogModel::Kind)).toString(), QString("acquired"));
        QCOMPARE(model.data(model.index(1, EventLogModel::Waited)).toLongLong(), 250);
    }

    // Views pay for a removal at the top by their row count: a full log drops a tenth at once,
    // not a row or two with every batch.
    void aFullLogDropsItsOldestTenthAtOnce() {
        EventLogModel model(nullptr, 100);
        model.append(events(1, 100));
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.append(events(101, 1));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed[0][2].toInt(), 9); // rows 0..9
        QCOMPARE(model.rowCount(), 91);
        QCOMPARE(model.eventAt(0).revision, 11);
        for (int revision = 102; revision <= 110; ++revision)
            model.append(events(revision, 1));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.rowCount(), 100);
        model.append(events(111, 1));
        QCOMPARE(removed.count(), 2);
        QCOMPARE(model.rowCount(), 91);
        QCOMPARE(model.eventAt(90).revision, 111);
    }

    void exportsCsvAndJson() {
        EventLogModel model;
        auto batch = events(1, 2);
        batch[0].key = "/locks/a/with,comma";
        model.append(batch);
        const QList<QByteArray> lines = exported(model, "events.csv").split('\n');
        QCOMPARE(lines.size(), 4); // header, two events, the final newline
        QVERIFY(lines[0].startsWith("observed_at,event,lock,key"));
        QVERIFY2(lines[1].contains(",\"/locks/a/with,comma\","), lines[1].constData());
        QVERIFY(lines[2].contains(
            "2023-11-14T22:13:20.000Z,acquired,/locks/a,/locks/a/2,2,2,250,,false,false"));

        const QJsonArray array = QJsonDocument::fromJson(exported(model, "events.json")).array();
        QCOMPARE(array.size(), 2);
        QCOMPARE(array[1].toObject()["event"].toString(), QString("acquired"));
        QCOMPARE(array[1].toObject()["waited_ms"].toInt(), 250);

        QTemporaryDir directory;
        QString error;
        QVERIFY(!model.saveCsv(directory.filePath("missing/dir/events.csv"), error));
        QVERIFY(!error.isEmpty());
    }

    void aLowerBoundTimeShowsAsAtLeastWithWhyAndIsExportedSo() {
        EventLogModel model;
        auto batch = events(1, 2);
        batch[1].atLeast = true;
        model.append(batch);
        const QModelIndex waited = model.index(1, EventLogModel::Waited);
        QCOMPARE(waited.data().toString(), QString("≥ 250"));
        QVERIFY(waited.data(Qt::ToolTipRole).toString().contains("lower bound"));
        QVERIFY(!model.index(1, EventLogModel::Held).data(Qt::ToolTipRole).isValid());
        QVERIFY(!model.index(0, EventLogModel::Waited).data(Qt::ToolTipRole).isValid());
        const QList<QByteArray> lines = exported(model, "events.csv").split('\n');
        QVERIFY2(lines[2].endsWith(",250,,false,true,,"), lines[2].constData());
        const QJsonArray array = QJsonDocument::fromJson(exported(model, "events.json")).array();
        QCOMPARE(array[1].toObject()["at_least"].toBool(), true);
        QCOMPARE(array[0].toObject()["at_least"].toBool(), false);
    }

    // After a gap: at least and at most, or only at most when it may have ended at once.
    void aRecoveredTimeShowsItsBoundsWithWhyAndIsExportedSo() {
        EventLogModel model;
        auto batch = events(1, 2);
        for (auto& event : batch)
            event.recovered = true;
        batch[0].waited.reset();
        batch[0].waitedAtMost = std::chrono::milliseconds(900);
        batch[1].atLeast = true;
        batch[1].waitedAtMost = std::chrono::milliseconds(1250);
        model.append(batch);
        QCOMPARE(model.index(0, EventLogModel::Waited).data().toString(), QString("≤ 900"));
        QCOMPARE(model.index(1, EventLogModel::Waited).data().toString(), QString("250–1250"));
        QVERIFY(model.index(1, EventLogModel::Waited)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("at most the second"));
        const QList<QByteArray> lines = exported(model, "events.csv").split('\n');
        QVERIFY2(lines[1].endsWith(",true,false,900,"), lines[1].constData());
        QVERIFY2(lines[2].endsWith(",250,,true,true,1250,"), lines[2].constData());
        const QJsonArray array = QJsonDocument::fromJson(exported(model, "events.json")).array();
        QCOMPARE(array[1].toObject()["waited_at_most_ms"].toInt(), 1250);
        QVERIFY(array[1].toObject()["held_at_most_ms"].isNull());
    }

    // \xfd and \xfe are two locks: shown, exported as CSV and as JSON, never as one U+FFFD.
    void bytesThatAreNotUtf8StayApartInTheTableAndBothExports() {
        EventLogModel model;
        auto batch = events(1, 2);
        batch[0].lock = "/n/\xfd";
        batch[0].key = "/n/\xfd/1";
        batch[1].lock = "/n/\xfe";
        batch[1].key = "/n/\xfe/2";
        model.append(batch);
        const auto cell = [&](int row, int column) {
            return model.data(model.index(row, column)).toString();
        };
        QSet<QString> locks{cell(0, EventLogModel::Lock), cell(1, EventLogModel::Lock)};
        QCOMPARE(locks, (QSet<QString>{"/n/\\xfd", "/n/\\xfe"}));

        const QByteArray csv = exported(model, "events.csv");
        QVERIFY2(csv.contains(",/n/\\xfd,/n/\\xfd/1,") && csv.contains(",/n/\\xfe,/n/\\xfe/2,"),
                 csv.constData());

        QSet<QByteArray> exportedLocks;
        for (const auto& e : QJsonDocument::fromJson(exported(model, "events.json")).array())
            exportedLocks << QByteArray::fromBase64(e.toObject()["lock_b64"].toString().toLatin1());
        QCOMPARE(exportedLocks, (QSet<QByteArray>{"/n/\xfd", "/n/\xfe"}));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(EventLogModelTest)
#include "event_log_model_test.moc"
