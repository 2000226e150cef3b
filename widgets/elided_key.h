#pragma once

#include <QFontMetrics>
#include <QString>

namespace lockscope {

// A key (or lock name) elided to `width` so its last path segment stays whole: "/locks/a-l…
// /694d8c3f2a1b0000". Keys of one lock differ only there (the lease in hex), so eliding in the
// middle of the whole key hid the one part that tells them apart. When even the last segment
// does not fit, its end is kept ("…8c3f2a1b0000"); text without a '/' is elided in the middle.
QString elidedKey(const QFontMetrics& metrics, const QString& key, int width);

} // namespace lockscope
