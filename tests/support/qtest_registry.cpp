#include "support/qtest_registry.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace lockscope::test {
namespace {

// A function-local static: registrations run during static initialization, in any order.
std::map<std::string, QtTestRun>& registry() {
    static std::map<std::string, QtTestRun> runs;
    return runs;
}

std::string baseName(const char* sourceFile) {
    std::string name(sourceFile);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

void printNames(std::FILE* to) {
    for (const auto& [name, run] : registry())
        std::fprintf(to, "%s\n", name.c_str());
}

} // namespace

bool registerQtTest(const char* sourceFile, QtTestRun run) {
    const std::string name = baseName(sourceFile);
    if (!registry().emplace(name, run).second) {
        std::fprintf(stderr, "two QtTest classes are registered as %s\n", name.c_str());
        std::abort();
    }
    return true;
}

int runRegisteredQtTest(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TEST [QtTest arguments] | --list\n", argv[0]);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--list") {
        printNames(stdout);
        return 0;
    }
    const auto found = registry().find(name);
    if (found == registry().end()) {
        std::fprintf(stderr, "no QtTest class named %s here; these are:\n", name.c_str());
        printNames(stderr);
        return 2;
    }
    // QtTest reads its own options from argv[1] on: drop the class name, keep the program.
    std::vector<char*> arguments{argv[0]};
    arguments.insert(arguments.end(), argv + 2, argv + argc);
    arguments.push_back(nullptr);
    return found->second(argc - 1, arguments.data(), name.c_str());
}

} // namespace lockscope::test
