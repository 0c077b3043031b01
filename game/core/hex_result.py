"""The answer of the hex sight engine: the lines it checked and the verdict, in words and JSON.

Pure. The JSON has the shape of the square profiles' (``game.core.profile_los``): a document
``{"clear", "from", "to", "viewer", "lines", "checked", "rule", "explanation"}`` plus ``"grid":
"hex"``, each line ``{"from", "to", "from_kind", "to_kind", "clear", "blocker"}`` with its end
points as text (here integer **lattice** points, docs/hex.md "The lattice").

>>> from game.core.hexgrid import HexGrid
>>> g = HexGrid(3, 1)
>>> point_name(g, (0, 0), (1, 1)), point_name(g, (1, 0), (2, 0))
('the south-east corner of (0,0)', 'the centre of (1,0)')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from game.core.hex_rules import HexProfile
from game.core.hexgrid import Cell, HexGrid, Point, fmt_point
from game.core.sight_result import Crossing, LineCheck

__all__ = ["CORNER_NAMES", "HexLine", "HexLineCheck", "HexMeeting", "HexSightResult", "candidate_points", "decide",
           "point_name"]

EndKind = Literal["centre", "corner"]

#: corner i of a cell, by stagger axis (pointy-top: clockwise from the top; flat-top: transposed)
CORNER_NAMES = {
    "y": ("north", "north-east", "south-east", "south", "south-west", "north-west"),
    "x": ("west", "south-west", "south-east", "east", "north-east", "north-west"),
}


def point_name(grid: HexGrid, cell: Cell, point: Point) -> str:
    """A line's end point in words: ``the centre of (1,0)``, ``the north corner of (0,1)``."""
    if point == grid.centre(cell):
        return f"the centre of {fmt_point(cell)}"
    index = grid.corners(cell).index(point)
    return f"the {CORNER_NAMES[grid.staggeraxis][index]} corner of {fmt_point(cell)}"


@dataclass(frozen=True)
class HexMeeting:
    """Where a blocked line first meets what blocks it, exactly: ``t`` along the line (0 at its
    start, 1 at its end), the lattice ``point`` there (``start + t (end - start)``), the lattice
    ``corners`` its verdict is decided at and the blocking ``cells`` it names.

    ``t`` is where the blocker begins along the line: the corner it is blocked at, the point where
    it crosses a wall, the corner where it starts to run along a closed edge, or the point where
    it enters a blocking cell. A line seen green before ``t`` and red after it is drawn exactly."""

    t: Fraction
    point: tuple[Fraction, Fraction]
    corners: tuple[Point, ...] = ()
    cells: tuple[Cell, ...] = ()

    @property
    def kind(self) -> Literal["corner", "square", "edge"]:
        """``corner`` when blocked at a lattice corner, ``square`` when entering a blocking cell,
        else ``edge`` (a wall crossed or run along)."""
        return "corner" if self.corners else "square" if self.cells else "edge"


@dataclass(frozen=True)
class HexLine(LineCheck):
    """A hex candidate line as the facade's :class:`~game.core.sight_result.LineCheck` (exact
    lattice points), with where it is blocked (:class:`HexMeeting`, None when clear or unknown)."""

    met: HexMeeting | None = field(default=None, compare=False)

    def meeting(self) -> Crossing | None:
        """What blocks this line as a :class:`~game.core.sight_result.Crossing`: its exact ``t``
        and point, the corner or cell there (None when clear or not known)."""
        met = self.met
        if self.blocker is None or met is None:
            return None
        corner = met.corners[0] if met.corners else None
        square = met.cells[0] if met.cells and corner is None else None
        return Crossing(met.kind, met.t, met.point, True, self.blocker, corner=corner, square=square,
                        line=self.describe())


