#include "app/core/seen_times_file.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <limits>

namespace lockscope {

namespace {

constexpr quint32 Magic = 0x4c535354; // "LSST"
constexpr quint32 Version = 1;
constexpr qint64 NoTime = std::numeric_limits<qint64>::min();
constexpr quint8 EnqueuedBeforeSeen = 1;
constexpr quint8 AcquiredBeforeSeen = 2;

qint64 msOf(std::chrono::system_clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

std::chrono::system_clock::time_point timeOf(qint64 ms) {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

} // namespace

QString seenTimesPath(const std::vector<std::string>& endpoints) {
    std::vector<std::string> sorted = endpoints;
    std::sort(sorted.begin(), sorted.end());
    QCryptographicHash hash(QCryptographicHash::Sha1);
    for (const std::string& endpoint : sorted)
        hash.addData(QByteArray::fromStdString(endpoint + '\n'));
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/seen-times/" +
           QString::fromLatin1(hash.result().toHex()) + ".dat";
}

etcd::SeenTimesByKey readSeenTimes(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QDataStream in(&file);
    quint32 magic = 0, version = 0;
    quint64 count = 0;
    in >> magic >> version >> count;
    if (in.status() != QDataStream::Ok || magic != Magic || version != Version)
        return {};
    etcd::SeenTimesByKey times;
    times.reserve(std::min<quint64>(count, 1'000'000));
    for (quint64 i = 0; i < count; ++i) {
        QByteArray key;
        qint64 createRevision = 0, enqueuedAt = 0, acquiredAt = 0;
        quint8 flags = 0;
        in >> key >> createRevision >> enqueuedAt >> acquiredAt >> flags;
        if (in.status() != QDataStream::Ok)
            return {}; // damaged: none rather than some wrong
        etcd::SeenTimes& seen = times[key.toStdString()];
        seen.createRevision = createRevision;
        seen.enqueuedAt = timeOf(enqueuedAt);
        if (acquiredAt != NoTime)
            seen.acquiredAt = timeOf(acquiredAt);
        seen.enqueuedBeforeSeen = flags & EnqueuedBeforeSeen;
        seen.acquiredBeforeSeen = flags & AcquiredBeforeSeen;
    }
    return times;
}

bool writeSeenTimes(const QString& path, const etcd::SeenTimesByKey& times) {
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QDataStream out(&file);
    out << Magic << Version << static_cast<quint64>(times.size());
    for (const auto& [key, seen] : times)
        out << QByteArray::fromStdString(key) << static_cast<qint64>(seen.createRevision)
            << msOf(seen.enqueuedAt) << (seen.acquiredAt ? msOf(*seen.acquiredAt) : NoTime)
            << static_cast<quint8>((seen.enqueuedBeforeSeen ? EnqueuedBeforeSeen : 0) |
                                   (seen.acquiredBeforeSeen ? AcquiredBeforeSeen : 0));
    return out.status() == QDataStream::Ok && file.commit();
}

} // namespace lockscope
