"""Ask a ruleset about figures by name: the library's shortcut to an attack's exact odds.

>>> from game.core.board import Board, Figure
>>> board = Board(3, 1, figures=[
...     Figure(1, "Rook", "heroes", (0, 0), {"attacks": "Sword:melee:3", "life": 3, "defense": 1}),
...     Figure(2, "Orc", "monsters", (1, 0), {"life": 2, "defense": 1})])
>>> odds = attack_odds(board, "Rook", "Orc")
>>> sum(odds.distribution.values()), odds.label
(Fraction(1, 1), 'wounds')
>>> attack_odds(board, "Orc", "Rook")
Traceback (most recent call last):
...
game.core.errors.IllegalAttackError: ...
"""

from __future__ import annotations

from collections.abc import Mapping

from game.core.board import Board
from game.core.errors import IllegalAttackError
from game.rules.base import AttackRequest, Odds
from game.rules.registry import get_ruleset


def attack_odds(
    board: Board,
    attacker: str,
    target: str,
    *,
    attack: str | None = None,
    ruleset: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Odds:
    """The exact outcome distribution of ``attacker`` attacking ``target`` (names or ``#ID``).

    ``ruleset`` defaults to the board's own (its map property ``ruleset``); ``attack`` to the first
    attack legal on the target; ``options`` are the ruleset's choices (e.g. ``{"phase": "ranged"}``
    for Mage Knight). Raises :class:`~game.core.errors.IllegalAttackError` with the rules' reason
    when the attack is not allowed, and :class:`~game.core.errors.UsageError` for an unknown name.
    """
    rules = get_ruleset(ruleset or board.ruleset)
    who = board.find_figure(attacker).id
    whom = [board.find_figure(target).id]
    request = AttackRequest(board, who, whom, attack, dict(options or {}))
    verdict = rules.check(request)
    if not verdict.legal:
        raise IllegalAttackError(verdict.reason)
    return rules.odds(request)
