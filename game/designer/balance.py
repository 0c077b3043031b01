"""Is this map fair? The balance numbers of a scenario's deployment zones (pure).

Every measure is defined in docs/balance.md; in short, for two sides S and T with zones Z(S),
Z(T) (:mod:`game.designer.zones`), on the board's geometry (figures taken off: they deploy;
doors as drawn), under each line-of-sight rule:

* **exposure** of S on T: the share of Z(T)'s squares some square of Z(S) sees (and the mean
  share one square of Z(S) sees);
* **vantage squares**: squares outside both zones that see into both;
* **first strike** of S: the earliest turn a figure of S, deployed anywhere in Z(S) and moving
  its move each turn (turn 1: its first move), can stand where one of its attacks reaches a
  square of Z(T) (:class:`~game.designer.threats.Reach`; a side without figures: Close or line
  of sight at any range, with the given move and range), with the path and the square attacked;
* **safe squares** of S: squares no square of Z(T) sees; and those no square T can reach within
  ``turns`` turns sees (nor reaches);
* **choke points** (rule-free): the squares on the largest share of shortest paths between the
  zones;
* **expected damage per turn** (rule-free): each figure of S attacking once, at Close and at a
  few ranges, averaged over T's figures, from the exact odds;
* **symmetry**: when a reflection or rotation swaps the zones, the pairs of squares (one in a
  zone) whose sight it does not preserve, and the geometry that breaks it.

On a hex map every measure is the same, cell by cell: steps, Close and ranges are the grid's
(hex steps, the six neighbours), the rules the hex presets, the symmetries those of the hex
lattice that the map's stagger keeps (:mod:`game.designer.zones`).

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["......", "......", "......"], walls=["V(3,0)"])
>>> board.place_figure(Figure(1, "A", "red", (0, 0), {"attacks": "Bow:ranged:2", "life": 3}))
>>> board.place_figure(Figure(2, "B", "blue", (5, 0), {"attacks": "Bow:ranged:2", "life": 3}))
>>> report = balance(board, {}, rules=["arcadia"])
>>> numbers = report.rules[0]
>>> [(s.side, s.exposure.share, s.first_strike.turn) for s in numbers.sides]
[('blue', Fraction(0, 1), 1), ('red', Fraction(0, 1), 1)]
>>> numbers.symmetry[0].transform, numbers.symmetry[0].broken
('mirror left-right', 0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from game.core import measure, sight
from game.core.board import Board, Square, fmt_square
from game.core.profiles import Profile
from game.designer.coverage import geometry_board, standable_mask
from game.designer.danger import Distances, close_squares
from game.designer.sightlines import FieldFunction, Sightlines, View
from game.designer.threats import (
    DEFAULT_MOVE,
    Reach,
    ThreatSolver,
    best_chance,
    map_rule,
    move_of,
    path_to,
)
from game.designer.zones import Zone, geometry_breaks, swaps, symmetry_note, zones_from

if TYPE_CHECKING:
    from game.tiled import ObjectInfo

#: the distances the expected damage is given at (1: Close)
DAMAGE_RANGES = (1, 2, 4, 8)
#: how many choke points, vantage squares and broken pairs are listed
LISTED = 10
#: what makes a difference a finding: exposure points, first-strike turns, safe-square ratio
EXPOSURE_GAP, SAFE_RATIO = Fraction(1, 10), Fraction(3, 2)


@dataclass(frozen=True)
class Striker:
    """What a side strikes with: a figure (or "any figure" for a side without figures), its move
    and its attacks with their reaches on the other side's figures (an attack whose reach
    depends on the target is listed once per reach)."""

    name: str
    move: int
    attacks: tuple[tuple[str, Reach], ...]

    @property
    def reaches(self) -> tuple[Reach, ...]:
        """The distinct reaches of its attacks."""
        return tuple(dict.fromkeys(r for _, r in self.attacks))

    def words(self, cell: str = "square") -> str:
        """``Long Bow: Close or sight; Dagger: Close`` (``cell``: the grid's noun)."""
        return "; ".join(f"{name}: {reach.words(cell)}" for name, reach in self.attacks)


@dataclass(frozen=True)
class FirstStrike:
    """The earliest turn ``side`` can attack a square of the other zone (None: never)."""

    turn: int | None
    striker: str = ""
    steps: int = 0
    square: Square | None = None
    target: Square | None = None
    path: tuple[Square, ...] = ()

    def words(self) -> str:
        """``turn 2: Ember, 6 steps to (5,4), attacks (9,4)`` or ``never``."""
        if self.turn is None or self.square is None or self.target is None:
            return "never"
        return (f"turn {self.turn}: {self.striker}, {self.steps} step{'s' if self.steps != 1 else ''} to "
                f"{fmt_square(self.square)}, attacks {fmt_square(self.target)}")

    def as_json(self) -> dict[str, object]:
        """``{"turn", "striker", "steps", "square", "target", "path"}``."""
        return {"turn": self.turn, "striker": self.striker, "steps": self.steps,
                "square": None if self.square is None else list(self.square),
                "target": None if self.target is None else list(self.target),
                "path": [list(sq) for sq in self.path]}


@dataclass(frozen=True)
class Exposure:
    """How much of the other zone a side's zone sees: ``seen`` of ``size`` squares, and the mean
    share one square of the zone sees."""

    seen: int
    size: int
    mean: Fraction

    @property
    def share(self) -> Fraction:
        """``seen / size``."""
        return Fraction(self.seen, self.size) if self.size else Fraction(0)

    def as_json(self) -> dict[str, object]:
        """``{"seen", "size", "share", "mean"}`` (shares as floats)."""
        return {"seen": self.seen, "size": self.size, "share": float(self.share), "mean": float(self.mean)}


@dataclass(frozen=True)
class SideNumbers:
    """One side's numbers against one other side under one rule (masks are bool ``[y, x]``)."""

    side: str
    other: str
    exposure: Exposure
    first_strike: FirstStrike
    seen: np.ndarray = field(repr=False)
    safe: np.ndarray = field(repr=False)
    #: None under every rule but the first (see docs/balance.md: it costs a field per square reached)
    safe_turns: np.ndarray | None = field(repr=False)
    #: int ``[y, x]``: on the side's own zone squares, how many squares of the other zone see each
    watched: np.ndarray = field(repr=False)

    def as_json(self) -> dict[str, object]:
        """The side's numbers, safe squares as lists of ``[x, y]``."""
        return {"side": self.side, "other": self.other, "exposure": self.exposure.as_json(),
                "first_strike": self.first_strike.as_json(),
                "safe": {"count": int(self.safe.sum()), "squares": _squares(self.safe)},
                "safe_turns": None if self.safe_turns is None else
                {"count": int(self.safe_turns.sum()), "squares": _squares(self.safe_turns)}}


@dataclass(frozen=True)
class SymmetryCheck:
    """A reflection or rotation that swaps the zones, and what breaks it under one rule:
    ``broken`` ordered pairs (p, q), p in a zone, where p sees q but its image does not see
    q's image or the other way round; ``examples`` of them; ``per_square`` how many broken pairs
    each square takes part in; ``geometry`` the walls, doors, squares it does not map."""

    transform: str
    broken: int
    examples: tuple[tuple[Square, Square, bool], ...]
    per_square: np.ndarray = field(repr=False)
    geometry: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        """``{"transform", "broken", "examples": [{"from", "to", "sees"}], "geometry"}``."""
        return {"transform": self.transform, "broken": self.broken,
                "examples": [{"from": list(p), "to": list(q), "sees": s} for p, q, s in self.examples],
                "geometry": list(self.geometry)}


@dataclass(frozen=True)
class RuleNumbers:
    """Every rule-dependent number under one line-of-sight rule."""

    rule: Profile
    sides: tuple[SideNumbers, ...]
    vantage: np.ndarray = field(repr=False)
    symmetry: tuple[SymmetryCheck, ...] = ()
    #: int ``[y, x]``: how many squares of the two zones see each square
    zone_eyes: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), dtype=np.int64))

    def side(self, name: str) -> SideNumbers:
        """The numbers of side ``name`` (against the first other side)."""
        return next(s for s in self.sides if s.side == name)

    def as_json(self) -> dict[str, object]:
        """The rule's numbers."""
        return {"rule": self.rule.spec(), "sides": [s.as_json() for s in self.sides],
                "vantage": {"count": int(self.vantage.sum()), "squares": _squares(self.vantage)},
                "symmetry": [s.as_json() for s in self.symmetry]}


