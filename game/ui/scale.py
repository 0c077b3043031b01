"""The UI scale: how big the panel, its type, the dice tray and the help card are drawn.

At the reference size (1280×800) and below, down to 960×600 (the smallest a real window may
be made), the scale is 1; a smaller one (``--size 800x500``) lays the panel out smaller, in
steps of 1/8 down to 0.75, so that its text still fits whole; a bigger window scales the UI with
it (the smaller of the two ratios, in steps of 1/8), up to 3. ``--ui-scale S`` fixes it
instead (0.75 … 3). The board is not scaled this way: it is drawn at the screen's own pixels
and zooms by itself (its tokens and labels follow the zoom).

>>> ui_scale_for((1280, 800)), ui_scale_for((1000, 650)), ui_scale_for((1920, 1080))
(1.0, 1.0, 1.25)
>>> ui_scale_for((2400, 1400)), ui_scale_for((2400, 1400), 1.0), ui_scale_for((900, 600), 9.0)
(1.75, 1.0, 3.0)
>>> ui_scale_for((800, 500))
0.75
>>> logical_size((2400, 1400), 1.75)
(1371, 800)
"""

from __future__ import annotations

import math

#: the window size the UI is laid out for at scale 1
REFERENCE = (1280, 800)
#: below this size (the real window's minimum) the UI scale drops under 1, down to MIN_SCALE
SMALL = (960, 600)
MIN_SCALE = 0.75
MAX_SCALE = 3.0
#: automatic scales move in steps of 1/STEPS (fewer rebuilds while a window is dragged bigger)
STEPS = 8


def ui_scale_for(size: tuple[int, int], setting: float | None = None) -> float:
    """The UI scale for a window of ``size`` pixels (``setting`` wins when given)."""
    if setting is not None:
        return min(MAX_SCALE, max(MIN_SCALE, float(setting)))
    ratio = min(size[0] / REFERENCE[0], size[1] / REFERENCE[1])
    stepped = math.floor(ratio * STEPS) / STEPS
    small = min(size[0] / SMALL[0], size[1] / SMALL[1])
    if small < 1.0:  # smaller than a real window may be made: the panel shrinks so nothing is cut
        return max(MIN_SCALE, math.floor(small * STEPS) / STEPS)
    return min(MAX_SCALE, max(1.0, stepped))


def logical_size(size: tuple[int, int], scale: float) -> tuple[int, int]:
    """The window's size in UI units: what the panel is laid out in before it is scaled."""
    return max(1, round(size[0] / scale)), max(1, round(size[1] / scale))
