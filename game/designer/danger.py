"""The danger map of a figure: on every square it could stand on, who could attack it (pure).

For a figure F and each square s it may stand on (on the board, not blocked or impassable
terrain, not a full square), with F taken off its own square and imagined on s:

* ``now[s]``: how many enemies of F could attack it there from where they stand;
* ``next_turn[s]``: how many could attack it there after moving first (each within its move,
  counted like ``sightline reach`` on the board without F; staying put counts);
* ``damage[s]``: the expected damage F would take there next turn if each of those enemies made
  its best attack on F once (each attack's exact expected outcome, in the ruleset's unit).

Where each enemy's attacks reach from is :class:`~game.designer.threats.Reach` (the ruleset's own
``check`` on probe boards); line of sight is the map's rule with the enemy's side as the viewer
(:mod:`game.designer.sightlines`). The expected damage of an attack is its exact odds on a probe
board with the two figures alone (the rulesets' odds depend on the figures, not on where they
stand). Everything is kept between calls by what it depends on, so dragging F, or one enemy,
recomputes only what changed.

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["....."], ruleset="arcadia")
>>> board.place_figure(Figure(1, "Knight", "red", (0, 0), {"life": 4, "defense": 1}))
>>> board.place_figure(Figure(2, "Goblin", "green", (3, 0), {"life": 2, "attacks": "Claw:melee:2", "move": 1}))
>>> danger = danger_map(ThreatSolver(), board, 1)
>>> danger.now.tolist(), danger.next_turn.tolist()
([[0, 0, 1, 1, 1]], [[0, 1, 1, 1, 1]])
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from game.core import measure
from game.core.board import Board, Figure, Square
from game.core.errors import SightlineError
from game.core.los import is_close
from game.designer.sightlines import View
from game.designer.threats import (
    Chance,
    Reach,
    ThreatSolver,
    best_chance,
    map_rule,
    move_of,
    probe_board,
)
from game.rules.base import AttackOption, AttackRequest
from game.rules.registry import get_ruleset


@dataclass(frozen=True)
class DangerMap:
    """The danger map of one figure (see the module's docstring); arrays are ``[y, x]``."""

    figure: int
    side: str
    now: np.ndarray
    next_turn: np.ndarray
    damage: np.ndarray
    standable: np.ndarray
    #: what ``damage`` counts (the odds' label: "wounds", "HP lost" ...)
    unit: str
    #: the enemies counted, and each one's best expected damage on the figure
    enemies: tuple[tuple[int, float], ...]

    def at(self, square: Square) -> tuple[int, int, float] | None:
        """``(now, next_turn, damage)`` on ``square``, or None where the figure cannot stand."""
        x, y = square
        if not (0 <= y < self.standable.shape[0] and 0 <= x < self.standable.shape[1]) or not self.standable[y, x]:
            return None
        return int(self.now[y, x]), int(self.next_turn[y, x]), float(self.damage[y, x])

    def as_json(self) -> dict[str, object]:
        """``{"figure", "side", "unit", "squares": [[x, y, now, next, damage], ...], "enemies"}``."""
        ys, xs = np.nonzero(self.standable)
        return {
            "figure": self.figure, "side": self.side, "unit": self.unit,
            "squares": [[int(x), int(y), int(self.now[y, x]), int(self.next_turn[y, x]),
                         round(float(self.damage[y, x]), 6)] for y, x in zip(ys, xs, strict=True)],
            "enemies": [{"id": i, "expected": round(e, 6)} for i, e in self.enemies],
        }


def standable_for(board: Board, figure: int) -> np.ndarray:
    """Bool ``[y, x]``: the squares ``figure`` may stand on (``Board.can_enter``)."""
    mask = np.zeros((board.height, board.width), dtype=bool)
    for x, y in board.squares():
        mask[y, x] = board.can_enter(figure, (x, y)) is None
    return mask


def close_squares(board: Board, square: Square) -> list[Square]:
    """The other squares Close to ``square`` (its neighbours across an open edge)."""
    return [sq for sq in board.grid.neighbours(square) if is_close(board, square, sq)]


class _Grid:
    """Distance grids of one board, from any origin (vectorised): the distance a range counts
    (:func:`~game.rules.reach.range_distance`: orthogonal or diagonal steps on squares, hex steps
    on hexes, by the grid's cube coordinates)."""

    def __init__(self, board: Board) -> None:
        self.ys, self.xs = np.indices((board.height, board.width))
        self.cubes: np.ndarray | None = None
        if board.grid.kind == "hex":
            cube = board.grid.cube  # type: ignore[attr-defined]
            self.cubes = np.array([[cube((x, y)) for x in range(board.width)] for y in range(board.height)])

    def distance(self, origin: Square, diagonal: bool) -> np.ndarray:
        if self.cubes is not None:
            here = self.cubes[origin[1], origin[0]]
            return np.abs(self.cubes - here).max(axis=2)
        dx, dy = np.abs(self.xs - origin[0]), np.abs(self.ys - origin[1])
        return np.maximum(dx, dy) if diagonal else dx + dy


def attack_mask(board: Board, view: View, grid: _Grid, origin: Square, reaches: Sequence[Reach]) -> np.ndarray:
    """Bool ``[y, x]``: the squares one of ``reaches`` allows an attack on from ``origin``
    (:meth:`Reach.allows`, vectorised)."""
    out = np.zeros((board.height, board.width), dtype=bool)
    if any(r.anywhere for r in reaches):
        out[:] = True
        return out
    close = close_squares(board, origin)
    sights = [r for r in reaches if r.sight]
    if sights:
        row = view.row(origin)
        for r in sights:
            d = grid.distance(origin, r.diagonal)
            within = d >= r.near if r.far is None else (d >= r.near) & (d <= r.far)
            out |= row & within
        for x, y in close:  # Close squares are the Close part's to decide
            out[y, x] = False
        out[origin[1], origin[0]] = False
    if any(r.close for r in reaches):
        for x, y in close:
            out[y, x] = True
    if any(r.same for r in reaches):
        out[origin[1], origin[0]] = True
    return out


def probe_chance(solver: ThreatSolver, board: Board, attacker: Figure, target: Figure,
                 option: AttackOption, reach: Reach) -> Chance | None:
    """The attack's exact numbers with the two figures alone on a probe board, the target where
    the attack reaches (None: it reaches nowhere, or the odds refuse)."""
    if not reach.reaches:
        return None
    if reach.same and not (reach.anywhere or reach.close):
        spot, size = (1, 1), (3, 3)
    elif reach.anywhere or reach.close:
        spot, size = (2, 1), (4, 3)
    else:
        spot, size = (1 + max(2, reach.near), 1), (max(2, reach.near) + 3, 3)
    probe = probe_board(board, attacker, target, spot, size)
    try:
        odds = get_ruleset(board.ruleset).odds(AttackRequest(probe, attacker.id, [target.id], option.name))
    except SightlineError:
        return None
    return Chance.of(option, odds)


def danger_map(solver: ThreatSolver, board: Board, figure: int, move: int | None = None) -> DangerMap:
    """The danger map of ``figure`` on ``board`` (see the module's docstring); ``move``
    overrides every enemy's move."""
    steps = danger_steps(solver, board, figure, move)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return cast(DangerMap, done.value)


def danger_steps(solver: ThreatSolver, board: Board, figure: int, move: int | None = None, *,
                 in_place: bool = False, geometry: object = None) -> Generator[None, None, DangerMap]:
    """:func:`danger_map` one enemy at a time: a generator that yields after each enemy and
    returns the map (the window runs it a few milliseconds a frame). It works on a copy of
    ``board`` made when it starts; with ``in_place`` ``board`` is the caller's private copy and
    is used as it is (the figure taken off it), ``geometry`` naming the board it copies (what is
    kept carries over from one copy to the next)."""
    target = board.figure(figure)
    attackers = solver.attackers(board, figure)
    geometry = geometry if geometry is not None else (board.serial, board.geometry_version)
    scratch = board if in_place else board.copy()
    scratch.remove_figure(figure)
    board = scratch
    rule, grid = map_rule(board), _Grid(board)
    standable = standable_for(scratch, figure)
    now = np.zeros((board.height, board.width), dtype=np.int16)
    nxt = np.zeros_like(now)
    damage = np.zeros(now.shape, dtype=np.float64)
    enemies: list[tuple[int, float]] = []
    unit = ""
    for enemy in [scratch.figure(i) for i in attackers]:
        options = solver.usable(board, enemy.id)
        reaches = [solver.reach(board, enemy, target, o.name) for o in options]
        if not any(r.reaches for r in reaches):
            continue
        chances = [probe_chance(solver, board, enemy, target, o, r) for o, r in zip(options, reaches, strict=True)]
        best = best_chance([c for c in chances if c is not None])
        view = solver.sightlines.view(scratch, rule, enemy.side, geometry)
        here = attack_mask(scratch, view, grid, enemy.square, reaches)
        later = here.copy()
        for square in measure.reach(scratch, enemy.square, move_of(enemy, move), enemy.side, enemy.id):
            if square != enemy.square and scratch.can_enter(enemy.id, square) is None:
                later |= attack_mask(scratch, view, grid, square, reaches)
        now += here & standable
        nxt += later & standable
        expected = float(best.expected) if best is not None else 0.0
        damage += (later & standable) * expected
        enemies.append((enemy.id, expected))
        unit = unit or (best.unit if best is not None else "")
        yield
    return DangerMap(figure, target.side, now, nxt, damage, standable, unit, tuple(enemies))
