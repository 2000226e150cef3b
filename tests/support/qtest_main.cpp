#include "support/qtest_registry.h"

int main(int argc, char** argv) {
    return lockscope::test::runRegisteredQtTest(argc, argv);
}