@dataclass(frozen=True)
class Balance:
    """The balance report's numbers (see the module's docstring)."""

    zones: tuple[Zone, ...]
    standable: np.ndarray
    rules: tuple[RuleNumbers, ...]
    chokes: np.ndarray
    damage: Mapping[str, Mapping[int, float]]
    damage_unit: str
    turns: int
    findings: tuple[str, ...]
    strikers: Mapping[str, tuple[Striker, ...]]
    #: why there is no symmetry to check, when no reflection or rotation swaps the first two
    #: zones (on a hex map: which symmetries its stagger leaves), else ""
    symmetry_note: str = ""
    #: what a cell is called in the report's words: ``squares``, or ``hexes`` on a hex map
    cells: str = "squares"

    def choke_points(self, n: int = LISTED) -> list[tuple[Square, float]]:
        """The ``n`` squares on the largest share of shortest paths between the zones."""
        return _top(self.chokes, n)

    def as_json(self) -> dict[str, object]:
        """The whole report as one JSON document (see docs/balance.md)."""
        return {
            "zones": [z.as_json() for z in self.zones],
            "turns": self.turns,
            "rules": [r.as_json() for r in self.rules],
            "choke_points": [{"square": list(sq), "share": round(v, 6)} for sq, v in self.choke_points()],
            "damage": {"unit": self.damage_unit, "ranges": list(DAMAGE_RANGES),
                       "per_side": {side: {str(d): round(v, 6) for d, v in by.items()}
                                    for side, by in self.damage.items()}},
            "strikers": {side: [{"name": s.name, "move": s.move,
                                 "attacks": [{"attack": a, "reach": r.as_json()} for a, r in s.attacks]}
                                for s in found] for side, found in self.strikers.items()},
            "findings": list(self.findings),
            "symmetry_note": self.symmetry_note,
        }


