#include "widgets/stage_view.h"

#include "widgets/series_palette.h"

#include <QContextMenuEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStaticText>
#include <algorithm>
#include <cmath>

namespace lockscope {

namespace {
const QColor holderFill(0x2e, 0x7d, 0x32);
const QColor waiterFill(0x60, 0x7d, 0x8b);
const QColor oursFill(0x15, 0x65, 0xc0);
const QColor ringColor(0x26, 0xa6, 0x9a);
// Red is the alarm (a split brain) and nothing else: a lease running low, and the expiry it leads
// to, are orange; a lock lost is brown.
const QColor lowColor(0xe6, 0x51, 0x00);
const QColor expiredColor(0xef, 0x6c, 0x00);
const QColor forceReleasedColor(0x8e, 0x24, 0xaa);
const QColor lostColor(0x6d, 0x4c, 0x41);
const QColor releasedColor(0x9e, 0x9e, 0x9e);
constexpr double presentationScale = 2.2;

double msBetween(StageView::Clock::time_point from, StageView::Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// A departure worth naming stays a while; a plain release only fades as the queue moves.
bool named(const std::optional<StageDeparture>& how) {
    return how && *how != StageDeparture::Released && *how != StageDeparture::Cancelled;
}

double ghostMs(const std::optional<StageDeparture>& how) {
    return named(how) ? StageView::DepartureShownMs : StageView::AnimationMs;
}

QColor departureColor(const std::optional<StageDeparture>& how) {
    if (!how)
        return releasedColor;
    switch (*how) {
    case StageDeparture::Expired: return expiredColor;
    case StageDeparture::ForceReleased: return forceReleasedColor;
    case StageDeparture::Lost: return lostColor;
    case StageDeparture::Released:
    case StageDeparture::Cancelled: break;
    }
    return releasedColor;
}

QString departureText(StageDeparture how) {
    switch (how) {
    case StageDeparture::Expired: return StageView::tr("expired");
    case StageDeparture::ForceReleased: return StageView::tr("force released");
    case StageDeparture::Lost: return StageView::tr("lost");
    case StageDeparture::Released: return StageView::tr("released");
    case StageDeparture::Cancelled: return StageView::tr("cancelled");
    }
    return {};
}

// Ease out: a handoff starts quickly and settles.
double eased(double t) {
    return 1 - std::pow(1 - t, 3);
}

// On for the first half of every quarter second: a flash.
bool flashOn(double ageMs) {
    return static_cast<int>(ageMs / 125) % 2 == 0;
}
} // namespace

StageView::StageView(QWidget* parent)
    : QWidget(parent)
    , clock_([] { return Clock::now(); }) {
    setObjectName("stageView");
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(&frameTimer_, &QTimer::timeout, this, [this] {
        dropFinished(clock_());
        update();
        scheduleFrames();
    });
}

void StageView::setClock(std::function<Clock::time_point()> clock) {
    clock_ = std::move(clock);
}

void StageView::setPresentation(bool presentation) {
    presentation_ = presentation;
    metrics_.reset();
    updateGeometry();
    update();
}

const StageView::Metrics& StageView::metrics() const {
    if (metrics_ && metricsWidth_ == width() &&
        metrics_->plain.pointSizeF() == font().pointSizeF() * metrics_->scale)
        return *metrics_;
    const double scale = presentation_ ? presentationScale : 1.0;
    QFont plain = font();
    plain.setPointSizeF(plain.pointSizeF() * scale);
    QFont bold = plain;
    bold.setBold(true);
    const double lineHeight = QFontMetricsF(plain).height();
    const double token = lineHeight * 3.0;
    const double margin = 8 * scale;
    const double labelWidth = std::clamp(width() * 0.2, 150 * scale, 320 * scale);
    metrics_ = Metrics{scale,        token,
                       token * 1.45, token + lineHeight * 1.4 + 2 * margin,
                       labelWidth,   margin,
                       plain,        bold,
                       lineHeight,   QFontMetricsF(bold).horizontalAdvance(QLatin1Char('0'))};
    metricsWidth_ = width();
    faces_.clear();
    rings_.clear();
    texts_.clear();
    numberFonts_.clear();
    return *metrics_;
}

QPixmap StageView::blankToken() const {
    const qreal ratio = devicePixelRatioF();
    const int side = static_cast<int>(std::ceil(metrics().token)) + 2;
    QPixmap blank(QSize(side, side) * ratio);
    blank.setDevicePixelRatio(ratio);
    blank.fill(Qt::transparent);
    return blank;
}

const QPixmap& StageView::faceOf(const QColor& fill, bool ttlKnown, bool outlined) const {
    const quint64 id = (quint64(fill.rgb()) << 2) | (ttlKnown ? 2 : 0) | (outlined ? 1 : 0);
    if (const auto found = faces_.constFind(id); found != faces_.constEnd())
        return *found;
    const Metrics& m = metrics();
    QPixmap face = blankToken();
    QPainter painter(&face);
    painter.setRenderHint(QPainter::Antialiasing);
    const double side = face.deviceIndependentSize().width();
    const QPointF centre(side / 2, side / 2);
    const double ringWidth = m.token * 0.09;
    const double radius = m.token / 2 - ringWidth / 2;
    painter.setBrush(Qt::NoBrush);
    // Not looked up yet: a thin track, no ring to run down.
    painter.setPen(QPen(palette().color(QPalette::Midlight), ttlKnown ? ringWidth : ringWidth / 3));
    painter.drawEllipse(centre, radius, radius);
    const double inner = radius - ringWidth * 0.9;
    painter.setPen(outlined ? QPen(Qt::white, 2) : Qt::NoPen);
    painter.setBrush(fill);
    painter.drawEllipse(centre, inner, inner);
    return *faces_.insert(id, face);
}

const QFont& StageView::numberFont(int characters) const {
    if (const auto found = numberFonts_.constFind(characters); found != numberFonts_.constEnd())
        return *found;
    const Metrics& m = metrics();
    const double inner = m.token / 2 - m.token * 0.09 * 1.4;
    QFont font = m.bold;
    const double fits = inner * 1.7 / std::max(1.0, m.digitAdvance * characters);
    if (fits < 1)
        font.setPointSizeF(font.pointSizeF() * fits);
    return *numberFonts_.insert(characters, font);
}

QSize StageView::sizeHint() const {
    const Metrics& m = metrics();
    const auto lanes = std::max<std::size_t>(lanes_.size(), 3);
    return {900, static_cast<int>(std::ceil(m.laneHeight * static_cast<double>(lanes + 1)))};
}

QSize StageView::minimumSizeHint() const {
    const Metrics& m = metrics();
    // Every lane stays tall enough to read: the page scrolls when they do not fit.
    const auto lanes = std::max<std::size_t>(lanes_.size(), 1);
    return {static_cast<int>(m.labelWidth + 3 * m.slot),
            static_cast<int>(std::ceil(m.laneHeight * static_cast<double>(lanes) +
                                       (lanesLeftOut_ ? m.laneHeight / 2 : 0)))};
}

int StageView::visibleSlots() const {
    const Metrics& m = metrics();
    const double room = width() - m.labelWidth - 2 * m.margin - m.token * 0.4;
    return std::max(2, static_cast<int>(room / m.slot));
}

QPointF StageView::slotCentre(int laneIndex, double slot) const {
    const Metrics& m = metrics();
    // The holder stands apart from the line behind it.
    const double gap = std::min(slot, 1.0) * m.token * 0.4;
    return {m.labelWidth + m.margin + m.slot / 2 + slot * m.slot + gap,
            laneIndex * m.laneHeight + m.margin + m.token / 2};
}

double StageView::progress(const Lane& lane, Clock::time_point now) const {
    if (!lane.moving)
        return 1;
    return std::clamp(msBetween(lane.movedAt, now) / AnimationMs, 0.0, 1.0);
}

double StageView::slotOf(const Lane& lane, const ShownToken& token, Clock::time_point now) const {
    return token.from + (token.to - token.from) * eased(progress(lane, now));
}

void StageView::setScene(const StageScene& scene) {
    const Clock::time_point now = clock_();
    // Here too, not only on the frame timer: a GUI thread kept busy by a stream of scenes may
    // fire it late, and the ghosts carried into the next scene would pile up meanwhile.
    dropFinished(now);
    // A scene before any frame showed the last one: changes outpace frames, so jump.
    const bool snap = !paintedSinceScene_;
    std::vector<Lane> lanes;
    lanes.reserve(scene.lanes.size());
    QHash<QString, int> index;
    for (const StageLane& next : scene.lanes) {
        const Lane* old = laneOf(next.lock);
        Lane lane{next.lock, {}, {}, {}, {}, false, next.waitersNotVisible};
        std::vector<StageToken> tokens = next.tokens;
        std::stable_sort(tokens.begin(), tokens.end(), [](const auto& a, const auto& b) {
            return a.fencingToken < b.fencingToken;
        });
        bool changed = !old || old->tokens.size() != tokens.size();
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            ShownToken shown{tokens[i], double(i), double(i), {}};
            if (old) {
                const auto was =
                    std::find_if(old->tokens.begin(), old->tokens.end(),
                                 [&](const ShownToken& t) { return t.token.sameKey(tokens[i]); });
                if (was == old->tokens.end())
                    changed = true;
                else {
                    shown.leaving = was->leaving;
                    shown.from = slotOf(*old, *was, now);
                    changed = changed || was->to != shown.to;
                }
            }
            lane.tokens.push_back(std::move(shown));
        }
        if (old) {
            lane.ghosts = old->ghosts;
            lane.splitBrain = old->splitBrain;
            for (const ShownToken& gone : old->tokens)
                if (std::none_of(tokens.begin(), tokens.end(),
                                 [&](const StageToken& t) { return t.sameKey(gone.token); }))
                    lane.ghosts.push_back({gone.token, slotOf(*old, gone, now), gone.leaving, now});
        }
        keepNewestGhosts(lane);
        const bool wasMoving = old && progress(*old, now) < 1;
        if (!changed && old) {
            // The same line: its animation, if any, goes on undisturbed.
            for (std::size_t i = 0; i < lane.tokens.size(); ++i) {
                lane.tokens[i].from = old->tokens[i].from;
                lane.tokens[i].to = old->tokens[i].to;
            }
            lane.moving = old->moving;
            lane.movedAt = old->movedAt;
        } else if (changed && old && !snap && !wasMoving) {
            lane.moving = true;
            lane.movedAt = now;
        } else {
            for (ShownToken& t : lane.tokens)
                t.from = t.to;
        }
        index.insert(lane.lock, static_cast<int>(lanes.size()));
        lanes.push_back(std::move(lane));
    }
    // A lock whose last key went stays while its key fades, a departure is named or a split
    // brain flashes: an expiry with nobody waiting would otherwise vanish unseen, and how a key
    // went may be told just after the scene without it.
    for (std::size_t i = 0; i < lanes_.size(); ++i) {
        Lane& old = lanes_[i];
        if (index.contains(old.lock))
            continue;
        Lane gone{old.lock, {}, old.ghosts, old.splitBrain, {}, false, old.waitersNotVisible};
        for (const ShownToken& t : old.tokens)
            gone.ghosts.push_back({t.token, slotOf(old, t, now), t.leaving, now});
        if (gone.ghosts.empty() && !gone.splitBrain)
            continue;
        const std::size_t at = std::min(i, lanes.size());
        lanes.insert(lanes.begin() + static_cast<std::ptrdiff_t>(at), std::move(gone));
        index.clear();
        for (std::size_t l = 0; l < lanes.size(); ++l)
            index.insert(lanes[l].lock, static_cast<int>(l));
    }
    const bool resized = lanes.size() != lanes_.size() || lanesLeftOut_ != scene.lanesLeftOut;
    lanes_ = std::move(lanes);
    laneIndex_ = std::move(index);
    lanesLeftOut_ = scene.lanesLeftOut;
    paintedSinceScene_ = false;
    if (resized)
        updateGeometry();
    update();
    scheduleFrames();
}

void StageView::showDeparture(const QString& lock, const QString& key, qint64 fencingToken,
                              StageDeparture how) {
    const auto found = laneIndex_.constFind(lock);
    if (found == laneIndex_.constEnd())
        return;
    Lane& lane = lanes_[*found];
    // An event without the key's create revision (our own Lost) names it by key alone.
    const auto isWho = [&](const StageToken& t) {
        return t.key == key && (fencingToken == 0 || t.fencingToken == fencingToken);
    };
    for (ShownToken& t : lane.tokens)
        if (isWho(t.token)) {
            t.leaving = how; // the scene that takes it away makes it a ghost, named so
            return;
        }
    for (Ghost& g : lane.ghosts)
        if (isWho(g.token)) {
            g.how = how;
            g.since = clock_();
            break;
        }
    // Named, it stays longer: now the newest of its lane.
    std::stable_partition(lane.ghosts.begin(), lane.ghosts.end(),
                          [&](const Ghost& g) { return !isWho(g.token); });
    update();
    scheduleFrames();
}

void StageView::showSplitBrain(const QString& lock, qint64 firstToken, qint64 secondToken) {
    const auto found = laneIndex_.constFind(lock);
    if (found == laneIndex_.constEnd()) {
        // The lock has no key now: its lane comes back for the flash.
        laneIndex_.insert(lock, static_cast<int>(lanes_.size()));
        lanes_.push_back({lock, {}, {}, {}, {}, false, {}});
        updateGeometry();
    }
    lanes_[laneIndex_.value(lock)].splitBrain = SplitBrain{firstToken, secondToken, clock_()};
    update();
    scheduleFrames();
}

void StageView::keepNewestGhosts(Lane& lane) {
    if (lane.ghosts.size() > MaxGhostsPerLane)
        lane.ghosts.erase(lane.ghosts.begin(),
                          lane.ghosts.end() - static_cast<std::ptrdiff_t>(MaxGhostsPerLane));
}

void StageView::dropFinished(Clock::time_point now) {
    bool removed = false;
    for (auto lane = lanes_.begin(); lane != lanes_.end();) {
        std::erase_if(lane->ghosts,
                      [&](const Ghost& g) { return msBetween(g.since, now) > ghostMs(g.how); });
        if (lane->splitBrain && msBetween(lane->splitBrain->since, now) > SplitBrainShownMs)
            lane->splitBrain.reset();
        if (lane->moving && progress(*lane, now) >= 1)
            lane->moving = false;
        if (lane->tokens.empty() && lane->ghosts.empty() && !lane->splitBrain) {
            lane = lanes_.erase(lane);
            removed = true;
        } else
            ++lane;
    }
    if (removed) {
        laneIndex_.clear();
        for (std::size_t l = 0; l < lanes_.size(); ++l)
            laneIndex_.insert(lanes_[l].lock, static_cast<int>(l));
        updateGeometry();
    }
}

void StageView::scheduleFrames() {
    if (!isVisible()) {
        frameTimer_.stop();
        return;
    }
    bool busy = false, rings = false;
    for (const Lane& lane : lanes_) {
        busy = busy || lane.moving || !lane.ghosts.empty() || lane.splitBrain;
        rings = rings || std::any_of(lane.tokens.begin(), lane.tokens.end(),
                                     [](const ShownToken& t) { return t.token.ttlEndsAt; });
    }
    if (!busy && !rings) {
        frameTimer_.stop();
        return;
    }
    const int interval = busy ? FrameMs : RingFrameMs;
    if (!frameTimer_.isActive() || frameTimer_.interval() != interval)
        frameTimer_.start(interval);
}

void StageView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    scheduleFrames();
}

