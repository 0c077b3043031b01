"""The danger map worked out by brute force, the threat solver's judge."""

from __future__ import annotations

from game.core import measure
from game.core.board import Board, Figure
from game.designer.threats import (
    ANSWER_KINDS,
    move_of,
)
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset


def _brute_danger(board: Board, figure: int, square: tuple[int, int]) -> tuple[int, int]:
    """How many enemies could attack ``figure`` on ``square`` now, and by next turn (moving first
    on the board without the figure), asking ``check`` on every square of their reach."""
    ruleset = get_ruleset(board.ruleset)
    f = board.figure(figure)
    bare = board.copy()
    bare.remove_figure(figure)
    placed = bare.copy()
    placed.place_figure(Figure(f.id, f.name, f.side, square, f.stats))
    now = later = 0
    for enemy in list(bare.figures.values()):
        if figure not in ruleset.targets(placed, enemy.id):
            continue
        names = [o.name for o in ruleset.attacks(placed, enemy.id) if o.usable and o.kind not in ANSWER_KINDS]

        def can(on: Board, enemy_id: int = enemy.id, names: list[str] = names) -> bool:
            return any(ruleset.check(AttackRequest(on, enemy_id, [figure], n)).legal for n in names)

        here = can(placed)
        there = here
        if not there:
            for spot in measure.reach(bare, enemy.square, move_of(enemy), enemy.side, enemy.id):
                if spot == enemy.square or bare.can_enter(enemy.id, spot) is not None:
                    continue
                moved = placed.copy()
                if moved.can_enter(enemy.id, spot) is not None:
                    continue
                moved.move_figure(enemy.id, spot)
                if can(moved):
                    there = True
                    break
        now += here
        later += there
    return now, later

