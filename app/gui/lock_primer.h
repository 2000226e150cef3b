#pragma once

#include <QString>

namespace lockscope {

// Help → How etcd locks work: the lock protocol LockScope shows (lease, create-revision order,
// waiting on the predecessor, fencing tokens), as rich text for a QTextBrowser.
QString lockPrimerHtml();

} // namespace lockscope
