// eventWord: the event log's word for every recipe and every cause, pure.
#include "app/core/event_words.h"

#include <gtest/gtest.h>
#include <set>

using namespace lockscope;
using etcd::QueueKind;

namespace {

const std::vector<QueueKind> allKinds = {QueueKind::Mutex, QueueKind::Election, QueueKind::RwMutex,
                                         QueueKind::SingleKey, QueueKind::Unknown};
const std::vector<EventCause> allCauses = {
    EventCause::Enqueued,      EventCause::Acquired,   EventCause::Released,
    EventCause::Cancelled,     EventCause::OwnCleanup, EventCause::Expired,
    EventCause::ForceReleased, EventCause::Lost,       EventCause::Proclaimed};

std::string word(QueueKind kind, EventCause cause) {
    return eventWord(kind, cause).toStdString();
}

} // namespace

TEST(EventWordsTest, LocksSayWhatHappenedToTheHold) {
    for (QueueKind kind : {QueueKind::Mutex, QueueKind::RwMutex, QueueKind::SingleKey}) {
        SCOPED_TRACE(etcd::queueKindName(kind));
        EXPECT_EQ(word(kind, EventCause::Enqueued), "enqueued");
        EXPECT_EQ(word(kind, EventCause::Acquired), "acquired");
        EXPECT_EQ(word(kind, EventCause::Released), "released");
        EXPECT_EQ(word(kind, EventCause::Cancelled), "cancelled");
        EXPECT_EQ(word(kind, EventCause::OwnCleanup), "our try withdrew");
        EXPECT_EQ(word(kind, EventCause::Expired), "expired");
        EXPECT_EQ(word(kind, EventCause::ForceReleased), "force-released");
        EXPECT_EQ(word(kind, EventCause::Lost), "lost");
        EXPECT_EQ(word(kind, EventCause::Proclaimed), "value changed");
    }
}

TEST(EventWordsTest, ElectionsUseElectionWords) {
    EXPECT_EQ(word(QueueKind::Election, EventCause::Enqueued), "campaigning");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Acquired), "elected");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Released), "resigned");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Cancelled), "withdrew");
    EXPECT_EQ(word(QueueKind::Election, EventCause::OwnCleanup), "our try withdrew");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Expired), "leader expired");
    EXPECT_EQ(word(QueueKind::Election, EventCause::ForceReleased), "deposed by force");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Lost), "lost leadership");
    EXPECT_EQ(word(QueueKind::Election, EventCause::Proclaimed), "proclaimed");
}

TEST(EventWordsTest, AKeyOfNoRecipeIsNotCalledALock) {
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Enqueued), "key created");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Acquired), "key created");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Released), "key deleted");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Cancelled), "key deleted");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::OwnCleanup), "key deleted");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Expired), "key's lease expired");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::ForceReleased), "key force-deleted");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Lost), "key lost");
    EXPECT_EQ(word(QueueKind::Unknown, EventCause::Proclaimed), "value changed");
}

// Our own cleanup is never called a force release, whatever the recipe.
TEST(EventWordsTest, OurOwnCleanupIsNeverAForceRelease) {
    for (QueueKind kind : allKinds)
        EXPECT_NE(word(kind, EventCause::OwnCleanup), word(kind, EventCause::ForceReleased))
            << etcd::queueKindName(kind);
}

// In a lock or an election, each cause has a word of its own.
TEST(EventWordsTest, EachCauseHasItsOwnWordInAQueue) {
    for (QueueKind kind : allKinds) {
        if (kind == QueueKind::Unknown)
            continue;
        std::set<std::string> words;
        for (EventCause cause : allCauses)
            words.insert(word(kind, cause));
        EXPECT_EQ(words.size(), allCauses.size()) << etcd::queueKindName(kind);
    }
}

TEST(EventWordsTest, ExportNamesAreTheWatchsForItsKindsAndOwnForTheRest) {
    using Kind = etcd::LockEventKind;
    for (Kind kind : {Kind::Enqueued, Kind::Acquired, Kind::Released, Kind::Cancelled,
                      Kind::Expired, Kind::ForceReleased, Kind::Lost})
        EXPECT_STREQ(eventCauseName(eventCause(kind)), etcd::lockEventKindName(kind));
    EXPECT_STREQ(eventCauseName(EventCause::OwnCleanup), "own-cleanup");
    EXPECT_STREQ(eventCauseName(EventCause::Proclaimed), "proclaimed");
}

TEST(EventWordsTest, EveryWordIsListedToSizeTheColumn) {
    const QStringList listed = eventWords();
    for (QueueKind kind : allKinds)
        for (EventCause cause : allCauses)
            EXPECT_TRUE(listed.contains(eventWord(kind, cause)))
                << etcd::queueKindName(kind) << " " << eventCauseName(cause);
}
