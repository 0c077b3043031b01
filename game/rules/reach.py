"""Reach between two figures for rulesets with melee and ranged attacks: Close, LOS, distance.

Thin sentences around the sight facade (:mod:`game.core.sight`, pure), shared by the Conquest and
folklore rulesets: each function returns None when the attack may reach, or the reason (a sentence
fragment) when not. Line of sight is judged by the map's rule (its ``los_rule``), and a reason
under a rule other than the default names it.

>>> chebyshev((0, 0), (3, 2))
3
"""

from __future__ import annotations

from game.core import los, sight
from game.core.board import Board, Figure, Square, fmt_square


def chebyshev(a: Square, b: Square) -> int:
    """Distance in squares counting a diagonal step as one (king moves)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def close_reason(board: Board, attacker: Figure, target: Figure) -> str | None:
    """None when ``target`` is Close to ``attacker`` (same square, or an orthogonal neighbour across
    an open edge); otherwise why not."""
    if los.is_close(board, attacker.square, target.square):
        return None
    dist = chebyshev(attacker.square, target.square)
    if dist == 1 and board.grid.distance(attacker.square, target.square) == 1:
        return (
            f"not Close: a wall or closed door stands between {attacker.label} and {target.label}"
        )
    if dist == 1:
        return f"not Close: {target.label} is diagonal to {attacker.label} (Close is orthogonal)"
    return f"not Close: {target.label} is {dist} squares away from {attacker.label}"


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
