#pragma once

#include <QStringList>
#include <string>

namespace lockscope {

// Command-line arguments as QStrings that keep every byte. Valid UTF-8 decodes as usual; each
// other byte b becomes the lone surrogate U+DC00+b (Python's "surrogateescape"), which no
// valid UTF-8 decodes to, so argumentBytes() gives back the exact bytes. QCommandLineParser
// works on these strings as on any others. (QCoreApplication::arguments() turns such bytes
// into U+FFFD: /n/\xfd and /n/\xfe would both become /n/\xef\xbf\xbd.)
QStringList losslessArguments(int argc, const char* const* argv);

// The bytes an argument of losslessArguments() came from.
std::string argumentBytes(const QString& argument);

} // namespace lockscope
