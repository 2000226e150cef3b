#pragma once

#include <QPixmap>
#include <QScrollBar>
#include <QStyle>
#include <optional>

namespace lockscope {

// A scroll bar that draws its groove once per look and then copies that picture, drawing only
// its handle, pages and arrows anew. A table whose rows keep coming repaints its scroll bar
// every frame, the handle a pixel or two further. Fusion draws a tall bar's groove and edges as
// fills and lines taller than 96 pixels, which Qt's raster engine splits across its thread pool
// and waits for: on a busy machine that wait, not the drawing, held the GUI thread longest. The
// copied picture is opaque, so Qt neither splits it nor paints the widgets behind the bar.
// Under the pointer or pressed, it is a plain scroll bar.
class CachedScrollBar : public QScrollBar {
    Q_OBJECT
public:
    explicit CachedScrollBar(Qt::Orientation orientation, QWidget* parent = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    // What the groove is drawn from, besides the style, palette and direction (whose changes
    // drop the picture): the same look, the same picture.
    struct Look {
        QSize size;
        qreal pixelRatio = 1;
        QStyle::State state;
        bool operator==(const Look&) const = default;
    };

    QPixmap picture_;
    std::optional<Look> pictured_;
    bool pressed_ = false; // on this bar: an arrow or the groove held down
};

} // namespace lockscope
