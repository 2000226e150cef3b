// defaultExportPath: a remembered folder or Documents, and a file named after its title.
#include "support/qtest_registry.h"
#include "widgets/export_path.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;

class ExportPathTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("LockScopeExportPathTest");
        QSettings().clear();
    }

    void namedAfterItsTitleInDocumentsNotTheWorkingFolder() {
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QVERIFY(!documents.isEmpty());
        QVERIFY(QDir(documents).mkpath("."));
        QCOMPARE(defaultExportPath("Round trip by RPC method (right-click to export)", ".png"),
                 QDir(documents).filePath("lockscope-Round trip by RPC method.png"));
        QCOMPARE(
            defaultExportPath(QString::fromUtf8("各 RPC 方法的往返时间（右键可导出）"), ".pdf"),
            QDir(documents).filePath(QString::fromUtf8("lockscope-各 RPC 方法的往返时间.pdf")));
        QCOMPARE(defaultExportPath("Wait / gap: a:b", ".png"),
                 QDir(documents).filePath("lockscope-Wait - gap- a-b.png"));
        QVERIFY(!defaultExportPath("x", ".csv").startsWith(QDir::currentPath() + "/lockscope"));
    }

    void theLastExportsFolderComesNext() {
        QTemporaryDir folder;
        rememberExportFolder(folder.filePath("events.csv"));
        QCOMPARE(defaultExportPath("Lock events", ".csv"),
                 QDir(folder.path()).filePath("lockscope-Lock events.csv"));
    }
};

LOCKSCOPE_QTEST_MAIN(ExportPathTest)
#include "export_path_test.moc"
