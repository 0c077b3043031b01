"""Sightline: a tactical-board visualiser with exact line of sight.

The library face: read a Tiled map, ask line of sight (under the map's ``los_rule``, or a rule
named as the third argument), ask a ruleset for an attack's odds.

>>> import game
>>> board = game.Board(3, 3, walls=[game.Edge.parse("V(1,1)")])
>>> game.line_of_sight(board, (0, 1), (2, 1)).clear
False
>>> game.line_of_sight(board, (0, 0), (2, 0)).clear
True
>>> int(game.visible_from(board, (0, 1)).sum())
5
>>> game.line_of_sight(board, (0, 1), (2, 1), "corners").explain()[:21]
'Clear under corners: '
>>> game.get_ruleset(board.ruleset).title
'Arcadia Quest'

Reading a map: ``game.load_map("maps/demo.tmx").board`` (see the README's library section); a
map whose rules are a ruleset file (``ruleset = "file:..."``, docs/rulesets.md):
``game.load_with_rules("maps/skirmish.tmx").board``, whose ruleset ``game.get_ruleset`` then
knows; ``game.read_ruleset_file(path)`` reads one file.

Names are imported when first used, so ``import game`` is quick, prints nothing and pulls in no
pygame. The rooms behind the face are described in ``docs/architecture.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name → the module that defines it (``module:name`` when it is called another name
#: there: line of sight is the sight facade's ``line`` and ``field``, under the map's rule)
_EXPORTS: dict[str, str] = {
    "Board": "game.core.board",
    "Figure": "game.core.board",
    "Door": "game.core.board",
    "DoorState": "game.core.board",
    "Edge": "game.core.board",
    "Sight": "game.core.sight_result",
    "line_of_sight": "game.core.sight:line",
    "visible_from": "game.core.sight:field",
    "is_close": "game.core.los",
    "LoadedMap": "game.tiled",
    "load_map": "game.tiled",
    "load_with_rules": "game.play.ruleset_file",
    "read_ruleset_file": "game.play.ruleset_file",
    "get_ruleset": "game.rules.registry",
    "attack_odds": "game.rules.query",
    "SightlineError": "game.core.errors",
    "MapError": "game.core.errors",
    "UsageError": "game.core.errors",
    "IllegalAttackError": "game.core.errors",
    "bundled_maps": "game.resources",
}

__all__ = [
    "__version__",
    "Board",
    "Figure",
    "Door",
    "DoorState",
    "Edge",
    "Sight",
    "line_of_sight",
    "visible_from",
    "is_close",
    "LoadedMap",
    "load_map",
    "load_with_rules",
    "read_ruleset_file",
    "get_ruleset",
    "attack_odds",
    "SightlineError",
    "MapError",
    "UsageError",
    "IllegalAttackError",
    "bundled_maps",
]

if TYPE_CHECKING:
    from game.core.board import Board, Door, DoorState, Edge, Figure
    from game.core.errors import IllegalAttackError, MapError, SightlineError, UsageError
    from game.core.los import is_close
    from game.core.sight import field as visible_from
    from game.core.sight import line as line_of_sight
    from game.core.sight_result import Sight
    from game.play.ruleset_file import load_with_rules, read_ruleset_file
    from game.resources import bundled_maps
    from game.rules.query import attack_odds
    from game.rules.registry import get_ruleset
    from game.tiled import LoadedMap, load_map


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'game' has no attribute {name!r}")
    module, _, attribute = module.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
