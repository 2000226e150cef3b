#include "app/core/waiting_call.h"

namespace lockscope {

bool waitsOnTheServer(const QString& method) {
    return method == QLatin1String("Lock.Lock") || method == QLatin1String("Election.Campaign");
}

} // namespace lockscope
