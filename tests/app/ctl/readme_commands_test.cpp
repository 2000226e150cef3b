// README.md cannot drift from the programs: every command line its code blocks show runs
// through the real parser (with --help added, so nothing connects), and every flag its text
// names in `code` is one that lockscope or a lockscopectl command offers.
#include "support/qtest_registry.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

Run run(const QString& program, const QStringList& arguments) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "ETCDCTL_ENDPOINTS"})
        env.remove(name);
    env.insert("LANG", "C");
    env.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        result.err = program + " did not finish within 30 s";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QStringList readmeLines() {
    QFile readme(README_PATH);
    if (!readme.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", README_PATH);
    return QString::fromUtf8(readme.readAll()).split('\n');
}

QString programPath(const QString& name) {
    return name == "lockscope" ? LOCKSCOPE_PATH : LOCKSCOPECTL_PATH;
}

} // namespace

class ReadmeCommandsTest : public QObject {
    Q_OBJECT
private slots:
    // Each line of a code block (indented or fenced) that runs lockscope or lockscopectl: its
    // comment dropped, and the brackets of optional parts, which are shown as given.
    void everyCommandLineParses_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        static const QRegularExpression command("^(lockscope|lockscopectl)(\\s|$)");
        bool fenced = false;
        int shown = 0;
        const QStringList lines = readmeLines();
        for (int i = 0; i < lines.size(); ++i) {
            if (lines[i].startsWith("```"))
                fenced = !fenced;
            if (!fenced && !lines[i].startsWith("    "))
                continue;
            const QString line = lines[i].section(" #", 0, 0).trimmed();
            if (!command.match(line).hasMatch())
                continue;
            QStringList words = QString(line).remove('[').remove(']').split(
                QRegularExpression("\\s+"), Qt::SkipEmptyParts);
            const QString program = words.takeFirst();
            // Before "--", which hands the rest to the command lockscopectl lock runs.
            const qsizetype end = words.indexOf("--");
            words.insert(end < 0 ? words.size() : end, "--help");
            QTest::addRow("README.md:%d", i + 1) << program << words;
            ++shown;
        }
        QVERIFY2(shown >= 10, "README.md shows fewer command lines than it did");
    }
    void everyCommandLineParses() {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        const Run help = run(programPath(program), arguments);
        QVERIFY2(help.exitCode == 0,
                 qPrintable(program + ' ' + arguments.join(' ') + ": " + help.err));
        QVERIFY2(help.out.startsWith("Usage: "), help.out.constData());
    }

    // A flag named in `code` in the text (`--sandbox=3`, `--user name`) is one a program offers.
    void everyFlagNamedExists() {
        QSet<QString> offered;
        static const QRegularExpression flag("--[a-z][a-z-]*");
        auto offeredIn = [&](const QString& program, const QStringList& arguments) {
            const Run help = run(programPath(program), arguments);
            QVERIFY2(help.exitCode == 0, qPrintable(help.err));
            for (const auto& match : flag.globalMatch(QString::fromUtf8(help.out)))
                offered << match.captured();
        };
        offeredIn("lockscope", {"--help"});
        offeredIn("lockscopectl", {"--help"});
        for (const char* command : {"status", "snapshot", "blockers", "watch", "record", "history",
                                    "lock", "elect", "lab", "exporter"})
            offeredIn("lockscopectl", {command, "--help"});
        static const QRegularExpression named("`(--[a-z][a-z-]*)[^`]*`");
        QStringList unknown;
        const QStringList lines = readmeLines();
        for (int i = 0; i < lines.size(); ++i)
            for (const auto& match : named.globalMatch(lines[i]))
                if (!offered.contains(match.captured(1)))
                    unknown << QString("README.md:%1: %2").arg(i + 1).arg(match.captured());
        QVERIFY2(unknown.isEmpty(), qPrintable(unknown.join('\n')));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(ReadmeCommandsTest)
#include "readme_commands_test.moc"
