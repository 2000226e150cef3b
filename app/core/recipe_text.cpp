#include "app/core/recipe_text.h"

#include <QCoreApplication>

namespace lockscope {

QString recipeWord(etcd::QueueKind recipe) {
    switch (recipe) {
    case etcd::QueueKind::Mutex: return QCoreApplication::translate("RecipeText", "mutex");
    case etcd::QueueKind::Election: return QCoreApplication::translate("RecipeText", "election");
    case etcd::QueueKind::RwMutex: return QCoreApplication::translate("RecipeText", "rwmutex");
    case etcd::QueueKind::SingleKey: return QCoreApplication::translate("RecipeText", "single key");
    case etcd::QueueKind::Unknown: return QCoreApplication::translate("RecipeText", "unknown");
    }
    return {};
}

QString recipeDescription(etcd::QueueKind recipe) {
    switch (recipe) {
    case etcd::QueueKind::Mutex:
        return QCoreApplication::translate(
            "RecipeText", "A queue of keys <name>/<lease id>: etcdctl lock, Go's "
                          "concurrency.Mutex, etcd's Lock service (jetcd, Rust etcd-client)");
    case etcd::QueueKind::Election:
        return QCoreApplication::translate(
            "RecipeText", "A queue of candidates <name>/<lease id>, each valued its proposal: "
                          "etcdctl elect, Go's concurrency.Election, node etcd3's elections");
    case etcd::QueueKind::RwMutex:
        return QCoreApplication::translate(
            "RecipeText", "Readers and writers <name>/read|write/<time>: etcd's contrib/recipes");
    case etcd::QueueKind::SingleKey:
        return QCoreApplication::translate(
            "RecipeText", "The key is the lock, held by its lease: python-etcd3, node etcd3's "
                          "lock(), tooz, leader keys such as Patroni's");
    case etcd::QueueKind::Unknown:
        return QCoreApplication::translate(
            "RecipeText", "A key of no known lock recipe (no lease), shown as a lock of its own");
    }
    return {};
}

QString invisibleWaitersText() {
    return QCoreApplication::translate(
        "RecipeText", "Waiters watch the key and are not visible: none of them holds a key");
}

} // namespace lockscope
