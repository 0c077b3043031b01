"""Measuring on the board: distances in squares and movement reach. Pure: no files, no pygame.

Two ways of counting a distance between squares:

* **orthogonal steps** (Manhattan): how many edge-to-edge steps, the way figures move in the
  rulesets here;
* **with diagonals** (Chebyshev): a diagonal step counts as one, as some games count a ranged
  attack's range. Which games count so is theirs to say (``Ruleset.diagonal_distance``, asked
  through ``game.rules.registry.counts_diagonals``): the caller passes the answer in, and a
  ruleset without diagonal counting shows orthogonal steps only.

Movement **reach** is a breadth-first walk of steps across edges from a square (the board's grid
names the neighbours and the edge between them: orthogonal steps on squares): a step may not
cross a wall, a closed or locked door or a window (``Board.edge_blocks_movement``), nor enter a
void or blocked-terrain square, nor a square holding an enemy figure of the mover's side (no
side: every figure counts as an enemy, as for sight). Friends may be walked through.

>>> board = Board.from_ascii(["....", ".#..", "...."], walls=["V(2,0)"])
>>> orthogonal((0, 0), (3, 2)), with_diagonals((0, 0), (3, 2))
(5, 3)
>>> r = reach(board, (0, 0), 3)
>>> r[(0, 0)], r[(1, 0)], r[(1, 2)], (2, 0) in r, (1, 1) in r
(0, 1, 3, False, False)
>>> reach_rows(board, r, (0, 0))
['@1..', '1#..', '23..']
>>> sorted(reach(board, (0, 0), 9))[:3], reach(board, (0, 0), 9)[(2, 0)]
([(0, 0), (0, 1), (0, 2)], 6)
"""

from __future__ import annotations

from collections import deque

from game.core.board import Board, Square, is_enemy


def orthogonal(a: Square, b: Square) -> int:
    """Orthogonal steps between two squares (Manhattan distance).

    >>> orthogonal((2, 2), (2, 2)), orthogonal((1, 4), (4, 0))
    (0, 7)
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def with_diagonals(a: Square, b: Square) -> int:
    """Squares between two squares when a diagonal step counts as one (Chebyshev distance).

    >>> with_diagonals((1, 4), (4, 0))
    4
    """
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def distance_words(board: Board, a: Square, b: Square, diagonal: bool = False) -> str:
    """The ruler's sentence: orthogonal steps, plus the count with diagonal steps when the
    board's ruleset counts so (``diagonal``).

    >>> distance_words(Board(6, 6, ruleset="skirmish"), (0, 0), (3, 2), diagonal=True)
    '5 orthogonal steps; 3 squares counting a diagonal step as one (skirmish)'
    >>> distance_words(Board(6, 6), (0, 0), (0, 1))
    '1 orthogonal step'
    """
    steps = orthogonal(a, b)
    text = f"{steps} orthogonal step{'s' if steps != 1 else ''}"
    if diagonal:
        diag = with_diagonals(a, b)
        rules = f" ({board.ruleset})" if board.ruleset else ""
        text += f"; {diag} square{'s' if diag != 1 else ''} counting a diagonal step as one{rules}"
    return text


def ring(board: Board, centre: Square, radius: int, diagonal: bool = False) -> list[Square]:
    """The on-board squares exactly ``radius`` away from ``centre`` (a range ring).

    >>> ring(Board(5, 5), (2, 2), 1)
    [(2, 1), (1, 2), (3, 2), (2, 3)]
    >>> len(ring(Board(5, 5), (2, 2), 1, diagonal=True))
    8
    """
    measure = with_diagonals if diagonal else orthogonal
    x0, y0 = centre
    found = []
    for y in range(max(0, y0 - radius), min(board.height, y0 + radius + 1)):
        for x in range(max(0, x0 - radius), min(board.width, x0 + radius + 1)):
            if measure(centre, (x, y)) == radius and board.on_board((x, y)):
                found.append((x, y))
    return found


def can_step(board: Board, a: Square, b: Square, side: str | None, mover: int | None = None) -> bool:
    """Whether one step from ``a`` to the neighbour ``b`` (sharing an edge) is allowed (see module doc).

    ``mover`` is the moving figure's id (it never blocks itself).
    """
    if not board.in_bounds(b) or board.is_void(b) or board.is_blocked_terrain(b):
        return False
    if board.edge_blocks_movement(board.grid.edge_between(a, b)):
        return False
    return not any(f.id != mover and is_enemy(f, side) for f in board.figures_at(b))


def reach(
    board: Board, start: Square, steps: int, side: str | None = None, mover: int | None = None
) -> dict[Square, int]:
    """Every square reachable from ``start`` in at most ``steps`` orthogonal steps, with the
    fewest steps it takes (``start`` itself is 0). ``side`` is the mover's side (enemy figures
    stop it; None: every figure does); ``mover`` its figure id, if it is one."""
    if steps < 0:
        raise ValueError("steps must be 0 or more")
    found: dict[Square, int] = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        dist = found[here]
        if dist == steps:
            continue
        for nxt in board.grid.neighbours(here):
            if nxt not in found and can_step(board, here, nxt, side, mover):
                found[nxt] = dist + 1
                queue.append(nxt)
    return found


def reach_rows(board: Board, found: dict[Square, int], start: Square) -> list[str]:
    """The reach as text rows: ``@`` start, a digit (``+`` past 9) for the steps it takes, ``.``
    out of reach, ``#`` blocked terrain, ``~`` void."""
    rows = []
    for y in range(board.height):
        chars = []
        for x in range(board.width):
            sq = (x, y)
            if sq == start:
                chars.append("@")
            elif board.is_void(sq):
                chars.append("~")
            elif board.is_blocked_terrain(sq):
                chars.append("#")
            elif sq in found:
                chars.append(str(found[sq]) if found[sq] <= 9 else "+")
            else:
                chars.append(".")
        rows.append("".join(chars))
    return rows
