"""The ruleset registry: the map property ``ruleset`` → a :class:`~game.rules.base.Ruleset`.

Each ruleset lives in ``game/rules/<name>/`` and exposes ``RULESET`` (an instance). To add
one, write the package and add a line to :data:`RULESETS`. Packages are imported lazily: a
map is never slowed down by the rules of another game.

>>> get_ruleset("arcadia").title
'Arcadia Quest'
>>> get_ruleset("chess")
Traceback (most recent call last):
...
game.core.errors.UsageError: unknown ruleset 'chess' (known: arcadia, mage_knight, conquest, folklore)
"""

from __future__ import annotations

import importlib

from game.core.errors import UsageError
from game.rules.base import Ruleset

#: ruleset name (as the map property writes it) → module under ``game.rules``
RULESETS: dict[str, str] = {
    "arcadia": "arcadia",
    "mage_knight": "mage_knight",
    "conquest": "conquest",
    "folklore": "folklore",
}

_ALIASES = {"arcadia_quest": "arcadia", "mageknight": "mage_knight", "mage-knight": "mage_knight"}
_CACHE: dict[str, Ruleset] = {}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive); UsageError naming the known ones otherwise."""
    key = (name or "arcadia").strip().lower()
    key = _ALIASES.get(key, key)
    if key in _CACHE:
        return _CACHE[key]
    if key not in RULESETS:
        raise UsageError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    module = importlib.import_module(f"game.rules.{RULESETS[key]}")
    ruleset = getattr(module, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise UsageError(f"the {key} ruleset module defines no RULESET")
    _CACHE[key] = ruleset
    return ruleset