void StageView::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    frameTimer_.stop();
}

const StageView::Lane* StageView::laneOf(const QString& lock) const {
    const auto found = laneIndex_.constFind(lock);
    return found == laneIndex_.constEnd() ? nullptr : &lanes_[*found];
}

const StageView::ShownToken* StageView::tokenOf(const QString& lock, const QString& key) const {
    const Lane* lane = laneOf(lock);
    if (!lane)
        return nullptr;
    for (const ShownToken& t : lane->tokens)
        if (t.token.key == key)
            return &t;
    return nullptr;
}

std::optional<double> StageView::fractionOf(const StageToken& token, Clock::time_point now) const {
    if (!token.ttlEndsAt || token.grantedSeconds <= 0)
        return std::nullopt;
    const double left = msBetween(now, *token.ttlEndsAt) / 1000.0;
    return std::clamp(left / token.grantedSeconds, 0.0, 1.0);
}

std::optional<double> StageView::ringFraction(const QString& lock, const QString& key) const {
    const ShownToken* t = tokenOf(lock, key);
    return t ? fractionOf(t->token, clock_()) : std::nullopt;
}

bool StageView::ringLow(const QString& lock, const QString& key) const {
    const auto fraction = ringFraction(lock, key);
    return fraction && *fraction < LowTtlFraction;
}