def _squares(mask: np.ndarray) -> list[list[int]]:
    ys, xs = np.nonzero(mask)
    return [[int(x), int(y)] for y, x in zip(ys, xs, strict=True)]


def _top(values: np.ndarray, n: int) -> list[tuple[Square, float]]:
    ys, xs = np.nonzero(values > 0)
    rows = sorted(((float(values[y, x]), int(y), int(x)) for y, x in zip(ys, xs, strict=True)),
                  key=lambda r: (-r[0], r[1], r[2]))
    return [((x, y), v) for v, y, x in rows[:n]]


def rules_for(board: Board, names: Sequence[str] | None = None) -> list[Profile]:
    """The rules to report under: ``names`` (rule specs), else the map's own rule first, then
    every preset."""
    kind = board.grid.kind
    if names:
        return [sight.parse_rule(name, kind) for name in names]
    own = map_rule(board)
    presets = sight.RULE_BOOKS[kind].presets.values()
    return [own] + [p for p in presets if p.values() != own.values()]


# --- who strikes -----------------------------------------------------------------------------


def strikers(solver: ThreatSolver, board: Board, side: str, other: str, move: int | None,
             reach: int | None) -> tuple[Striker, ...]:
    """The side's strikers against ``other`` (see :class:`Striker`): each usable figure with its
    move and the reaches of its usable attacks on any of ``other``'s figures; a side without
    figures strikes as "any figure": ``move`` (default 4), Close or sight within ``reach``."""
    figures = [f for f in board.figures.values() if f.side == side]
    targets = [f for f in board.figures.values() if f.side == other]
    out = []
    for f in figures:
        found = dict.fromkeys((o.name, solver.reach(board, f, g, o.name))
                              for o in solver.usable(board, f.id) for g in targets)
        attacks = tuple(item for item in found if item[1].reaches)
        if attacks:
            out.append(Striker(f.label, move_of(f, move), attacks))
    if not figures:
        out.append(Striker("any figure", move if move is not None else DEFAULT_MOVE,
                           (("any attack", Reach(same=True, close=True, sight=True, far=reach)),)))
    return tuple(out)


