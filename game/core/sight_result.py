"""The one answer of the sight engine: :class:`Sight`, for every rule, and its parts.

Pure: no pygame, no files. Every rule's line of sight between two squares comes back as a
:class:`Sight` (from :mod:`game.core.sight`, the facade): the verdict (``clear``), the rule, what
blocks (``first_blocker``, ``blockers``: :class:`Crossing` s), the line(s) that decided
(``lines``: :class:`LineCheck` s, exact points), every crossing of the centre line for the rules
decided by it (``crossings``), the cover where the rule grades it, points for drawing as floats
(``segments()``, ``drawing()``, ``block_t``), and the words (``explain()``, built when first
read; ``as_json()``).

A :class:`Sight` is cheap to make: the engine that answers hands it a *source*
(:class:`SightSource`) that computes the exact parts — Fractions, sentences — only when they are
read. The hover path reads ``clear``, ``drawing()`` and ``block_t`` from integers alone.

Verdicts are exact (integers and Fractions); floats appear only in the drawing points.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, Protocol

from game.core.board import Corner, Edge, Square, fmt_square

if TYPE_CHECKING:
    from game.core.profiles import Profile

__all__ = [
    "CoverResult",
    "Crossing",
    "CrossingKind",
    "DrawStep",
    "EndKind",
    "LineCheck",
    "Point",
    "Segment",
    "Side",
    "Sight",
    "SightSource",
    "fmt_point",
]

#: an exact point of the plane, in square units (square ``(x, y)`` is ``[x, x+1] × [y, y+1]``)
Point = tuple[Fraction, Fraction]
EndKind = Literal["centre", "corner", "interior"]
CrossingKind = Literal["edge", "corner", "square"]
#: what the painter draws for one crossing or blocker: kind, the edge / corner / square, the
#: point (floats, drawing only), whether it blocks, and the closed corner sides
DrawStep = tuple[CrossingKind, "Edge | Corner | Square", tuple[float, float], bool, tuple[Square, ...]]
#: one line for drawing: start, end (floats, square units) and whether it is clear
Segment = tuple[tuple[float, float], tuple[float, float], bool]


def fmt_point(p: Point) -> str:
    """An exact point as people write it: ``(1,0)``, ``(9/10,1/2)``.

    >>> fmt_point((Fraction(1), Fraction(3, 2)))
    '(1,3/2)'
    """
    return f"({p[0]},{p[1]})"


@dataclass(frozen=True)
class Side:
    """One side of a grid corner the ray passes through: a square and the two edges (arms) of that
    square that meet at the corner.

    ``closed`` when the square blocks sight or either arm is a wall or closed/locked door; ``why``
    lists the reasons (empty when open).
    """

    name: str
    square: Square
    arms: tuple[Edge, Edge]
    closed: bool
    why: str

    def as_json(self) -> dict[str, object]:
        """``{"name", "square", "arms", "closed", "why"}``."""
        return {
            "name": self.name,
            "square": list(self.square),
            "arms": [str(arm) for arm in self.arms],
            "closed": self.closed,
            "why": self.why,
        }


@dataclass(frozen=True)
class Crossing:
    """One thing a line meets: an edge, a grid corner, or a square.

    Along the centre line of the rules decided by it, every crossing in order (``between`` holds
    the squares before and after an edge or a corner, ``sides`` a corner's two sides); for the
    other rules, the thing that blocks each blocked line (``line`` names that line, ``reason``
    what blocks it there). ``t`` is the line parameter (0 at its start, 1 at its end) where it meets the
    thing (for a square: where it enters it) and ``point`` the exact point there. ``reason`` says
    what the thing is when it matters (``"wall V(2,2)"``, ``"blocked terrain"``, ...).
    """

    kind: CrossingKind
    t: Fraction
    point: tuple[Fraction, Fraction]
    blocks: bool
    reason: str = ""
    edge: Edge | None = None
    corner: Corner | None = None
    square: Square | None = None
    between: tuple[Square, Square] | None = None
    sides: tuple[Side, Side] | None = None
    line: str = ""

    @property
    def where(self) -> Edge | Corner | Square:
        """The edge, corner or square met."""
        found = self.edge if self.kind == "edge" else self.corner if self.kind == "corner" else self.square
        assert found is not None
        return found

    def explain(self) -> str:
        """One sentence about this step (the lesson mode shows it crossing by crossing).

        >>> c = Crossing("edge", Fraction(1, 2), (Fraction(1), Fraction(1, 2)), True, "wall V(1,0)",
        ...              edge=Edge("V", 1, 0), between=((0, 0), (1, 0)))
        >>> c.explain()
        'Blocked: wall V(1,0) between (0,0) and (1,0).'
        """
        if self.line:  # what blocks a line of a rule that is not decided by the centre line
            return f"Blocked: {self.line} {self.reason}."
        if self.kind == "edge":
            assert self.between is not None
            a, b = (fmt_square(sq) for sq in self.between)
            if self.blocks:
                return f"Blocked: {self.reason} between {a} and {b}."
            if self.reason:
                return f"Crosses the {self.reason} between {a} and {b}."
            return f"Crosses the open edge {self.edge} between {a} and {b}."
        if self.kind == "square":
            return self._square_words()
        return self._corner_words()

    def _square_words(self) -> str:
        assert self.square is not None
        where = fmt_square(self.square)
        if not self.blocks:
            return f"Passes through square {where}, which does not block."
        if self.reason in ("off the board", "blocked terrain"):
            return f"Blocked: square {where} is {self.reason}."
        return f"Blocked: square {where} holds {self.reason}."

    def _corner_words(self) -> str:
        assert self.corner is not None and self.between is not None and self.sides is not None
        where = f"the corner {fmt_square(self.corner)}"
        a, b = (fmt_square(sq) for sq in self.between)
        closed = [side for side in self.sides if side.closed]
        if self.blocks:
            detail = ", ".join(f"{side.why} on the {side.name} side" for side in self.sides)
            return f"Blocked at {where} between {a} and {b}: {detail}."
        if closed:
            side = closed[0]
            return (
                f"Skims {where} between {a} and {b}: only the {side.name} side is closed "
                f"({side.why}), so it does not block."
            )
        return f"Passes through {where} between {a} and {b}; both sides are open."

    def drawing(self) -> DrawStep:
        """This crossing as a :data:`DrawStep` (its point as floats, for drawing only)."""
        closed = tuple(side.square for side in self.sides or () if side.closed)
        return (self.kind, self.where, (float(self.point[0]), float(self.point[1])), self.blocks, closed)

    def as_json(self) -> dict[str, object]:
        """The crossing as a JSON object (see docs/line-of-sight.md): points as exact text.

        >>> c = Crossing("square", Fraction(1, 2), (Fraction(1), Fraction(1, 2)), False, square=(1, 0))
        >>> c.as_json()["point"]
        ['1', '1/2']
        """
        out: dict[str, object] = {
            "kind": self.kind,
            "t": str(self.t),
            "point": [str(self.point[0]), str(self.point[1])],
            "blocks": self.blocks,
            "reason": self.reason,
        }
        if self.edge is not None:
            out["edge"] = str(self.edge)
        if self.corner is not None:
            out["corner"] = list(self.corner)
        if self.square is not None:
            out["square"] = list(self.square)
        if self.between is not None:
            out["between"] = [list(sq) for sq in self.between]
        if self.sides is not None:
            out["sides"] = [side.as_json() for side in self.sides]
        if self.line:
            out["line"] = self.line
        out["explanation"] = self.explain()
        return out


#: where a line is blocked: the kind of thing and the edge, grid corner or square
Meeting = tuple[CrossingKind, "Edge | Corner | Square"]


@dataclass(frozen=True)
class LineCheck:
    """One candidate line and its verdict: ``blocker`` is None when clear, else what blocks it in
    words, and ``blocked_at`` where (the kind of thing and which)."""

    start: Point
    end: Point
    start_kind: EndKind
    end_kind: EndKind
    blocker: str | None
    blocked_at: Meeting | None = None

    @property
    def clear(self) -> bool:
        """True when nothing blocks this line."""
        return self.blocker is None

    def describe(self) -> str:
        """``corner (1,0) to corner (3,2)``."""
        words = {"centre": "the centre", "corner": "corner", "interior": "point"}
        return f"{words[self.start_kind]} {fmt_point(self.start)} to {words[self.end_kind]} {fmt_point(self.end)}"

    def segment(self) -> Segment:
        """The line for drawing: floats."""
        return (float(self.start[0]), float(self.start[1])), (float(self.end[0]), float(self.end[1])), self.clear

    def meeting(self) -> Crossing | None:
        """What blocks this line as a :class:`Crossing` (its exact point: where the line first
        touches the blocking edge, corner or square), None when clear."""
        if self.blocker is None or self.blocked_at is None:
            return None
        kind, where = self.blocked_at
        t = _first_touch(self.start, self.end, kind, where)
        point = (self.start[0] + t * (self.end[0] - self.start[0]), self.start[1] + t * (self.end[1] - self.start[1]))
        line = self.describe()
        if kind == "edge":
            assert isinstance(where, Edge)
            return Crossing(kind, t, point, True, self.blocker, edge=where, line=line)
        assert not isinstance(where, Edge)
        if kind == "corner":
            return Crossing(kind, t, point, True, self.blocker, corner=where, line=line)
        return Crossing(kind, t, point, True, self.blocker, square=where, line=line)

    def as_json(self) -> dict[str, object]:
        """``{"from", "to", "from_kind", "to_kind", "clear", "blocker"}`` (points as text)."""
        return {
            "from": [str(self.start[0]), str(self.start[1])],
            "to": [str(self.end[0]), str(self.end[1])],
            "from_kind": self.start_kind,
            "to_kind": self.end_kind,
            "clear": self.clear,
            "blocker": self.blocker,
        }


def _first_touch(p: Point, q: Point, kind: CrossingKind, where: Edge | Corner | Square) -> Fraction:
    """The smallest ``t`` in [0, 1] where the segment ``p + t (q - p)`` meets the closed edge,
    corner point or square ``where`` (0 when it never does: a blocker the rule names at an end)."""
    if isinstance(where, Edge):
        (x0, y0), (x1, y1) = where.ends()
        box = ((Fraction(x0), Fraction(x1)), (Fraction(y0), Fraction(y1)))
    else:
        x, y = where
        size = 0 if kind == "corner" else 1  # a grid point, or a closed square
        box = ((Fraction(x), Fraction(x + size)), (Fraction(y), Fraction(y + size)))
    lo, hi = Fraction(0), Fraction(1)
    for axis in (0, 1):
        start, step = p[axis], q[axis] - p[axis]
        low, high = box[axis]
        if step == 0:
            if not low <= start <= high:
                return Fraction(0)
            continue
        t1, t2 = sorted(((low - start) / step, (high - start) / step))
        lo, hi = max(lo, t1), min(hi, t2)
    return lo if lo <= hi else Fraction(0)


@dataclass(frozen=True)
class CoverResult:
    """The cover of B from A: ``grade`` (``none``, ``half``, ``three-quarters``, ``total``, ``cover``,
    ``lesser``, ``standard``), the system, the chosen corner of A and its lines, and why."""

    system: str
    grade: str
    corner: Point | None
    lines: tuple[LineCheck, ...]
    why: str

    def as_json(self) -> dict[str, object]:
        """``{"system", "grade", "corner", "lines", "why"}``."""
        return {
            "system": self.system,
            "grade": self.grade,
            "corner": None if self.corner is None else [str(self.corner[0]), str(self.corner[1])],
            "lines": [line.as_json() for line in self.lines],
            "why": self.why,
        }


class SightSource(Protocol):
    """What an engine hands a :class:`Sight`: the exact parts, computed when first asked for."""

    @property
    def checked(self) -> int:
        """How many candidate lines were checked to reach the verdict."""
        ...

    def lines(self) -> tuple[LineCheck, ...]:
        """The deciding lines: the clear line found, or the blocked candidates (up to 16)."""
        ...

    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing of the centre line, for the rules decided by it; else ``()``."""
        ...

    def blockers(self) -> tuple[Crossing, ...]:
        """What blocks, in order: the blocking crossings, or each blocked line's blocker."""
        ...

    def drawing(self) -> list[DrawStep]:
        """The crossings (or blockers) as drawing steps, floats."""
        ...

    def block_t(self) -> float | None:
        """Where the first blocker is along the centre line (0..1, a float), None when clear or
        when the rule is not decided by the centre line."""
        ...

    def explain(self) -> str:
        """The verdict in one sentence (without the cover's)."""
        ...

    def summary(self) -> str:
        """The verdict in a short sentence: :meth:`explain`, or its first deciding line only."""
        ...

    def as_json(self) -> dict[str, object]:
        """The engine's JSON of the verdict (without ``rule``, ``cover`` and ``explanation``)."""
        ...

    def fingerprint(self) -> tuple[object, ...]:
        """The reasons of the verdict, exactly, from what the source already holds: for a centre
        line every crossing's ``(kind, where, blocks, closed sides, t)``, for the others the
        deciding lines (two sources of one rule agree on it when they agree on the reasons)."""
        ...


class Sight:
    """Line of sight from ``origin`` to ``target`` for ``viewer`` under ``rule``: the one answer
    every rule gives (see the module docstring). Read-only; the exact parts are built on first
    read (a source made on a board that has changed since refuses to build them).

    ``viewer`` is the side whose enemies block (None: every figure counts). The verdict is about
    squares; that a figure never targets itself (rules L29) is the rules layer's business.
    """

    __slots__ = ("origin", "target", "viewer", "rule", "clear", "cover", "_source", "_text")

    def __init__(
        self, origin: Square, target: Square, viewer: str | None, rule: Profile, clear: bool,
        source: SightSource, cover: CoverResult | None = None,
    ) -> None:
        self.origin = origin
        self.target = target
        self.viewer = viewer
        self.rule = rule
        self.clear = clear
        self.cover = cover
        self._source = source
        self._text: str | None = None

    def with_cover(self, cover: CoverResult | None) -> Sight:
        """The same answer with ``cover`` (the facade grades it once the verdict is known)."""
        return Sight(self.origin, self.target, self.viewer, self.rule, self.clear, self._source, cover)

    def _key(self) -> tuple[object, ...]:
        return (self.origin, self.target, self.viewer, self.rule, self.clear, self.cover)

    def __eq__(self, other: object) -> bool:
        """The same question answered the same way for the same reasons: origin, target, viewer,
        rule, verdict, cover and the source's :meth:`SightSource.fingerprint` (what the centre
        line meets, or the deciding lines)."""
        if not isinstance(other, Sight):
            return NotImplemented
        return self._key() == other._key() and self._source.fingerprint() == other._source.fingerprint()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        state = "clear" if self.clear else "blocked"
        return f"Sight({self.origin} -> {self.target}, viewer={self.viewer!r}, rule={self.rule.spec()!r}, {state})"

    @property
    def checked(self) -> int:
        """How many candidate lines were checked (1 for a centre-line rule)."""
        return self._source.checked

    @property
    def lines(self) -> tuple[LineCheck, ...]:
        """The deciding lines: the clear line found, or the blocked candidates (up to 16); for a
        centre-line rule the centre line."""
        return self._source.lines()

    @property
    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing of the centre line in order, for the rules it decides (``()`` for the
        others, whose lines are :attr:`lines`)."""
        return self._source.crossings()

    @property
    def blockers(self) -> tuple[Crossing, ...]:
        """What blocks, in order along the line (centre-line rules) or line by line (others)."""
        return self._source.blockers()

    @property
    def first_blocker(self) -> Crossing | None:
        """The first thing that blocks, or None when clear."""
        if self.clear:
            return None
        found = self._source.blockers()
        return found[0] if found else None

    @property
    def block_t(self) -> float | None:
        """Where the first blocker is along the centre line (a float for drawing), None when
        clear or when the rule is not decided by the centre line."""
        return self._source.block_t()

    def drawing(self) -> list[DrawStep]:
        """Every crossing of the centre line (or every blocked line's blocker) as a
        :data:`DrawStep`: what the window marks (crossed edges, corners touched, blocking squares)."""
        return self._source.drawing()

    def segments(self) -> list[Segment]:
        """The deciding lines for drawing (floats): the centre line, or the rule's lines."""
        return [line.segment() for line in self._source.lines()]

    def explain(self) -> str:
        """One sentence: the verdict and why (and the cover, when the rule grades it)."""
        if self._text is None:
            text = self._source.explain()
            if self.cover is not None:
                text += f" Cover ({self.cover.system}): {self.cover.grade} — {self.cover.why}."
            self._text = text
        return self._text

    def summary(self) -> str:
        """The verdict in a short sentence (the rules' reasons quote it): :meth:`explain` for a
        centre-line rule, the first deciding line only for the others (no cover)."""
        return self._source.summary()

    def as_json(self, *, with_rule: bool = False) -> dict[str, object]:
        """The verdict as JSON (docs/line-of-sight.md): a centre-line rule's ``{"clear",
        "blockers", "crossings", "from", "to", "viewer", "explanation"}`` (plus ``"rule"`` when
        ``with_rule``: the command line or the map named it), the others' ``{"clear", "from",
        "to", "viewer", "lines", "checked", "rule", "explanation"}``; ``"cover"`` with cover."""
        out = self._source.as_json()
        if with_rule or "lines" in out or self.cover is not None:
            out["rule"] = self.rule.as_json()
        if self.cover is not None:
            out["cover"] = self.cover.as_json()
        out["explanation"] = self.explain()
        return out