bool StageView::animating(const QString& lock) const {
    const Lane* lane = laneOf(lock);
    return lane && progress(*lane, clock_()) < 1;
}

std::optional<std::pair<qint64, qint64>> StageView::splitBrainOf(const QString& lock) const {
    const Lane* lane = laneOf(lock);
    if (!lane || !lane->splitBrain)
        return std::nullopt;
    return std::pair(lane->splitBrain->first, lane->splitBrain->second);
}

QStringList StageView::lanes() const {
    QStringList names;
    for (const Lane& lane : lanes_)
        names.append(lane.lock);
    return names;
}

QStringList StageView::keysOf(const QString& lock) const {
    QStringList keys;
    if (const Lane* lane = laneOf(lock))
        for (const ShownToken& t : lane->tokens)
            keys.append(t.token.key);
    return keys;
}

std::optional<QPointF> StageView::centreOf(const QString& lock, const QString& key) const {
    const Lane* lane = laneOf(lock);
    const ShownToken* t = tokenOf(lock, key);
    if (!t)
        return std::nullopt;
    // A token past the last slot is summed up as "+N", not drawn.
    const int shownSlots = visibleSlots();
    if (static_cast<int>(lane->tokens.size()) > shownSlots && t->to >= shownSlots - 1)
        return std::nullopt;
    return slotCentre(laneIndex_.value(lock), slotOf(*lane, *t, clock_()));
}