# --- the rule-dependent numbers -----------------------------------------------------------------


@dataclass(frozen=True)
class _Ground:
    """The bare board the numbers are worked out on: its standable squares and, for the zones'
    squares, the squares Close to each (worked out once for every rule)."""

    bare: Board
    standable: np.ndarray
    close: Mapping[Square, list[Square]]
    distances: Distances


def _strike_squares(ground: _Ground, view: View, targets: Zone, reach: Reach) -> np.ndarray:
    """Bool ``[y, x]``: the squares from which ``reach`` allows an attack on some square of
    ``targets`` (direction: from the square to the target)."""
    standable = ground.standable
    out = np.zeros(standable.shape, dtype=bool)
    if reach.anywhere:
        return standable.copy()
    for b in targets.squares:
        if reach.same:
            out[b[1], b[0]] = True
        close = ground.close[b]
        if reach.close:
            for x, y in close:
                out[y, x] = True
        if reach.sight:
            d = ground.distances.distance(b, reach.diagonal)
            within = d >= reach.near if reach.far is None else (d >= reach.near) & (d <= reach.far)
            sees = view.row(b) if view.symmetric else view.seeing([b], standable & within)
            part = sees & within
            for x, y in close:
                part[y, x] = False
            part[b[1], b[0]] = False
            out |= part
    return out & standable


def first_strike(ground: _Ground, view: View, steps: Mapping[Square, int], targets: Zone,
                 side_strikers: Sequence[Striker]) -> FirstStrike:
    """The side's first strike on ``targets`` (see the module), ``steps`` being the fewest steps
    from its zone to every square."""
    bare = ground.bare
    best: tuple[int, int, int, int, str, Square, Reach] | None = None
    for striker in side_strikers:
        for reach in striker.reaches:
            mask = _strike_squares(ground, view, targets, reach)
            for y, x in zip(*np.nonzero(mask), strict=True):
                n = steps.get((int(x), int(y)))
                if n is None:
                    continue
                turn = max(1, math.ceil(n / striker.move)) if striker.move > 0 else (1 if n == 0 else None)
                if turn is None:
                    continue
                key = (turn, n, int(y), int(x), striker.name, (int(x), int(y)), reach)
                if best is None or key[:4] < best[:4]:
                    best = key
    if best is None:
        return FirstStrike(None)
    turn, n, _, _, name, square, reach = best
    target = next(b for b in sorted(targets.squares, key=lambda s: (bare.grid.distance(s, square), s[1], s[0]))
                  if reach.allows(bare, square, b, sees(view, square, b)))
    return FirstStrike(turn, name, n, square, target, path_to(bare, steps, square, None, None))


def sees(view: View, a: Square, b: Square) -> bool:
    """Whether ``a`` sees ``b`` (read from ``b``'s field when the rule is symmetric)."""
    if view.symmetric:
        return bool(view.row(b)[a[1], a[0]])
    return bool(view.row(a)[b[1], b[0]])


def _side_numbers(ground: _Ground, view: View, zone: Zone, other: Zone, steps: Mapping[Square, int],
                  enemy_reach: Mapping[Square, int] | None, side_strikers: Sequence[Striker]) -> SideNumbers:
    """One side's numbers under one rule (safe for N turns only when ``enemy_reach`` is given)."""
    bare, standable = ground.bare, ground.standable
    other_mask = other.mask(bare)
    seen = view.seen_from_any(zone.squares) & other_mask
    total = sum((Fraction(int((view.row(sq) & other_mask).sum()), len(other.squares)) for sq in zone.squares),
                Fraction(0))
    exposure = Exposure(int(seen.sum()), len(other.squares), total / len(zone.squares))
    eyes = np.zeros(standable.shape, dtype=np.int64)
    for sq in other.squares:
        eyes += view.row(sq)
    safe = standable & ~other_mask & (eyes == 0)
    safe_turns = None
    if enemy_reach is not None:
        near = np.zeros_like(standable)
        for x, y in enemy_reach:
            near[y, x] = True
        safe_turns = standable & ~near & ~view.seen_from_any(enemy_reach)
    strike = first_strike(ground, view, steps, other, side_strikers)
    return SideNumbers(zone.side, other.side, exposure, strike, seen, safe, safe_turns, eyes * zone.mask(bare))


