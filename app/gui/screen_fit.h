#pragma once

class QWidget;

namespace lockscope {

// Shrinks and moves a top-level window so that all of it, frame included, lies on the
// available area of its screen: a size saved on a larger screen (or grown by a long text) never
// puts the window's controls out of reach. A maximized or full-screen window is left alone.
// Once shown, it is fitted again whenever it moves to another screen or its screen changes.
void fitToScreen(QWidget& window);

} // namespace lockscope