std::optional<StageView::TokenHit> StageView::tokenAt(const QPoint& pos) const {
    const Metrics& m = metrics();
    const int index = static_cast<int>(pos.y() / m.laneHeight);
    if (pos.y() < 0 || index >= static_cast<int>(lanes_.size()))
        return std::nullopt;
    const Lane& lane = lanes_[index];
    for (std::size_t i = 0; i < lane.tokens.size(); ++i) {
        const auto centre = centreOf(lane.lock, lane.tokens[i].token.key);
        if (centre && QLineF(*centre, pos).length() <= m.token / 2)
            return TokenHit{lane.lock, lane.tokens[i].token, static_cast<int>(i)};
    }
    return std::nullopt;
}

void StageView::contextMenuEvent(QContextMenuEvent* event) {
    if (const auto hit = tokenAt(event->pos()))
        emit tokenMenuRequested(hit->lock, hit->token, event->globalPos());
}

void StageView::paintEvent(QPaintEvent* event) {
    const Clock::time_point now = clock_();
    paintedSinceScene_ = true;
    QPainter painter(this);
    const Metrics& m = metrics();
    // Each lane fills its own band: only what lies below them is filled here.
    const double lanesBottom = static_cast<double>(lanes_.size()) * m.laneHeight;
    painter.fillRect(
        QRectF(event->rect()).adjusted(0, std::max(0.0, lanesBottom - event->rect().top()), 0, 0),
        palette().base());
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(m.plain);
    if (lanes_.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No locks under the prefix"));
        return;
    }
    const int first = std::max(0, static_cast<int>(event->rect().top() / m.laneHeight));
    const int last = std::min(static_cast<int>(lanes_.size()) - 1,
                              static_cast<int>(event->rect().bottom() / m.laneHeight));
    for (int i = first; i <= last; ++i)
        paintLane(painter, i, now);
    if (lanesLeftOut_ > 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        const QRectF more(m.margin, lanes_.size() * m.laneHeight, width() - 2 * m.margin,
                          m.laneHeight / 2);
        painter.drawText(more, Qt::AlignLeft | Qt::AlignVCenter,
                         tr("%n more lock(s) not shown", "", lanesLeftOut_));
    }
}