def symmetry_checks(bare: Board, view: View, first: Zone, second: Zone, standable: np.ndarray) -> tuple[SymmetryCheck, ...]:
    """For each symmetry that swaps the two zones, the pairs whose sight it breaks (see
    :class:`SymmetryCheck`)."""
    out = []
    h, w = standable.shape
    for symmetry in swaps(bare, first, second):
        tx = np.zeros((h, w), dtype=np.int64)
        ty = np.zeros((h, w), dtype=np.int64)
        for y in range(h):
            for x in range(w):
                tx[y, x], ty[y, x] = symmetry.apply((x, y))
        inside = (tx >= 0) & (tx < w) & (ty >= 0) & (ty < h)  # a void cell's image may leave the map
        tx, ty = np.where(inside, tx, 0), np.where(inside, ty, 0)
        mapped_standable = standable[ty, tx] & inside
        per_square = np.zeros((h, w), dtype=np.int64)
        examples: list[tuple[Square, Square, bool]] = []
        broken = 0
        for p in sorted(first.squares | second.squares, key=lambda s: (s[1], s[0])):
            image = view.row(symmetry.apply(p))[ty, tx] & mapped_standable
            diff = (view.row(p) & standable) != image
            count = int(diff.sum())
            if not count:
                continue
            broken += count
            per_square += diff
            per_square[p[1], p[0]] += count
            row = view.row(p)
            for y, x in zip(*np.nonzero(diff), strict=True):
                if len(examples) < LISTED:
                    examples.append((p, (int(x), int(y)), bool(row[y, x])))
        out.append(SymmetryCheck(symmetry.name, broken, tuple(examples), per_square,
                                 tuple(geometry_breaks(bare, symmetry))))
    return tuple(out)


# --- the rule-free numbers -----------------------------------------------------------------


def choke_shares(bare: Board, first: Zone, second: Zone) -> np.ndarray:
    """Float ``[y, x]``: for each square, the share of the shortest paths from a square of one
    zone to the other zone that pass through it, averaged over the start squares and over the
    two directions (see docs/balance.md)."""
    out = np.zeros((bare.height, bare.width), dtype=np.float64)
    for start, goal in ((first, second), (second, first)):
        out += _path_share(bare, start, goal)
    return out / 2


def _path_share(bare: Board, start: Zone, goal: Zone) -> np.ndarray:
    """The share of shortest paths from each square of ``start`` to ``goal`` through each square."""
    far = bare.width * bare.height
    dist = measure.reach_many(bare, goal.squares, far)
    order = sorted(dist, key=lambda sq: dist[sq])
    ways: dict[Square, float] = {}
    toward: dict[Square, list[Square]] = {}
    for sq in order:  # ways[sq]: shortest paths from sq to the goal zone
        nexts = [nb for nb in bare.grid.neighbours(sq)
                 if dist.get(nb) == dist[sq] - 1 and measure.can_step(bare, sq, nb, None)]
        toward[sq] = nexts
        ways[sq] = 1.0 if dist[sq] == 0 else sum(ways[nb] for nb in nexts)
    starts = [sq for sq in start.squares if sq in dist]
    weight: dict[Square, float] = {sq: 1.0 / ways[sq] for sq in starts if ways[sq] > 0}
    out = np.zeros((bare.height, bare.width), dtype=np.float64)
    for sq in reversed(order):  # farthest first: a square's weight is final before it is passed on
        w = weight.get(sq)
        if not w:
            continue
        out[sq[1], sq[0]] = w * ways[sq]
        for nb in toward[sq]:
            weight[nb] = weight.get(nb, 0.0) + w
    return out / max(1, len(starts))


