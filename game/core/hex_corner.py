"""The rule at one hex corner, on small integers: the sector rule, ``touch`` and the end rules.

Pure. A corner of the hex lattice has three arms (edges) and three wedges (cells) in a fixed
circular order, **positions** 0..5: even positions are arms, odd ones wedges. In the pointy frame
a *top* corner (``Y ≡ 1 mod 3``, the top of the cell below it) has positions: 0 the arm up, 1 the
wedge up-right, 2 the arm down-right, 3 the wedge below, 4 the arm down-left, 5 the wedge up-left;
a *bottom* corner (``Y ≡ 2 mod 3``) is the same reflected top to bottom. A corner's **code** holds
bit ``p`` when position ``p`` is closed: a wall arm (even ``p``) or a blocking wedge (odd ``p``; the
two end cells are never set). The fast paths (:mod:`game.core.hex_los`, :mod:`game.core.hex_fov`)
decide corners with :func:`corner_rule`; the reference (:mod:`game.core.hex_reference`) has its
own.

>>> position((0, -1), True), position((3, 2), True), position((-1, 5), False)
(0, 1, 5)
>>> corner_rule(0b000001, 5, 3, "both-sides", False)   # a wall up; the line from up-left to below
>>> corner_rule(0b010010, 5, 3, "both-sides", False)   # a wall down-left, the up-right cell blocks
('both', (4,), (1,))
"""

from __future__ import annotations

from functools import cache

__all__ = ["ARMS", "WEDGES", "corner_rule", "position", "separated", "side_wedge"]

#: arm end offsets (positions 0, 2, 4) and wedge centre offsets (1, 3, 5) of a top corner
ARMS = ((0, -2), (1, 1), (-1, 1))
WEDGES = ((1, -1), (0, 2), (-1, -1))


def position(d: tuple[int, int], top: bool) -> int:
    """The position of a direction ``d`` leaving a corner (pointy frame; ``top``: a top corner)."""
    dx, dy = d if top else (d[0], -d[1])
    if dx == 0 and dy < 0:
        return 0
    if dx == dy and dx > 0:
        return 2
    if dx == -dy and dx < 0:
        return 4
    if dy > abs(dx):
        return 3
    return 1 if dx > 0 else 5


def separated(p1: int, p2: int, code: int) -> bool:
    """The sector rule: both arcs strictly between positions ``p1`` and ``p2`` hold a wall arm."""
    if p1 == p2:
        return False
    walls = code & 0b010101
    arc1 = arc2 = False
    for k in range(1, (p2 - p1) % 6):
        arc1 = arc1 or bool(walls >> ((p1 + k) % 6) & 1)
    for k in range(1, (p1 - p2) % 6):
        arc2 = arc2 or bool(walls >> ((p2 + k) % 6) & 1)
    return arc1 and arc2


def side_wedge(arm: int, line: tuple[int, int], side: int, top: bool) -> int:
    """The wedge beside arm position ``arm`` on ``side`` (+1/-1: the sign of the cross product with
    the line's direction ``line``) of the line (pointy frame)."""
    for wedge in ((arm + 1) % 6, (arm - 1) % 6):
        cx, cy = WEDGES[wedge // 2]
        if not top:
            cy = -cy
        cross = line[0] * cy - line[1] * cx
        if (cross > 0) - (cross < 0) == side:
            return wedge
    raise AssertionError("one wedge lies on each side of an arm")


@cache
def corner_rule(
    code: int, back: int, ahead: int, touch: str, endpoint: bool, endpoint_touch: str = "clear",
    back_push: int | None = None, ahead_push: int | None = None,
) -> tuple[str, tuple[int, ...], tuple[int, ...]] | None:
    """The verdict at a corner the line passes (or starts or ends at, ``endpoint``): None when it
    passes, else ``("sector", (), ())``, ``("endpoint", (p,), ())`` (a wall arm at a corner end point
    with ``endpoint_touch = blocks``), ``("touch", (p,), ())`` or ``("both", side1, side2)`` with the
    positions touched. ``back`` / ``ahead``: where the line comes from and goes to; ``*_push``: the
    wedge to use instead for the sector rule (a wall stretch run along, pushed to one side)."""
    sb = back if back_push is None else back_push
    sa = ahead if ahead_push is None else ahead_push
    if separated(sb, sa, code):
        return ("sector", (), ())
    if endpoint:
        if endpoint_touch == "clear":
            return None
        walls = [p for p in (0, 2, 4) if code >> p & 1]
        if walls:
            return ("endpoint", (walls[0],), ())
    if touch == "clear":
        return None
    touched = [p for p in range(6) if code >> p & 1 and p not in (back, ahead)]
    if not touched:
        return None
    if touch == "blocks":
        return ("touch", (touched[0],), ())
    side1 = tuple(p for k in range(1, (back - ahead) % 6) if (p := (ahead + k) % 6) in touched)
    side2 = tuple(p for k in range(1, (ahead - back) % 6) if (p := (back + k) % 6) in touched)
    return ("both", side1, side2) if side1 and side2 else None
