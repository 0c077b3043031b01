"""Who can attack whom, with what chance, now and next turn: the threat view's numbers (pure).

Every answer comes from the board's ruleset through the :class:`~game.rules.base.Ruleset`
interface only (so rulesets written as files work too) and from the sight engine:

* **Now** (:meth:`ThreatSolver.chances`): every usable attack the ruleset's ``check`` calls
  legal, each with its exact ``odds`` — the same requests ``sightline attack`` and ``sightline
  odds --attack NAME`` make. The *best* attack is the one most likely to take the target out,
  then the one with the most expected damage, then the first in the ruleset's menu; attacks
  whose odds name no take-out chance rank after those that do. Menu entries that answer an
  attack rather than make one (Mage Knight's Block and Assign damage) are not threats.
* **Next turn** (:meth:`ThreatSolver.next_turn`): some square within the attacker's move
  (its ``move`` / ``speed`` / ``movement`` stat, else :data:`DEFAULT_MOVE`, or a number given;
  counted like ``sightline reach``: walls, doors, terrain and enemies stop it) from which the
  ruleset's ``check`` calls an attack legal. The squares worth trying come from each attack's
  :class:`Reach`; the ruleset's own ``check``, with the attacker moved there, confirms the one
  reported.
* **Reach** (:func:`learn_reach`): where an attack can hit from, learned by asking the ruleset's
  ``check`` about the two figures alone on small bare probe boards — the same square, a Close
  neighbour, a square in sight at each distance (a binary search for the range), a diagonal
  (which distance the range counts), a square out of sight (an attack that needs neither sight
  nor Close, as in Mage Knight). It assumes what every ruleset here does: an attack's legality
  depends on where the two figures stand only through Close, line of sight and distance.

The danger map (:mod:`game.designer.danger`) and the balance report build on the same reach.

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["......", "......"], walls=["V(3,0)", "V(3,1)"], ruleset="arcadia")
>>> board.place_figure(Figure(1, "Archer", "red", (0, 0), {"life": 4, "attacks": "Bow:ranged:2; Knife:melee:1"}))
>>> board.place_figure(Figure(2, "Goblin", "green", (5, 1), {"life": 2, "attacks": "Claw:melee:2", "move": 3}))
>>> solver = ThreatSolver()
>>> solver.chances(board, 1, 2)
()
>>> step = solver.next_turn(board, 2, 1)
>>> step is None
True
>>> board.move_figure(2, (2, 1))
>>> best = best_chance(solver.chances(board, 1, 2))
>>> best.attack, f"{float(best.hit):.3f}", best.take_out_word
('Bow', '0.750', 'kill')
>>> step = solver.next_turn(board, 2, 1)
>>> step.words(), step.path
('from (1,0) after 2 steps with Claw', ((2, 1), (2, 0), (1, 0)))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from game.core import measure, sight
from game.core.board import Board, Figure, Square, fmt_square, is_enemy
from game.core.errors import SightlineError
from game.core.grid import Grid, SquareGrid
from game.core.hexgrid import HexGrid
from game.core.los import is_close
from game.core.profiles import Profile
from game.designer.sightlines import FieldFunction, Sightlines
from game.rules.base import AttackOption, AttackRequest, Odds, Ruleset
from game.rules.reach import range_distance
from game.rules.registry import get_ruleset

#: a figure's move when it has no ``move`` / ``speed`` / ``movement`` stat (as the window's reach)
DEFAULT_MOVE = 4
#: kinds of a ruleset's menu entries that answer an attack rather than make one (Mage Knight's
#: Block and Assign damage phases: the Hero blocks, or takes, the enemy's attack): never threats
ANSWER_KINDS = frozenset({"block", "assign"})


def map_rule(board: Board) -> Profile:
    """The line-of-sight rule attacks on ``board`` are judged by: its ``los_rule``
    (:func:`game.core.sight.rule_of`), else the grid's default (a wrong one is ``sightline
    check``'s error; here it falls back to the default)."""
    return sight.rule_or_default(board)


def move_of(figure: Figure, move: int | None = None) -> int:
    """How far ``figure`` moves in a turn: ``move`` when given, else its movement stat, else
    :data:`DEFAULT_MOVE`.

    >>> move_of(Figure(1, "A", "red", (0, 0), {"speed": 6})), move_of(Figure(1, "A", "red", (0, 0)), 2)
    (6, 2)
    """
    if move is not None:
        return move
    found = measure.movement_stat(figure.stats)
    return DEFAULT_MOVE if found is None else found


