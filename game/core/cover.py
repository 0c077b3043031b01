"""Cover grades of the rules that grade cover (``dnd5e``, ``pf1e``, ``pf2e``): see
docs/line-of-sight.md, "Cover".

Pure: integers and Fractions only. Every line is judged by the segment rule of
:mod:`game.core.segment` with the rule's own ``corner_touch``, ``along_*`` and ``boundary``;
"creatures count" is ``figures = any``. The facade (:func:`game.core.sight.cover`, and
:attr:`game.core.sight_result.Sight.cover`) asks this module once the verdict is known.

>>> from game.core.board import Board
>>> from game.core.profiles import parse_rule
>>> b = Board.from_ascii(["...", ".#.", "..."])
>>> cover_of(b, (0, 0), (2, 2), parse_rule("dnd5e"), None, in_sight=True).grade
'three-quarters'
"""

from __future__ import annotations

from game.core.board import Board, Square
from game.core.profiles import Profile
from game.core.segment import BoardView, cell_corners, centre_point, check_segment, view
from game.core.sight_result import CoverResult, LineCheck, Point, fmt_point

__all__ = ["cover_of"]


def _corner_lines(geo: BoardView, a: Square, b: Square, corner: Point) -> tuple[LineCheck, ...]:
    return tuple(check_segment(geo, a, b, corner, q, "corner", "corner") for q in cell_corners(b))


def cover_of(
    board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, *, in_sight: bool
) -> CoverResult:
    """The cover of ``b`` from ``a`` by the profile's ``cover`` system; ``in_sight`` is the rule's
    verdict for the pair (pf2e grades a target out of sight as total cover)."""
    system = profile.cover
    if a == b:
        return CoverResult(system, "none", None, (), "the same square")
    if system == "pf2e":
        return _pf2e(board, a, b, profile, viewer, in_sight)
    creatures = view(board, profile, viewer, "any")
    best: tuple[int, Point, tuple[LineCheck, ...]] | None = None
    for corner in cell_corners(a):
        lines = _corner_lines(creatures, a, b, corner)
        n = sum(not line.clear for line in lines)
        if best is None or n < best[0]:
            best = (n, corner, lines)
    assert best is not None
    n, corner, lines = best
    plain = view(board, profile, viewer, "none" if profile.figures == "none" else profile.figures)
    reachable = any(
        check_segment(plain, a, b, p, q, "corner", "corner").clear for p in cell_corners(a) for q in cell_corners(b)
    )
    blocked = [f"to {fmt_point(line.end)} {line.blocker}" for line in lines if not line.clear]
    detail = f"best corner {fmt_point(corner)}: {n} of 4 lines blocked" + (f" ({'; '.join(blocked)})" if blocked else "")
    if not reachable:
        return CoverResult(system, "total", corner, lines, "no corner line is clear of walls and blocking squares")
    if system == "pf1e":
        return CoverResult(system, "cover" if n else "none", corner, lines, detail)
    grade = "none" if n == 0 else "half" if n <= 2 else "three-quarters"
    return CoverResult(system, grade, corner, lines, detail)


def _pf2e(board: Board, a: Square, b: Square, profile: Profile, viewer: str | None, in_sight: bool) -> CoverResult:
    """Pathfinder 2e: out of sight is total; the centre line blocked by geometry is standard, by
    a creature lesser."""
    if not in_sight:
        return CoverResult("pf2e", "total", None, (), "no permitted line is clear")
    line = check_segment(view(board, profile, viewer, "none"), a, b, centre_point(a), centre_point(b), "centre", "centre")
    if not line.clear:
        return CoverResult("pf2e", "standard", None, (line,), f"the centre line {line.blocker}")
    creatures = view(board, profile, viewer, "any")
    line2 = check_segment(creatures, a, b, centre_point(a), centre_point(b), "centre", "centre")
    if not line2.clear and "figure" in (line2.blocker or ""):
        return CoverResult("pf2e", "lesser", None, (line2,), f"the centre line {line2.blocker}")
    return CoverResult("pf2e", "none", None, (line,), "the centre line is clear")
