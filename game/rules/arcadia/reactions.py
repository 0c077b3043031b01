"""Arcadia Quest reactions: a monster's walk before its Payback, and the whole exchange's odds (pure).

The rulebook (base p.11, via ``docs/arcadia.md``): **Payback**, an attacked Monster may move up
to its Movement and then attack the attacker, even if the attack missed; **Guard**, after a
Hero's attack that targets no Monster Close to him, every Monster Close to him attacks him
without moving. Monster attacks follow the same Close and line-of-sight rules, so the ruleset
asks its own legality (``_plan``) from each Space a monster could walk to.

A walk (:func:`walks`) follows the movement rules of the rulebook (base p.8, Inferno p.15): one
step to a Close Space (a neighbour of the board's grid across an open edge: orthogonal on
squares, one of six on hexes), never into void, blocked
or impassable terrain or a shut door square; a Space holding two characters that are both
enemies of the mover is **Blocked** (no entering it), one holding two with an ally is **Full**
(the mover may pass through but not stop there); a Space with room (fewer than the board's
capacity) may end the walk.

>>> from game.core.board import Figure
>>> board = Board.from_ascii([".....", "....."], walls=["V(2,0)"])
>>> board.place_figure(Figure(1, "Imp", "monsters", (1, 0), {"movement": 2}))
>>> [(sq, len(path) - 1) for sq, path in walks(board, board.figure(1), 2)][:4]
[((1, 0), 0), ((0, 0), 1), ((1, 1), 1), ((0, 1), 2)]
>>> fmt_square(walked(board, 1, [(1, 0), (1, 1), (2, 1)]).figure(1).square)
'(2,1)'
>>> walked(board, 1, [(1, 0), (2, 0)])
Traceback (most recent call last):
...
game.core.errors.UsageError: Imp cannot step from (1,0) to (2,0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

from game.core.board import Board, Figure, Square, fmt_square, is_enemy
from game.core.errors import UsageError
from game.rules.figure_stats import stat_int


def _passable(board: Board, mover: Figure, here: Square, there: Square) -> tuple[bool, bool]:
    """Whether ``mover`` may step from ``here`` to the neighbour ``there``, and whether it may
    stop there (see the module docstring)."""
    if not board.in_bounds(there) or board.is_void(there) or board.is_blocked_terrain(there):
        return False, False
    if board.is_impassable(there) or board.edge_blocks_movement(board.grid.edge_between(here, there)):
        return False, False
    others = [f for f in board.figures_at(there) if f.id != mover.id]
    if len(others) >= board.capacity and all(is_enemy(f, mover.side) for f in others):
        return False, False  # a Blocked Space
    return True, len(others) < board.capacity


def walks(board: Board, mover: Figure, steps: int) -> Iterator[tuple[Square, tuple[Square, ...]]]:
    """Every Space ``mover`` may end a walk of at most ``steps`` on, nearest first (ties in the
    order a walk trying the grid's neighbours finds them: up, left, right, down on squares), with the path there (its start
    first). The start comes first, with a path of one Space."""
    start = mover.square
    parent: dict[Square, Square | None] = {start: None}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == start or _passable(board, mover, _prev(parent, here), here)[1]:
            yield here, _path(parent, here)
        if dist[here] == steps:
            continue
        for there in board.grid.neighbours(here):
            if there in parent:
                continue
            step, _ = _passable(board, mover, here, there)
            if step:
                parent[there] = here
                dist[there] = dist[here] + 1
                queue.append(there)


def _prev(parent: Mapping[Square, Square | None], sq: Square) -> Square:
    before = parent[sq]
    assert before is not None
    return before


def _path(parent: Mapping[Square, Square | None], end: Square) -> tuple[Square, ...]:
    out = [end]
    while (before := parent[out[-1]]) is not None:
        out.append(before)
    return tuple(reversed(out))


def walked(board: Board, figure_id: int, path: Sequence[Square]) -> Board:
    """A copy of ``board`` with the figure moved along ``path`` (its square first), each step
    checked against the movement rules and its ``movement``; a bad path is a UsageError."""
    mover = board.figure(figure_id)
    path = [(int(sq[0]), int(sq[1])) for sq in path]
    if not path or path[0] != mover.square:
        raise UsageError(f"{mover.label}'s walk must start on its square {fmt_square(mover.square)}")
    limit = _movement(mover)
    if len(path) - 1 > limit:
        raise UsageError(f"{mover.label} walks {len(path) - 1} steps: more than its movement {limit}")
    for here, there in zip(path, path[1:], strict=False):
        if there not in board.grid.neighbours(here) or not _passable(board, mover, here, there)[0]:
            raise UsageError(f"{mover.label} cannot step from {fmt_square(here)} to {fmt_square(there)}")
    if len(path) > 1 and not _passable(board, mover, path[-2], path[-1])[1]:
        raise UsageError(f"{mover.label} cannot stop on {fmt_square(path[-1])}: the Space is full")
    moved = board.copy()
    if len(path) > 1:
        moved.move_figure(figure_id, path[-1])
    return moved


def _movement(figure: Figure) -> int:
    return max(0, stat_int(figure, "movement"))


# --- the whole exchange's odds -------------------------------------------------------------


def capped_sum(a: Mapping[int, Fraction], b: Mapping[int, Fraction], cap: int | None) -> dict[int, Fraction]:
    """``min(cap, A + B)`` for independent A and B (cap None: no cap).

    >>> capped_sum({0: Fraction(1, 2), 1: Fraction(1, 2)}, {1: Fraction(1)}, 1)
    {1: Fraction(1, 1)}
    """
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            v = x + y if cap is None else min(cap, x + y)
            out[v] = out.get(v, Fraction(0)) + p * q
    return dict(sorted(out.items()))


def mixed(dist: Mapping[int, Fraction], happens: Fraction) -> dict[int, Fraction]:
    """``dist`` when something happens (with chance ``happens``), else 0.

    >>> mixed({2: Fraction(1)}, Fraction(1, 4))
    {0: Fraction(3, 4), 2: Fraction(1, 4)}
    """
    out = {k: p * happens for k, p in dist.items()}
    out[0] = out.get(0, Fraction(0)) + (1 - happens)
    return {k: p for k, p in sorted(out.items()) if p}


#: the option naming the squares a reaction walks (``[[x, y], ...]``, start first)
PATH = "path"


def walked_along(board: Board, attacker: int, options: Mapping[str, object]) -> Board:
    """The board a reaction attacks on: its monster walked along ``options["path"]`` (a copy),
    else ``board`` itself."""
    path = path_option(options)
    if len(path) < 2 or attacker not in board.figures:
        return board
    return walked(board, attacker, path)


def path_option(options: Mapping[str, object]) -> tuple[Square, ...]:
    """``options["path"]``: the squares a reaction walks, ``[[x, y], ...]`` (start first)."""
    raw = options.get(PATH)
    if not raw:
        return ()
    try:
        path = tuple((int(sq[0]), int(sq[1])) for sq in raw)  # type: ignore[attr-defined]
    except (TypeError, ValueError, IndexError, KeyError):
        raise UsageError(f"option path must be a list of [x, y] squares, not {raw!r}") from None
    return path
