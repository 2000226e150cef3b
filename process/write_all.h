#pragma once

#include <string_view>

namespace lockscope::process {

// Writes all of `text` to `fd`, again after a signal interrupts it: false when it could not. A
// socket whose reader has gone fails instead of raising SIGPIPE in us.
bool writeAll(int fd, std::string_view text);

} // namespace lockscope::process
