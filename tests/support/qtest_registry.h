#pragma once
// One program per test folder holds that folder's QtTest classes; its first argument names the
// class to run, so each class is still one ctest test in a process of its own (and an
// application object of its own). One autogen step and one link per folder, not per class.
//
// In a test file, in place of QTEST_MAIN / QTEST_GUILESS_MAIN:
//     LOCKSCOPE_QTEST_MAIN(ClassName)          // a QApplication, as QTEST_MAIN with widgets
//     LOCKSCOPE_QTEST_GUILESS_MAIN(ClassName)  // a QCoreApplication
// The class is registered under the file's base name (`foo_test.cpp` runs as `foo_test`), which
// is also its application name: classes of one program run side by side under ctest, and each
// must have a QSettings file and data folder of its own.

#include <QCoreApplication>
#include <QTest>

#ifdef QT_WIDGETS_LIB
#include <QApplication>
#endif

namespace lockscope::test {

using QtTestRun = int (*)(int argc, char** argv, const char* name);

// Registers `run` under the base name of `sourceFile`; returns true so that a static can hold
// it. Two classes under one name abort the program at start.
bool registerQtTest(const char* sourceFile, QtTestRun run);

// Runs the class named by argv[1] with the remaining arguments; `--list` prints the names.
int runRegisteredQtTest(int argc, char** argv);

} // namespace lockscope::test

#define LOCKSCOPE_QTEST_REGISTER(TestObject, Application, ...)                                     \
    namespace {                                                                                    \
    const bool registered##TestObject =                                                            \
        lockscope::test::registerQtTest(__FILE__, [](int argc, char** argv, const char* name) {    \
            Application app(argc, argv);                                                           \
            QCoreApplication::setApplicationName(QString::fromUtf8(name));                         \
            __VA_ARGS__;                                                                           \
            TestObject test;                                                                       \
            return QTest::qExec(&test, argc, argv);                                                \
        });                                                                                        \
    }

#define LOCKSCOPE_QTEST_GUILESS_MAIN(TestObject)                                                   \
    LOCKSCOPE_QTEST_REGISTER(TestObject, QCoreApplication, (void)app)

// As QTEST_MAIN: a QApplication at 96 dpi, so that pixel sizes do not follow the screen's.
#define LOCKSCOPE_QTEST_MAIN(TestObject)                                                           \
    LOCKSCOPE_QTEST_REGISTER(TestObject, QApplication, app.setAttribute(Qt::AA_Use96Dpi, true))