void StageView::paintLane(QPainter& painter, int index, Clock::time_point now) const {
    const Lane& lane = lanes_[index];
    const Metrics& m = metrics();
    const QRectF band(0, index * m.laneHeight, width(), m.laneHeight);
    painter.fillRect(band, index % 2 ? palette().alternateBase() : palette().base());
    const double splitAge = lane.splitBrain ? msBetween(lane.splitBrain->since, now) : 0;
    const bool flash = lane.splitBrain && flashOn(splitAge);
    const QColor alarm = alarmColor();
    if (flash)
        painter.fillRect(band, QColor(alarm.red(), alarm.green(), alarm.blue(), 50));
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.drawLine(band.bottomLeft(), band.bottomRight());

    // The label column: the lock's name, then what just happened to it.
    const QFontMetricsF fm(m.plain);
    const QRectF label(m.margin, band.top() + m.margin, m.labelWidth - 2 * m.margin,
                       band.height() - 2 * m.margin);
    painter.setFont(m.bold);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(label.left(), label.top(), label.width(), fm.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(m.bold).elidedText(lane.lock, Qt::ElideMiddle, label.width()));
    painter.setFont(m.plain);
    QString status;
    QColor statusColor = palette().color(QPalette::PlaceholderText);
    const auto waiting = static_cast<int>(std::max<std::size_t>(lane.tokens.size(), 1) - 1);
    if (lane.splitBrain) {
        status =
            tr("split brain: #%1 and #%2").arg(lane.splitBrain->first).arg(lane.splitBrain->second);
        statusColor = alarm;
    } else if (const auto named_ = std::find_if(lane.ghosts.rbegin(), lane.ghosts.rend(),
                                                [](const Ghost& g) { return named(g.how); });
               named_ != lane.ghosts.rend()) {
        status = tr("#%1 %2").arg(named_->token.fencingToken).arg(departureText(*named_->how));
        statusColor = departureColor(named_->how);
    } else if (lane.tokens.empty())
        status = tr("free");
    else if (!lane.waitersNotVisible.isEmpty())
        status = tr("%1: waiters not visible").arg(lane.waitersNotVisible);
    else
        status = tr("%n waiting", "", waiting);
    painter.setPen(statusColor);
    painter.drawText(
        QRectF(label.left(), label.top() + fm.height() * 1.2, label.width(), fm.height()),
        Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(status, Qt::ElideRight, label.width()));
    if (lane.splitBrain) {
        // The two tokens, flashing, under the lock's name: by the time the lab's checker finds
        // a split brain, both holds have usually ended and left the line.
        const double diameter = fm.height() * 1.7;
        const double y = label.top() + fm.height() * 2.4;
        const qint64 tokens[] = {lane.splitBrain->first, lane.splitBrain->second};
        for (int i = 0; i < 2; ++i) {
            const QRectF disk(label.left() + i * (diameter * 1.8), y, diameter * 1.6, diameter);
            painter.setPen(QPen(alarm, 2));
            painter.setBrush(flash ? alarm : QColor(Qt::white));
            painter.drawRoundedRect(disk, diameter / 2, diameter / 2);
            painter.setPen(flash ? QColor(Qt::white) : alarm);
            painter.setFont(m.bold);
            painter.drawText(disk, Qt::AlignCenter, QStringLiteral("#%1").arg(tokens[i]));
            painter.setFont(m.plain);
        }
    }

    // The holder's place, and the line behind it.
    const QPointF front = slotCentre(index, 0);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    const double divider = (front.x() + slotCentre(index, 1).x()) / 2;
    painter.drawLine(QPointF(divider, band.top() + m.margin),
                     QPointF(divider, band.bottom() - m.margin));

    // Under the line: a departed key fades where it stood, and whoever took its place is read
    // over it.
    for (const Ghost& g : lane.ghosts)
        paintGhost(painter, slotCentre(index, g.slot), g, now, GhostPart::Token);
    const int shownSlots = visibleSlots();
    const auto count = static_cast<int>(lane.tokens.size());
    const int drawn = count > shownSlots ? shownSlots - 1 : count;
    for (int i = 0; i < drawn; ++i) {
        const ShownToken& t = lane.tokens[i];
        const bool red = flash && (t.token.fencingToken == lane.splitBrain->first ||
                                   t.token.fencingToken == lane.splitBrain->second);
        paintToken(painter, slotCentre(index, slotOf(lane, t, now)), t.token, i == 0, red, now);
    }
    if (count > drawn) {
        painter.setPen(palette().color(QPalette::Text));
        const QPointF centre = slotCentre(index, shownSlots - 1);
        painter.drawText(QRectF(centre.x() - m.slot / 2, centre.y() - m.token / 2, m.slot, m.token),
                         Qt::AlignCenter, tr("+%1 more").arg(count - drawn));
    }
    // On top, across the top of the slot: how a key went.
    for (const Ghost& g : lane.ghosts)
        paintGhost(painter, slotCentre(index, g.slot), g, now, GhostPart::Label);
}

