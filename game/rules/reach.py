"""Reach between two figures for rulesets with melee and ranged attacks: Close, LOS, distance.

Thin sentences around the grid seam and the sight facade (:mod:`game.core.grid`,
:mod:`game.core.sight`, pure), shared by the rulesets: each ``*_reason`` function returns None
when the attack may reach, or the reason (a sentence fragment) when not. Nothing here assumes
squares: **Close** is the same cell, or a neighbour of the board's grid across an open edge
(orthogonal on squares, any of six on hexes); a range counts steps across edges
(:func:`range_distance`: hex steps on a hex board), or on squares with a diagonal step as one
for rules that say so. Line of sight is judged by the map's rule (its ``los_rule``), and a
reason under a rule other than the default names it.

>>> from game.core.board import Board
>>> range_distance(Board(5, 5), (0, 0), (3, 2), diagonal=True), range_distance(Board(5, 5), (0, 0), (3, 2))
(3, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core import los, measure, sight
from game.core.board import Board, Figure, Square, fmt_square
from game.core.words import plural


def cell_noun(board: Board) -> str:
    """What one cell of the board is called: ``square`` or ``hex``.

    >>> cell_noun(Board(2, 2))
    'square'
    """
    return board.grid.noun


def range_distance(board: Board, a: Square, b: Square, *, diagonal: bool = False) -> int:
    """The distance a range counts between two cells: steps across edges on the board's grid
    (orthogonal steps on squares, hex steps on hexes), or on squares with a diagonal step as one
    when ``diagonal`` (rules that count so play on squares only: :meth:`Ruleset.grid_refusal
    <game.rules.base.Ruleset.grid_refusal>`)."""
    if diagonal and board.grid.kind == "square":
        return measure.with_diagonals(a, b)
    return board.grid.distance(a, b)


@dataclass(frozen=True)
class Apart:
    """Why two cells are not Close: ``steps`` apart on the grid; for neighbours, the ``edge``
    between them and what shuts it (``shut``: ``wall``, ``closed door`` ...); ``diagonal``:
    two squares touching only at a corner."""

    steps: int
    edge: object | None = None
    shut: str = ""
    diagonal: bool = False


def apart(board: Board, a: Square, b: Square) -> Apart | None:
    """None when ``b`` is Close to ``a`` (the same cell, or a neighbour across an open edge:
    :func:`game.core.los.is_close`); else why not.

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> apart(board, (2, 0), (2, 0)) is None, apart(board, (2, 0), (3, 0)).shut, apart(board, (0, 0), (3, 0)).steps
    (True, 'wall', 3)
    """
    if los.is_close(board, a, b):
        return None
    grid = board.grid
    if b in grid.neighbours(a):
        edge = grid.edge_between(a, b)
        kind = board.edge_kind(edge) or "wall"
        if kind == "door":
            kind = f"{board.doors[edge].state.value} door"
        return Apart(1, edge, kind)
    diagonal = grid.kind == "square" and measure.with_diagonals(a, b) == 1
    return Apart(grid.distance(a, b), diagonal=diagonal)


def close_reason(board: Board, attacker: Figure, target: Figure) -> str | None:
    """None when ``target`` is Close to ``attacker`` (same cell, or a neighbour across an open
    edge); otherwise why not.

    >>> board = Board.from_ascii([".....", "....."], walls=["V(3,0)"])
    >>> f = lambda i, sq: Figure(i, f"F{i}", "s", sq)
    >>> close_reason(board, f(1, (2, 0)), f(2, (3, 0)))
    'not Close: a wall or closed door stands between F1 and F2'
    >>> close_reason(board, f(1, (2, 0)), f(2, (3, 1)))
    'not Close: F2 is diagonal to F1 (Close is orthogonal)'
    >>> close_reason(board, f(1, (0, 0)), f(2, (3, 1)))
    'not Close: F2 is 3 squares away from F1'
    """
    why = apart(board, attacker.square, target.square)
    if why is None:
        return None
    if why.edge is not None:
        return f"not Close: a wall or closed door stands between {attacker.label} and {target.label}"
    if why.diagonal:
        return f"not Close: {target.label} is diagonal to {attacker.label} (Close is orthogonal)"
    steps = range_distance(board, attacker.square, target.square, diagonal=True)
    return f"not Close: {target.label} is {plural(steps, cell_noun(board))} away from {attacker.label}"


def sight_reason(board: Board, attacker: Figure, target: Figure) -> str | None:
    """None when ``attacker`` has line of sight to ``target`` under the map's rule (its side is the
    viewer); else why not (the rule's short sentence: it names a rule other than the default)."""
    result = sight.line(board, attacker.square, target.square, viewer=attacker.side)
    if result.clear:
        return None
    why = result.summary()
    # the caller ends the sentence: no full stop of ours, also not in "(1 more blocker further on.)"
    if why.endswith(".)") and ". (" in why:
        head, _, tail = why.rpartition(". (")
        why = f"{head} ({tail[:-2]})"
    why = why.rstrip(".")
    return (
        f"no line of sight from {attacker.label} {fmt_square(attacker.square)} to "
        f"{target.label} {fmt_square(target.square)}: {why}"
    )