@dataclass(frozen=True)
class HexLineCheck:
    """One candidate line between lattice points and its verdict (``blocker`` None when clear;
    ``meeting``, where the blocker is first met, filled by :func:`game.core.hex_los.line`).

    ``start_name`` / ``end_name`` name the points for people (:func:`point_name`)."""

    start: Point
    end: Point
    start_kind: EndKind
    end_kind: EndKind
    blocker: str | None
    start_name: str = ""
    end_name: str = ""
    meeting: HexMeeting | None = field(default=None, compare=False)

    @property
    def clear(self) -> bool:
        """True when nothing blocks this line."""
        return self.blocker is None

    def describe(self) -> str:
        """``the centre of (0,0) to the centre of (2,0)``."""
        return f"{self.start_name or fmt_point(self.start)} to {self.end_name or fmt_point(self.end)}"

    def line(self) -> HexLine:
        """The line as the facade's :class:`~game.core.sight_result.LineCheck` (exact points and
        its meeting point)."""
        start = (Fraction(self.start[0]), Fraction(self.start[1]))
        end = (Fraction(self.end[0]), Fraction(self.end[1]))
        return HexLine(start, end, self.start_kind, self.end_kind, self.blocker, met=self.meeting)

    def as_json(self) -> dict[str, object]:
        """``{"from", "to", "from_kind", "to_kind", "clear", "blocker"}`` (lattice points as text),
        the facade's line JSON."""
        return self.line().as_json()


@dataclass(frozen=True)
class HexSightResult:
    """The verdict of one hex rule for one pair of cells and the line(s) that decided it: the
    clear line found, or the blocked candidates (up to 16 kept, ``checked`` counts them all)."""

    origin: Cell
    target: Cell
    viewer: str | None
    profile: HexProfile
    clear: bool
    deciding: tuple[HexLineCheck, ...]
    checked: int

    def explain(self) -> str:
        """One sentence: the rule, the verdict and the line(s) that decided it."""
        rule = self.profile.spec()
        if self.origin == self.target:
            return f"Clear under {rule}: {fmt_point(self.origin)} is the same hex."
        if self.clear:
            return f"Clear under {rule}: the line from {self.deciding[0].describe()} is clear."
        if self.checked == 1:
            line = self.deciding[0]
            return f"Blocked under {rule}: the line from {line.describe()} {line.blocker}."
        shown = self.deciding if self.checked <= 16 else self.deciding[:4]
        parts = "; ".join(f"{line.describe()} {line.blocker}" for line in shown)
        more = self.checked - len(shown)
        tail = f"; and {more} more line{'s' if more != 1 else ''} blocked" if more > 0 else ""
        return f"Blocked under {rule}: every permitted line is blocked ({self.checked} checked): {parts}{tail}."

    def as_json(self) -> dict[str, object]:
        """``{"clear", "from", "to", "viewer", "lines", "checked", "grid", "rule", "explanation"}``."""
        return {
            "clear": self.clear,
            "from": list(self.origin),
            "to": list(self.target),
            "viewer": self.viewer,
            "lines": [line.as_json() for line in self.deciding],
            "checked": self.checked,
            "grid": "hex",
            "rule": self.profile.as_json(),
            "explanation": self.explain(),
        }


def candidate_points(grid: HexGrid, cell: Cell, kind: str) -> list[tuple[Point, EndKind]]:
    """The points of a cell a line may start or end at (``from`` / ``to``): its centre, or its six
    corners in order."""
    if kind == "centre":
        return [(grid.centre(cell), "centre")]
    return [(c, "corner") for c in grid.corners(cell)]


def decide(
    grid: HexGrid, a: Cell, b: Cell, viewer: str | None, profile: HexProfile,
    blocker: Callable[[Point, Point], str | None],
) -> HexSightResult:
    """Try the rule's candidate lines from A to B in order with ``blocker`` (what blocks the
    segment from p to q, or None): the first clear line, or the blocked ones (up to 16 kept) and how
    many were checked. A sees A."""
    if a == b:
        return HexSightResult(a, b, viewer, profile, True, (), 0)
    blocked: list[HexLineCheck] = []
    count = 0
    for p, pk in candidate_points(grid, a, profile.from_):
        for q, qk in candidate_points(grid, b, profile.to):
            count += 1
            why = blocker(p, q)
            line = HexLineCheck(p, q, pk, qk, why, point_name(grid, a, p), point_name(grid, b, q))
            if why is None:
                return HexSightResult(a, b, viewer, profile, True, (line,), count)
            if len(blocked) < 16:
                blocked.append(line)
    return HexSightResult(a, b, viewer, profile, False, tuple(blocked), count)