void StageView::paintToken(QPainter& painter, const QPointF& centre, const StageToken& token,
                           bool holder, bool flashRed, Clock::time_point now) const {
    const Metrics& m = metrics();
    const auto fraction = fractionOf(token, now);
    const QColor fill = flashRed     ? alarmColor()
                        : token.ours ? oursFill
                        : holder     ? holderFill
                                     : waiterFill;
    const QPixmap& face = faceOf(fill, fraction.has_value(), flashRed);
    const QSizeF faceSize = face.deviceIndependentSize();
    // On whole pixels: a pixmap between pixels is resampled, many times slower to draw.
    const QPoint corner(qRound(centre.x() - faceSize.width() / 2),
                        qRound(centre.y() - faceSize.height() / 2));
    painter.drawPixmap(corner, face);
    if (fraction && *fraction > 0)
        painter.drawPixmap(corner, ringOf(*fraction));
    if (token.picked) { // outside the TTL ring, which it must not hide
        const double width = m.token * 0.08;
        const double radius = m.token / 2 + width;
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(pickedSessionColor(), width));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(centre, radius, radius);
        painter.restore();
    }

    // The fencing token inside, shrunk to fit when long.
    const QString number = QStringLiteral("#%1").arg(token.fencingToken);
    const QFont& numberFont = this->numberFont(static_cast<int>(number.size()));
    painter.setFont(numberFont);
    painter.setPen(Qt::white);
    const QStaticText& numberText = textOf(number, numberFont);
    painter.drawStaticText(
        centre - QPointF(numberText.size().width(), numberText.size().height()) / 2, numberText);
    painter.setFont(m.plain);

    // Ours is blue; paused is said in place of the lease, which its ring runs out on.
    QString caption = token.leaseShort.isEmpty() ? tr("no lease") : token.leaseShort;
    if (token.paused)
        caption = tr("paused");
    painter.setPen(token.paused ? lowColor : palette().color(QPalette::Text));
    // A short lease fits its slot; only the longer captions are measured.
    if (caption.size() > 8)
        caption = QFontMetricsF(m.plain).elidedText(caption, Qt::ElideMiddle, m.slot);
    const QStaticText& captionText = textOf(caption, m.plain);
    painter.drawStaticText(QPointF(centre.x() - captionText.size().width() / 2,
                                   centre.y() + m.token / 2 + m.margin / 2),
                           captionText);
}

