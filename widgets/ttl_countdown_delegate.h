#pragma once

#include "widgets/plain_text_delegate.h"
#include "widgets/two_generation_cache.h"

#include <QColor>
#include <QHash>
#include <QPixmap>

namespace lockscope {

// Paints a TTL cell as a small bar, remaining over granted, with the cell's text on it; orange
// when under a quarter is left. The model gives the two numbers under roles of its choosing;
// cells without them are painted as plain text. Both tones of the bar are light enough for
// one dark text colour to stay readable wherever the text falls (HolderCard's bar uses them too).
class TtlCountdownDelegate : public PlainTextDelegate {
    Q_OBJECT
public:
    static constexpr double LowFraction = 0.25;

    TtlCountdownDelegate(int remainingRole, int grantedRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // The part of the bar to fill: remaining / granted, within [0, 1].
    static double fraction(double remaining, double granted);
    // The filled part, the rest of the bar (the track), its outline and the text on it.
    static QColor fillColor(bool low);
    static QColor trackColor(bool low);
    static QColor edgeColor(bool low);
    static QColor textColor();
    // The bar without its text: `filled` pixels of `area` filled.
    static void paintBar(QPainter& painter, const QRect& area, int filled, bool low);

private:
    // The bar without its text, `filled` pixels of `size` filled, at the painter's pixel ratio.
    const QPixmap& bar(QSize size, int filled, bool low, qreal pixelRatio) const;

    struct BarKey {
        QSize size;
        int filled;
        bool low;
        qreal pixelRatio;
        bool operator==(const BarKey&) const = default;
        friend size_t qHash(const BarKey& key, size_t seed) {
            return qHashMulti(seed, key.size.width(), key.size.height(), key.filled, key.low,
                              key.pixelRatio);
        }
    };
    // A bar is three antialiased rounded rectangles: drawn for every cell, they were a fifth of
    // a lock table's frame. Its width in pixels, fills and tone are few, so each is drawn once
    // and copied from then on.
    static constexpr qsizetype BarGeneration = 256;
    mutable TwoGenerationCache<BarKey, QPixmap> bars_{BarGeneration};
    int remainingRole_;
    int grantedRole_;
};

} // namespace lockscope
