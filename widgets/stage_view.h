#pragma once

#include "widgets/stage_scene.h"

#include <QFont>
#include <QHash>
#include <QPixmap>
#include <QStaticText>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <optional>

namespace lockscope {

// The stage: a lane per lock, its holder in front and its waiters lined up behind in fencing
// token order, each a token labelled with its fencing token and short lease, ringed by what
// is left of its TTL (orange when low). A handoff moves a lane forward in AnimationMs; a lane that
// changes again meanwhile jumps to the new state, so what is drawn is never more than a frame
// behind, and when changes come faster than frames every lane snaps. A key that expired, was
// force released or was lost fades out where it stood, named so; a split brain flashes its two
// fencing tokens red on the lane. Painted with QPainter in one pass; redraws only while shown.
class StageView : public QWidget {
    Q_OBJECT
public:
    static constexpr int AnimationMs = 250;
    static constexpr int FrameMs = 16;     // while something moves
    static constexpr int RingFrameMs = 50; // while only the TTL rings shrink
    static constexpr int DepartureShownMs = 2500;
    static constexpr int SplitBrainShownMs = 5000;
    static constexpr double LowTtlFraction = 0.25;
    static constexpr int RingSteps = 180; // 2 degrees: finer than a ring's pixels move
    static constexpr int MaxCachedTexts = 4096;
    // Departures shown at once on a lane: when keys expire by the dozen (a client too loaded to
    // send its keepalives), the older ones would only lie under the newer, and cost a frame.
    static constexpr std::size_t MaxGhostsPerLane = 3;
    using Clock = std::chrono::steady_clock;

    explicit StageView(QWidget* parent = nullptr);

    void setScene(const StageScene& scene);
    // A key of `lock` left (or is about to leave) its lane this way: its token fades out named
    // so. A plain release or cancel fades without a name. A fencing token of 0 matches any.
    void showDeparture(const QString& lock, const QString& key, qint64 fencingToken,
                       StageDeparture how);
    // Two holders of `lock` at once (the lab's checker): both tokens flash red.
    void showSplitBrain(const QString& lock, qint64 firstToken, qint64 secondToken);
    // Large type, for a projector.
    void setPresentation(bool presentation);
    bool presentation() const { return presentation_; }
    // Where time comes from (tests); the steady clock by default.
    void setClock(std::function<Clock::time_point()> clock);

    struct TokenHit {
        QString lock;
        StageToken token;
        int position; // 0: the holder
    };
    std::optional<TokenHit> tokenAt(const QPoint& pos) const;
    // Where a token is drawn now (its centre), or nullopt when it is not on the stage.
    std::optional<QPointF> centreOf(const QString& lock, const QString& key) const;
    // The keys of a lane, front first.
    QStringList keysOf(const QString& lock) const;
    // The share of its TTL a token has left now (0 to 1), or nullopt when unknown.
    std::optional<double> ringFraction(const QString& lock, const QString& key) const;
    bool ringLow(const QString& lock, const QString& key) const;
    bool animating(const QString& lock) const;
    // The fencing tokens of the split brain `lock` flashes now, if any.
    std::optional<std::pair<qint64, qint64>> splitBrainOf(const QString& lock) const;
    QStringList lanes() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A right-click on a token.
    void tokenMenuRequested(const QString& lock, const StageToken& token, const QPoint& globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    struct ShownToken {
        StageToken token;
        double from = 0, to = 0;               // slots: 0 is the holder's
        std::optional<StageDeparture> leaving; // said before the scene took it away
    };
    struct Ghost {
        StageToken token;
        double slot;
        std::optional<StageDeparture> how;
        Clock::time_point since;
    };
    struct SplitBrain {
        qint64 first, second;
        Clock::time_point since;
    };
    struct Lane {
        QString lock;
        std::vector<ShownToken> tokens;
        std::vector<Ghost> ghosts;
        std::optional<SplitBrain> splitBrain;
        Clock::time_point movedAt{}; // when its last animation began
        bool moving = false;
        QString waitersNotVisible = {}; // StageLane's
    };
    struct Metrics {
        double scale, token, slot, laneHeight, labelWidth, margin;
        QFont plain, bold;   // scaled
        double lineHeight;   // of `plain`
        double digitAdvance; // of `bold`
    };

    // Computed again only when the width, the font or the presentation changes.
    const Metrics& metrics() const;
    // A token's face (its TTL track and its disk), drawn once per colour and size: a frame of
    // a busy stage draws hundreds, and a pixmap copy costs a fraction of the antialiased
    // strokes.
    const QPixmap& faceOf(const QColor& fill, bool ttlKnown, bool outlined) const;
    // A transparent square a token's face or ring is drawn on.
    QPixmap blankToken() const;
    // A TTL ring run down to `fraction`, in RingSteps steps, orange when low.
    const QPixmap& ringOf(double fraction) const;
    // Laid out once: a frame draws the same numbers and leases as the last.
    const QStaticText& textOf(const QString& text, const QFont& font) const;
    // The bold font a fencing token of `characters` characters fits its disk in.
    const QFont& numberFont(int characters) const;
    double progress(const Lane& lane, Clock::time_point now) const; // 0..1 of its animation
    double slotOf(const Lane& lane, const ShownToken& token, Clock::time_point now) const;
    QPointF slotCentre(int laneIndex, double slot) const;
    int visibleSlots() const;
    const Lane* laneOf(const QString& lock) const;
    const ShownToken* tokenOf(const QString& lock, const QString& key) const;
    std::optional<double> fractionOf(const StageToken& token, Clock::time_point now) const;
    void paintLane(QPainter& painter, int index, Clock::time_point now) const;
    void paintToken(QPainter& painter, const QPointF& centre, const StageToken& token, bool holder,
                    bool flashRed, Clock::time_point now) const;
    // A departed key in two parts: its fading token, drawn under the line, and how it went,
    // drawn over it.
    enum class GhostPart { Token, Label };
    void paintGhost(QPainter& painter, const QPointF& centre, const Ghost& ghost,
                    Clock::time_point now, GhostPart part) const;
    static void keepNewestGhosts(Lane& lane);
    void dropFinished(Clock::time_point now);
    void scheduleFrames();

    std::vector<Lane> lanes_;
    QHash<QString, int> laneIndex_;
    int lanesLeftOut_ = 0;
    bool presentation_ = false;
    bool paintedSinceScene_ = true; // a frame showed the last scene
    std::function<Clock::time_point()> clock_;
    mutable std::optional<Metrics> metrics_;
    mutable int metricsWidth_ = -1;
    mutable QHash<quint64, QPixmap> faces_;
    mutable QHash<int, QPixmap> rings_;
    using TextId = QPair<QString, QPair<qreal, bool>>;
    mutable QHash<TextId, QStaticText> texts_;
    mutable QHash<int, QFont> numberFonts_;
    QTimer frameTimer_;
};

} // namespace lockscope