# --- one attack's numbers ---------------------------------------------------------------------


@dataclass(frozen=True)
class Chance:
    """One legal attack's exact numbers: ``hit`` (the ruleset's own "hit" chance when its odds
    name one, else the chance the attack does anything: an outcome of 1 or more), ``expected``
    (the mean outcome, counted in ``unit``: wounds, HP lost ...) and ``take_out`` (the odds'
    ``kill``, in the ruleset's word ``take_out_word``; None when its odds name none)."""

    attack: str
    kind: str
    hit: Fraction
    expected: Fraction
    take_out: Fraction | None
    take_out_word: str
    unit: str
    note: str = ""

    @classmethod
    def of(cls, option: AttackOption, odds: Odds) -> Chance:
        """The numbers of ``option`` from its exact ``odds``."""
        named = dict(odds.shown_chances())
        hit = named.get("hit")
        if hit is None:
            hit = sum((p for v, p in odds.distribution.items() if v >= 1), Fraction(0))
        return cls(option.name, option.kind, hit, odds.expected, odds.kill, odds.kill_label, odds.label, odds.note)

    def rank(self) -> tuple[int, Fraction, Fraction]:
        """The order of :func:`best_chance`: a take-out chance at all, its size, the expected outcome."""
        return (self.take_out is not None, self.take_out or Fraction(0), self.expected)

    def as_json(self) -> dict[str, object]:
        """``{"attack", "kind", "hit", "expected", "take_out", "take_out_word", "unit", "exact": {...}}``."""
        return {
            "attack": self.attack, "kind": self.kind, "hit": float(self.hit),
            "expected": float(self.expected),
            "take_out": None if self.take_out is None else float(self.take_out),
            "take_out_word": self.take_out_word, "unit": self.unit,
            "exact": {"hit": str(self.hit), "expected": str(self.expected),
                      "take_out": None if self.take_out is None else str(self.take_out)},
        }


def best_chance(chances: Sequence[Chance]) -> Chance | None:
    """The best of ``chances`` (see the module: take-out chance, then expected, then menu order)."""
    best: Chance | None = None
    for chance in chances:
        if best is None or chance.rank() > best.rank():
            best = chance
    return best