const QPixmap& StageView::ringOf(double fraction) const {
    const int steps = static_cast<int>(std::ceil(fraction * RingSteps));
    const bool low = fraction < LowTtlFraction;
    const int id = steps * 2 + (low ? 1 : 0);
    if (const auto found = rings_.constFind(id); found != rings_.constEnd())
        return *found;
    const Metrics& m = metrics();
    QPixmap ring = blankToken();
    QPainter painter(&ring);
    painter.setRenderHint(QPainter::Antialiasing);
    const double side = ring.deviceIndependentSize().width();
    const double ringWidth = m.token * 0.09;
    const double radius = m.token / 2 - ringWidth / 2;
    painter.setPen(QPen(low ? lowColor : ringColor, ringWidth, Qt::SolidLine, Qt::FlatCap));
    painter.drawArc(QRectF(side / 2 - radius, side / 2 - radius, 2 * radius, 2 * radius), 90 * 16,
                    static_cast<int>(std::lround(360.0 * 16 * steps / RingSteps)));
    return *rings_.insert(id, ring);
}

const QStaticText& StageView::textOf(const QString& text, const QFont& font) const {
    // Size and weight tell the fonts drawn here apart (QFont::key() costs more than the text).
    const TextId id(text, {font.pointSizeF(), font.bold()});
    if (const auto found = texts_.constFind(id); found != texts_.constEnd())
        return *found;
    if (texts_.size() > MaxCachedTexts)
        texts_.clear(); // fencing tokens only grow: the old ones are not drawn again
    QStaticText staticText(text);
    staticText.setTextFormat(Qt::PlainText);
    staticText.prepare(QTransform(), font);
    return *texts_.insert(id, staticText);
}