def damage_per_turn(solver: ThreatSolver, board: Board, side: str, other: str) -> tuple[dict[int, float], str]:
    """The side's expected damage per turn at each of :data:`DAMAGE_RANGES`: each figure of the
    side attacking once with its best attack legal at that distance, averaged over the other
    side's figures (from the exact odds on probe boards); and the unit counted."""
    from game.designer.danger import probe_chance

    figures = [f for f in board.figures.values() if f.side == side]
    targets = [f for f in board.figures.values() if f.side == other]
    totals = {d: 0.0 for d in DAMAGE_RANGES}
    unit = ""
    for f in figures:
        options = solver.usable(board, f.id)
        for d in DAMAGE_RANGES:
            values = []
            for g in targets:
                fitting = []
                for o in options:
                    reach = solver.reach(board, f, g, o.name)
                    if _reaches_at(reach, d):
                        chance = probe_chance(solver, board, f, g, o, reach)
                        if chance is not None:
                            fitting.append(chance)
                best = best_chance(fitting)
                values.append(float(best.expected) if best is not None else 0.0)
                unit = unit or (best.unit if best is not None else "")
            totals[d] += sum(values) / len(values) if values else 0.0
    return totals, unit


def _reaches_at(reach: Reach, d: int) -> bool:
    """Whether ``reach`` allows an attack on a target ``d`` away in the open (1: Close)."""
    if reach.anywhere:
        return True
    if d == 1 and reach.close:
        return True
    return reach.sight and reach.near <= d and (reach.far is None or d <= reach.far)


# --- the report ------------------------------------------------------------------------------


def balance(board: Board, objects: Mapping[int, ObjectInfo], *, rules: Sequence[str] | None = None,
            move: int | None = None, reach: int | None = None, turns: int = 1,
            field: FieldFunction | None = None) -> Balance:
    """The balance numbers of ``board`` (its zones from ``objects``, see :mod:`game.designer.zones`)
    under each of ``rules`` (default: the map's rule, then every preset). ``move`` / ``reach``
    override every figure's move / give a side without figures its range; ``turns`` is the
    horizon of the safe squares."""
    zones = zones_from(board, objects)
    bare = geometry_board(board)
    standable = standable_mask(bare)
    solver = ThreatSolver(field)
    far = board.width * board.height
    steps = {z.side: measure.reach_many(bare, z.squares, far) for z in zones}
    pairs = [(z, o) for z in zones for o in zones if o is not z]
    hit = {(z.side, o.side): strikers(solver, board, z.side, o.side, move, reach) for z, o in pairs}
    horizon = {}
    for z, o in pairs:  # what the other side reaches within the turns
        longest = max((s.move for s in hit[(o.side, z.side)]), default=DEFAULT_MOVE)
        horizon[(z.side, o.side)] = measure.reach_many(bare, o.squares, longest * turns)
    lines = Sightlines(field)
    ground = _Ground(bare, standable, {sq: close_squares(bare, sq) for z in zones for sq in z.squares},
                     Distances(bare))
    numbers = []
    for n, rule in enumerate(rules_for(board, rules)):
        view = lines.view(bare, rule, None)
        sides = tuple(_side_numbers(ground, view, z, o, steps[z.side], horizon[(z.side, o.side)] if n == 0 else None,
                                    hit[(z.side, o.side)]) for z, o in pairs)
        first, second = zones[0], zones[1]
        vantage = (standable & ~first.mask(bare) & ~second.mask(bare)
                   & view.seeing(first.squares, standable) & view.seeing(second.squares, standable))
        eyes = np.zeros(standable.shape, dtype=np.int64)
        for sq in first.squares | second.squares:
            eyes += view.row(sq)
        numbers.append(RuleNumbers(rule, sides, vantage, symmetry_checks(bare, view, first, second, standable),
                                   eyes))
    chokes = choke_shares(bare, zones[0], zones[1])
    damage: dict[str, dict[int, float]] = {}
    unit = ""
    for z, o in pairs:
        if z.side not in damage:
            damage[z.side], found = damage_per_turn(solver, board, z.side, o.side)
            unit = unit or found
    ruled = tuple(numbers)
    cells = "hexes" if board.grid.kind == "hex" else "squares"
    return Balance(tuple(zones), standable, ruled, chokes, damage, unit, turns,
                   findings(ruled, damage, unit, cells), {z.side: hit[(z.side, o.side)] for z, o in pairs},
                   symmetry_note(bare, zones[0], zones[1]), cells)


