#pragma once

#include "widgets/two_generation_cache.h"

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace lockscope {

// Paints a cell's display text on one line, elided to fit, with its alignment, over the view's
// usual background, alternate rows, selection and focus. QStyledItemDelegate lays a cell's text out
// twice on every paint (to place it, then to draw it): with every visible row of the lock
// tables repainted each frame while events stream in, that was most of the GUI thread's time.
// This one lays out each text once per width and draws it from then on. Text is all our
// models show: no icons, check boxes or rich text.
class PlainTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // Texts that are keys or lock names: too long for the cell, they keep their last '/'
    // segment whole (elidedKey) instead of the view's elision.
    void setKeepsLastSegment(bool keep) { keepsLastSegment_ = keep; }
    // Rows whose `role` is true are marked: the session picked on the Blockers page.
    void setMarkRole(int role) { markRole_ = role; }

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
    // Everything but the text.
    static void paintPanel(QPainter* painter, const QStyleOptionViewItem& cell);
    // `text` within `area`, elided as the view elides; `color` defaults to the cell's.
    void paintText(QPainter* painter, const QStyleOptionViewItem& cell, const QRect& area,
                   const QString& text, Qt::Alignment alignment, QColor color = {}) const;

private:
    struct Key {
        QString text;
        int width;
        Qt::TextElideMode elide;
        bool operator==(const Key&) const = default;
        friend size_t qHash(const Key& key, size_t seed) {
            return qHashMulti(seed, key.text, key.width, key.elide);
        }
    };
    // A frame of the lock tables needs a few hundred; the rest is what scrolled past.
    static constexpr qsizetype LaidOutGeneration = 2048;

    mutable TwoGenerationCache<Key, QStaticText> laidOut_{LaidOutGeneration};
    mutable QFont laidOutFont_; // what laidOut_ was laid out in
    bool keepsLastSegment_ = false;
    int markRole_ = -1;
};

} // namespace lockscope