void StageView::paintGhost(QPainter& painter, const QPointF& centre, const Ghost& ghost,
                           Clock::time_point now, GhostPart part) const {
    const Metrics& m = metrics();
    const double age = msBetween(ghost.since, now) / ghostMs(ghost.how);
    if (age >= 1)
        return;
    painter.save();
    painter.setOpacity(1 - age);
    const QColor color = departureColor(ghost.how);
    // It steps up out of the line as it goes, so the next one can take its place.
    const QPointF at(centre.x(), centre.y() - m.token * 0.3 * eased(std::min(1.0, age * 4)));
    const double radius = m.token * 0.4;
    if (part == GhostPart::Token) {
        painter.setPen(QPen(color, m.token * 0.06));
        painter.setBrush(QColor(color.red(), color.green(), color.blue(), 60));
        painter.drawEllipse(at, radius, radius);
        if (named(ghost.how)) {
            const double d = radius * 0.5;
            painter.drawLine(at + QPointF(-d, -d), at + QPointF(d, d));
            painter.drawLine(at + QPointF(-d, d), at + QPointF(d, -d));
        }
    } else if (named(ghost.how)) {
        painter.setFont(m.bold);
        const QStaticText& text = textOf(
            tr("#%1 %2").arg(ghost.token.fencingToken).arg(departureText(*ghost.how)), m.bold);
        const QSizeF size = text.size();
        const double w = size.width() + m.margin;
        // Across the top of the slot: the number of whoever stepped up stays readable.
        const double top = centre.y() - m.token / 2;
        const QRectF pill(at.x() - w / 2, top - size.height() / 2, w, size.height());
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRoundedRect(pill, size.height() / 2, size.height() / 2);
        painter.setPen(Qt::white);
        painter.drawStaticText(QPointF(pill.left() + m.margin / 2, pill.top()), text);
    }
    painter.restore();
}

} // namespace lockscope
