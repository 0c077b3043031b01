"""An attack and the reactions it calls for, resolved in order on a copy of the board (pure).

The ``attack`` command prints the whole exchange: the attack, then each reaction the rules call
for (:meth:`Ruleset.reactions <game.rules.base.Ruleset.reactions>`: Arcadia Quest's Guard and
Payback) as its next step, each resolved with the same dice source on the board as the steps
before it left it. The window plays the same reactions one at a time (each its own roll and its
own undo step: ``game/play/attack.py``).

>>> from game.core.board import Board, Figure
>>> from game.core.dice import SeededDice
>>> from game.rules.registry import get_ruleset
>>> board = Board.from_ascii(["...."])
>>> board.place_figure(Figure(1, "Mark", "red", (0, 0), {"attacks": "Bow:ranged:1", "life": 5}))
>>> board.place_figure(Figure(2, "Imp", "monsters", (3, 0), {"attacks": "Spit:ranged:1", "life": 9}))
>>> done = play_exchange(get_ruleset("arcadia"), AttackRequest(board, 1, [2], "Bow"), SeededDice(3))
>>> [r.kind for r, _ in done.reactions], board.figure(2).stats.get("wounds")
(['Payback'], None)
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.board import Board
from game.core.dice import DiceSource, ScriptedDice
from game.rules.base import AttackRequest, Reaction, Resolution, Ruleset


@dataclass(frozen=True)
class Exchange:
    """An attack's resolution, then each reaction with its resolution (an illegal one when the
    reaction could not be made: its reason says why; None when it was not rolled: a physical
    roll that gave no faces for it), and the board after all of them."""

    attack: Resolution
    reactions: tuple[tuple[Reaction, Resolution | None], ...]
    board: Board


def play_exchange(ruleset: Ruleset, request: AttackRequest, dice: DiceSource) -> Exchange:
    """Resolve ``request`` with ``dice``, then each reaction it calls for, on a copy of the
    board (``request.board`` is not changed). A reaction that cannot attack (no card in reach)
    gets an illegal resolution with its sentence. A physical roll (:class:`ScriptedDice`) whose
    faces the attack used up rolls no reaction: each is listed with None."""
    attack = ruleset.resolve(request, dice)
    board = request.board.copy()
    if not attack.legal:
        return Exchange(attack, (), board)
    ruleset.apply(board, attack)
    done: list[tuple[Reaction, Resolution | None]] = []
    unrolled = isinstance(dice, ScriptedDice) and not dice.leftover()
    for reaction in ruleset.reactions(board, request.with_board(board), attack):
        if reaction.attack is None:
            done.append((reaction, Resolution.illegal(reaction.why)))
            continue
        if unrolled:
            done.append((reaction, None))
            continue
        result = ruleset.resolve(reaction.request(board), dice)
        done.append((reaction, result))
        if result.legal:
            ruleset.apply(board, result)
    return Exchange(attack, tuple(done), board)
