#pragma once

#include "widgets/plain_text_delegate.h"

namespace lockscope {

// Paints a TTL cell as a small bar, remaining over granted, with the cell's text on it; red
// when under a quarter is left. The model gives the two numbers under roles of its choosing;
// cells without them are painted as plain text.
class TtlCountdownDelegate : public PlainTextDelegate {
    Q_OBJECT
public:
    static constexpr double LowFraction = 0.25;

    TtlCountdownDelegate(int remainingRole, int grantedRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // The part of the bar to fill: remaining / granted, within [0, 1].
    static double fraction(double remaining, double granted);

private:
    int remainingRole_;
    int grantedRole_;
};

} // namespace lockscope