# --- where an attack reaches from -----------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """Where one attack of one figure on another may be made from, relative to the target.

    ``anywhere``: wherever both stand (no sight, no Close needed). Otherwise ``same`` (sharing
    a square), ``close`` (a Close target), and ``sight``: a target in line of sight at a
    distance from ``near`` to ``far`` (None: any), counted in orthogonal steps or, with
    ``diagonal``, with a diagonal step as one.
    """

    anywhere: bool = False
    same: bool = False
    close: bool = False
    sight: bool = False
    near: int = 1
    far: int | None = None
    diagonal: bool = False

    def distance(self, board: Board, a: Square, b: Square) -> int:
        """The distance the range is counted in: steps across edges of the board's grid (hex
        steps on hexes), or on squares with a diagonal step as one (``diagonal``)."""
        return range_distance(board, a, b, diagonal=self.diagonal)

    def allows(self, board: Board, origin: Square, target: Square, seen: bool) -> bool:
        """Whether the attack may be made from ``origin`` on a figure on ``target``; ``seen``: the
        origin has line of sight to the target."""
        if self.anywhere:
            return True
        if origin == target:
            return self.same
        if is_close(board, origin, target):
            return self.close
        if not (self.sight and seen):
            return False
        d = self.distance(board, origin, target)
        return self.near <= d and (self.far is None or d <= self.far)

    @property
    def reaches(self) -> bool:
        """Whether the attack can be made from anywhere at all."""
        return self.anywhere or self.same or self.close or self.sight

    def words(self, cell: str = "square") -> str:
        """``Close``, ``sight, range 6 (diagonal steps count one)`` ...; ``cell``: what one cell
        of the board is called (the grid's noun).

        >>> Reach(same=True).words(), Reach(same=True).words("hex")
        ('same square', 'same hex')
        """
        if self.anywhere:
            return "anywhere"
        parts = (["Close"] if self.close else []) + (["sight"] if self.sight else [])
        text = " or ".join(parts) or (f"same {cell}" if self.same else "nowhere")
        if self.sight and self.far is not None:
            text += f", range {self.far}" + (" (diagonal steps count one)" if self.diagonal else "")
        return text

    def as_json(self) -> dict[str, object]:
        """The reach as plain values."""
        return {"anywhere": self.anywhere, "same": self.same, "close": self.close, "sight": self.sight,
                "near": self.near, "far": self.far, "diagonal": self.diagonal}


#: no reach at all (an attack that is never legal)
NOWHERE = Reach()


def probe_grid(board: Board, size: tuple[int, int]) -> Grid[Any]:
    """A grid of ``size`` cells of the same kind as ``board``'s (a hex grid staggered alike)."""
    grid = board.grid
    if isinstance(grid, HexGrid):
        return HexGrid(size[0], size[1], grid.staggeraxis, grid.staggerindex)
    return SquareGrid(*size)


def probe_board(board: Board, attacker: Figure, target: Figure, spot: Square, size: tuple[int, int],
           origin: Square = (1, 1), **geometry: Any) -> Board:
    """A bare probe board (:func:`learn_reach`) on the real board's kind of grid: the two figures
    alone (the attacker on ``origin``, the target on ``spot``), the real board's ruleset and
    properties, the given walls, windows, blocked and void cells."""
    figures = [Figure(attacker.id, attacker.name, attacker.side, origin, attacker.stats),
               Figure(target.id, target.name, target.side, spot, target.stats)]
    return Board(*size, figures=figures, capacity=max(2, board.capacity), ruleset=board.ruleset,
                 properties=board.properties, name=board.name, grid=probe_grid(board, size), **geometry)


class _Prober:
    """Asks the ruleset's ``check`` about one attack of one figure on another on probe boards."""

    def __init__(self, ruleset: Ruleset, board: Board, attacker: Figure, target: Figure, attack: str) -> None:
        self.ruleset, self.board, self.attacker, self.target, self.attack = ruleset, board, attacker, target, attack

    def legal(self, probe: Board) -> bool:
        request = AttackRequest(probe, self.attacker.id, [self.target.id], self.attack)
        try:
            return bool(self.ruleset.check(request).legal)
        except SightlineError:
            return False

    def same(self) -> bool:
        return self.legal(probe_board(self.board, self.attacker, self.target, (1, 1), (3, 3)))

    def close(self) -> bool:
        return self.legal(probe_board(self.board, self.attacker, self.target, (2, 1), (4, 3)))

    def in_sight(self, d: int) -> bool:
        """In sight, not Close, ``d`` steps away along a row (d = 1: across a window)."""
        if d == 1:
            window = probe_grid(self.board, (4, 3)).edge_between((1, 1), (2, 1))
            return self.legal(probe_board(self.board, self.attacker, self.target, (2, 1), (4, 3),
                                     windows=[window]))
        return self.legal(probe_board(self.board, self.attacker, self.target, (1 + d, 1), (d + 3, 3)))

    def diagonal(self, k: int) -> bool:
        """In sight, ``k`` squares away along a diagonal (``2k`` orthogonal steps)."""
        return self.legal(probe_board(self.board, self.attacker, self.target, (1 + k, 1 + k), (k + 3, k + 3)))

    def blind(self) -> bool:
        """Far away, out of sight under any rule: the target walled in by a solid block of
        blocked terrain two cells thick (on hexes void, which blocks under every hex rule, where
        Gloomhaven's obstacles do not)."""
        centre = (6, 6)
        around = [(x, y) for x in range(4, 9) for y in range(4, 9) if (x, y) != centre]
        if self.board.grid.kind == "hex":
            return self.legal(probe_board(self.board, self.attacker, self.target, centre, (11, 11), void=around))
        return self.legal(probe_board(self.board, self.attacker, self.target, centre, (11, 11), blocked=around))


def learn_reach(ruleset: Ruleset, board: Board, attacker: Figure, target: Figure, attack: str,
                longest: int | None = None) -> Reach:
    """Where ``attacker``'s ``attack`` on ``target`` can be made from (see :class:`Reach` and
    the module's docstring). ``longest``: the longest distance worth probing (default: the
    board's width plus height)."""
    probe = _Prober(ruleset, board, attacker, target, attack)
    if probe.blind():
        return Reach(anywhere=True)
    same, close = probe.same(), probe.close()
    top = longest if longest is not None else board.width + board.height
    near = 1 if probe.in_sight(1) else 2 if top >= 2 and probe.in_sight(2) else 0
    if not near:
        return Reach(same=same, close=close)
    if probe.in_sight(top):
        return Reach(same=same, close=close, sight=True, near=near, far=None)
    lo, hi = near, top  # legal at lo, not at hi: the greatest legal distance lies in [lo, hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if probe.in_sight(mid) else (lo, mid)
    k = lo // 2 + 1  # k squares diagonally: k with diagonal steps counting one, 2k orthogonal steps
    diagonal = board.grid.kind == "square" and k <= lo and probe.diagonal(k)  # hexes have no diagonal
    return Reach(same=same, close=close, sight=True, near=near, far=lo, diagonal=diagonal)


# --- next turn ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Approach:
    """How an attacker gets to attack a target by next turn: it moves ``steps`` to ``square``
    along ``path`` (start first) and makes ``attack`` from there (0 steps: it can attack now)."""

    square: Square
    steps: int
    attack: str
    path: tuple[Square, ...]

    def as_json(self) -> dict[str, object]:
        """``{"square", "steps", "attack", "path"}`` (squares as ``[x, y]``)."""
        return {"square": list(self.square), "steps": self.steps, "attack": self.attack,
                "path": [list(sq) for sq in self.path]}

    def words(self) -> str:
        """``from (5,4) after 2 steps with Short Bow`` (``now with ...`` for 0 steps)."""
        if not self.steps:
            return f"now with {self.attack}"
        return f"from {fmt_square(self.square)} after {self.steps} step{'s' if self.steps != 1 else ''} with {self.attack}"


def path_to(board: Board, found: Mapping[Square, int], end: Square, side: str | None,
            mover: int | None) -> tuple[Square, ...]:
    """A shortest path (start first) to ``end`` through the steps of a :func:`game.core.measure.reach`."""
    path = [end]
    here = end
    while found[here] > 0:
        here = next(sq for sq in board.grid.neighbours(here)
                    if found.get(sq) == found[here] - 1 and measure.can_step(board, sq, here, side, mover))
        path.append(here)
    return tuple(reversed(path))


# --- the solver -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Threat:
    """One attacker on one target: every attack legal now (``chances``, best first in
    :attr:`now`) and how it gets to attack by next turn (``next_turn``; None when it cannot,
    or when not asked)."""

    attacker: int
    target: int
    chances: tuple[Chance, ...]
    next_turn: Approach | None = None

    @property
    def now(self) -> Chance | None:
        """The best attack legal now (None: none is)."""
        return best_chance(self.chances)

    def as_json(self) -> dict[str, object]:
        """``{"attacker", "target", "now": best|None, "attacks": [...], "next_turn": ...}``."""
        now = self.now
        return {"attacker": self.attacker, "target": self.target,
                "now": None if now is None else now.as_json(),
                "attacks": [c.as_json() for c in self.chances],
                "next_turn": None if self.next_turn is None else self.next_turn.as_json()}


@dataclass(frozen=True)
class FigureThreats:
    """The threat view of one figure: its ``targets`` (each enemy it may attack, now and next
    turn) and who threatens it (``threatened_by``: each enemy's attacks on it)."""

    figure: int
    move: int | None
    targets: tuple[Threat, ...]
    threatened_by: tuple[Threat, ...]


@dataclass
class ThreatSolver:
    """The threat numbers of boards in play, with what they cost kept for the next question.

    ``sight_field`` is the sight engine's one-origin call (the window passes its own seam);
    legality is kept per board version, exact odds and attack reaches per the two figures' stats.
    """

    sight_field: FieldFunction | None = None
    sightlines: Sightlines = field(init=False)
    _odds: dict[tuple[Any, ...], Odds | None] = field(default_factory=dict, init=False)
    _legal: dict[tuple[Any, ...], bool] = field(default_factory=dict, init=False)
    _moves: dict[tuple[Any, ...], Mapping[Square, int]] = field(default_factory=dict, init=False)
    _reach: dict[tuple[Any, ...], Reach] = field(default_factory=dict, init=False)
    _scratch: tuple[tuple[int, int], Board] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.sightlines = Sightlines(self.sight_field)

    # -- now
    def usable(self, board: Board, attacker: int) -> list[AttackOption]:
        """The attacker's usable attacks: the ruleset's menu, without the entries that answer an
        attack (:data:`ANSWER_KINDS`); bad stats: none."""
        try:
            menu = get_ruleset(board.ruleset).attacks(board, attacker)
            return [o for o in menu if o.usable and o.kind not in ANSWER_KINDS]
        except SightlineError:
            return []

    def chances(self, board: Board, attacker: int, target: int) -> tuple[Chance, ...]:
        """Every usable attack ``check`` calls legal now, with its exact odds, in menu order."""
        ruleset = get_ruleset(board.ruleset)
        out = []
        for option in self.usable(board, attacker):
            odds = self._legal_odds(ruleset, board, attacker, target, option.name)
            if odds is not None:
                out.append(Chance.of(option, odds))
        return tuple(out)

    def _legal_odds(self, ruleset: Ruleset, board: Board, attacker: int, target: int, attack: str) -> Odds | None:
        """The exact odds of the attack when ``check`` calls it legal now, else None. Legality is
        asked every time the board changes; the odds are kept per the two figures' sides and
        stats and the attack (the rulesets' odds depend on the figures, not on where they stand)."""
        key = (board.serial, board.version, attacker, target, attack)
        if key in self._legal:
            legal = self._legal[key]
        else:
            try:
                legal = bool(ruleset.check(AttackRequest(board, attacker, [target], attack)).legal)
            except SightlineError:
                legal = False
            if len(self._legal) > 8192:
                self._legal.clear()
            self._legal[key] = legal
        if not legal:
            return None
        a, t = board.figure(attacker), board.figure(target)
        stats = (ruleset.name, board.properties, attacker, a.side, a.stats, target, t.side, t.stats, attack)
        if stats not in self._odds:
            try:
                self._odds[stats] = ruleset.odds(AttackRequest(board, attacker, [target], attack))
            except SightlineError:
                self._odds[stats] = None
        return self._odds[stats]

    # -- reach
    def reach(self, board: Board, attacker: Figure, target: Figure, attack: str) -> Reach:
        """:func:`learn_reach`, kept per the two figures' sides and stats and the board's rules."""
        key = (board.ruleset, board.properties, board.capacity, board.width + board.height, attacker.id,
               attacker.side, attacker.stats, target.id, target.side, target.stats, attack)
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = learn_reach(get_ruleset(board.ruleset), board, attacker, target, attack)
        return found

    # -- next turn
    def next_turn(self, board: Board, attacker: int, target: int, move: int | None = None, *,
                  in_place: bool = False, geometry: object = None) -> Approach | None:
        """How ``attacker`` gets to attack ``target`` by next turn (0 steps: it can now), or None.

        ``in_place``: ``board`` is the caller's private copy and may be used as scratch (figures
        are moved on it to ask ``check`` and moved back), which saves copies; ``geometry`` then
        names the board it copies (:meth:`Sightlines.view`) so what is kept carries over from
        one copy to the next.
        """
        best = best_chance(self.chances(board, attacker, target))
        a, t = board.figure(attacker), board.figure(target)
        if best is not None:
            return Approach(a.square, 0, best.attack, (a.square,))
        options = self.usable(board, attacker)
        if not options:
            return None
        reaches = [(o.name, self.reach(board, a, t, o.name)) for o in options]
        found = self.moves(board, a, move_of(a, move), t, in_place=in_place, geometry=geometry)
        for square in self._candidates(board, a, t, found, reaches, geometry):
            attack = self._confirm(board, a, t, square, [name for name, _ in reaches], in_place)
            if attack is not None:
                return Approach(square, found[square], attack, path_to(board, found, square, a.side, a.id))
        return None

    def moves(self, board: Board, mover: Figure, steps: int, target: Figure, *, in_place: bool = False,
              geometry: object = None) -> Mapping[Square, int]:
        """:func:`game.core.measure.reach` of ``mover``, kept per what it depends on: the geometry,
        its square and move, the squares holding its enemies. With ``in_place`` the ``target``
        (a figure being dragged about) is left out of what it depends on while the walk does
        not get to its square: the walk is done with it lifted off the private board."""
        place = geometry if geometry is not None else (board.serial, board.geometry_version)
        skip = target.id if in_place else None
        blockers = frozenset(f.square for f in board.figures.values()
                             if f.id not in (mover.id, skip) and is_enemy(f, mover.side))
        key = (place, mover.id, mover.square, mover.side, steps, blockers)
        found = self._moves.get(key)
        if found is None:
            if skip is not None:
                lifted = board.remove_figure(target.id)
                try:
                    found = measure.reach(board, mover.square, steps, mover.side, mover.id)
                finally:
                    board.place_figure(lifted)
            else:
                found = measure.reach(board, mover.square, steps, mover.side, mover.id)
            if len(self._moves) > 1024:
                self._moves.clear()
            self._moves[key] = found
        if skip is not None and target.square in found and is_enemy(target, mover.side):
            return measure.reach(board, mover.square, steps, mover.side, mover.id)
        return found

    def _candidates(self, board: Board, a: Figure, t: Figure, found: Mapping[Square, int],
                    reaches: Sequence[tuple[str, Reach]], geometry: object = None) -> list[Square]:
        """The squares of ``found`` from which some reach allows an attack on ``t``, nearest first."""
        view = self.sightlines.view(board, map_rule(board), a.side, geometry)
        seen = view.row(t.square) if view.symmetric else None
        out = []
        for square in sorted(found, key=lambda sq: (found[sq], board.grid.distance(sq, t.square), sq[1], sq[0])):
            if square != a.square and board.can_enter(a.id, square) is not None:
                continue
            sees = bool(seen[square[1], square[0]]) if seen is not None else bool(view.row(square)[t.square[1], t.square[0]])
            if any(r.allows(board, square, t.square, sees) for _, r in reaches):
                out.append(square)
        return out

    def _confirm(self, board: Board, a: Figure, t: Figure, square: Square, attacks: Sequence[str],
                 in_place: bool = False) -> str | None:
        """The first attack ``check`` calls legal with ``a`` moved to ``square`` (on a scratch
        copy, or with ``in_place`` on ``board`` itself, moved back after)."""
        if in_place:
            scratch = board
        else:
            key = (board.serial, board.version)
            if self._scratch is None or self._scratch[0] != key:
                self._scratch = (key, board.copy())
            scratch = self._scratch[1]
        ruleset = get_ruleset(board.ruleset)
        scratch.move_figure(a.id, square)
        try:
            for attack in attacks:
                try:
                    if ruleset.check(AttackRequest(scratch, a.id, [t.id], attack)).legal:
                        return attack
                except SightlineError:
                    continue
            return None
        finally:
            scratch.move_figure(a.id, a.square)

    # -- a figure, the board
    def enemies(self, board: Board, figure: int) -> list[int]:
        """The figures ``figure`` may target (the ruleset's ``targets``), not down."""
        ruleset = get_ruleset(board.ruleset)
        return [t for t in ruleset.targets(board, figure) if not _down(ruleset, board.figure(t))]

    def attackers(self, board: Board, figure: int) -> list[int]:
        """The figures that may target ``figure`` (the ruleset's ``targets``), not down."""
        ruleset = get_ruleset(board.ruleset)
        return [f.id for f in sorted(board.figures.values(), key=lambda f: f.id) if f.id != figure
                and figure in ruleset.targets(board, f.id) and not _down(ruleset, f)]

    def figure(self, board: Board, figure: int, move: int | None = None, next_turn: bool = True) -> FigureThreats:
        """The threat view of ``figure``: its targets and who threatens it, now and (with
        ``next_turn``) next turn."""
        targets = tuple(self.threat(board, figure, t, move, next_turn) for t in self.enemies(board, figure))
        incoming = tuple(self.threat(board, e, figure, move, next_turn) for e in self.attackers(board, figure))
        return FigureThreats(figure, move, targets, incoming)

    def threat(self, board: Board, attacker: int, target: int, move: int | None = None,
               next_turn: bool = True) -> Threat:
        """One attacker on one target, now and (with ``next_turn``) next turn."""
        chances = self.chances(board, attacker, target)
        approach = self.next_turn(board, attacker, target, move) if next_turn else None
        return Threat(attacker, target, chances, approach)


def _down(ruleset: Ruleset, figure: Figure) -> bool:
    try:
        return ruleset.condition(figure).down
    except SightlineError:
        return False