def findings(rules: Sequence[RuleNumbers], damage: Mapping[str, Mapping[int, float]], unit: str,
             cells: str = "squares") -> tuple[str, ...]:
    """The differences between two sides a designer should look at, one sentence each, with the
    numbers under every rule where they hold: exposure 10 points apart or more, first strikes on
    different turns, one side with half as many safe squares again, a symmetry of the zones that
    sight breaks; and the damage at Close a quarter apart. ``cells``: what cells are called
    (``squares``, ``hexes``)."""
    found: dict[tuple[str, ...], list[str]] = {}
    for numbers in rules:
        spec = numbers.rule.spec()
        for key, detail in _rule_differences(numbers):
            found.setdefault(key, []).append(f"{spec} {detail}")
    out = [_sentence(key, details, cells) for key, details in found.items()]
    sides = list(damage)
    if len(sides) >= 2:
        a, b = damage[sides[0]][1], damage[sides[1]][1]
        if max(a, b) > 0 and (min(a, b) == 0 or max(a, b) / min(a, b) >= 1.25):
            out.append(f"At Close {sides[0]} deals {a:.2f} {unit} a turn, {sides[1]} {b:.2f}.")
    return tuple(out)


def _rule_differences(numbers: RuleNumbers) -> list[tuple[tuple[str, ...], str]]:
    """The differences under one rule: (what differs, who; the numbers)."""
    out: list[tuple[tuple[str, ...], str]] = []
    pairs = [(a, b) for i, a in enumerate(numbers.sides) for b in numbers.sides[i + 1:]
             if a.side == b.other and a.other == b.side]
    for a, b in pairs:
        if abs(a.exposure.share - b.exposure.share) >= EXPOSURE_GAP:
            hi, lo = (a, b) if a.exposure.share > b.exposure.share else (b, a)
            out.append((("exposure", hi.side, lo.side), f"{_pct(hi.exposure.share)} vs {_pct(lo.exposure.share)}"))
        ta, tb = a.first_strike.turn, b.first_strike.turn
        if ta != tb:
            early, late = (a, b) if (tb is None or (ta is not None and ta < tb)) else (b, a)
            out.append((("strike", early.side, late.side),
                        f"turn {early.first_strike.turn} vs {late.first_strike.turn or 'never'}"))
        sa, sb = int(a.safe.sum()), int(b.safe.sum())
        if max(sa, sb) and Fraction(max(sa, sb), max(1, min(sa, sb))) >= SAFE_RATIO and abs(sa - sb) >= 3:
            more, fewer = (a, b) if sa > sb else (b, a)
            out.append((("safe", more.side, fewer.side), f"{int(more.safe.sum())} vs {int(fewer.safe.sum())}"))
    broken = [c for c in numbers.symmetry if c.broken]
    if broken:
        geometry = broken[0].geometry
        where = f"; the geometry differs: {geometry[0]}" + (f" (and {len(geometry) - 1} more)" if len(geometry) > 1 else "") \
            if geometry else ""
        out.append((("symmetry", ", ".join(c.transform for c in broken), where), f"{broken[0].broken} pairs"))
    return out


def _sentence(key: tuple[str, ...], details: list[str], cells: str = "squares") -> str:
    """One finding's sentence from its kind and the numbers under each rule."""
    kind, numbers = key[0], "; ".join(details)
    if kind == "exposure":
        return f"{key[1]} sees more of {key[2]}'s zone than {key[2]} sees of {key[1]}'s ({numbers})."
    if kind == "strike":
        return f"{key[1]} can attack the other zone before {key[2]} can ({numbers})."
    if kind == "safe":
        return f"{key[1]} has more {cells} the other zone cannot see than {key[2]} ({numbers})."
    return (f"The zones mirror each other ({key[1]}), but sight does not: pairs of {cells} that do not see each "
            f"other as their images do ({numbers}){key[2]}.")


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.0f}%"
