#pragma once

#include <QTabWidget>

namespace lockscope {

// A QTabWidget that does not repaint itself whole each time a page's layout changes. Any
// widget's new size hint lays out its parents up to the window, and QTabWidget answers the
// request that reaches it by placing its tab bar, corners and pages again and repainting all
// of itself and its current page, even when nothing moved: a label's new text in a corner
// repainted every table of the Locks page. Here, when everything already stands where
// QTabWidget would place it, the request is only passed on up, as QTabWidget passes it. A page
// that needs more room still gets it: the window's layout resizes the tab widget.
class SteadyTabWidget : public QTabWidget {
    Q_OBJECT
public:
    using QTabWidget::QTabWidget;

protected:
    bool event(QEvent* event) override;

private:
    // Whether the tab bar, the pages and the corner widgets stand where QTabWidget's layout
    // (the style's sub-element rectangles) would place them now.
    bool placed() const;
};

} // namespace lockscope
