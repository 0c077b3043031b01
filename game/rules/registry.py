"""The ruleset registry: the map property ``ruleset`` → a :class:`~game.rules.base.Ruleset`.

The one place game names live outside their own packages. Each ruleset lives in a package
(``game/rules/<name>/``) that exposes ``RULESET`` (an instance); :data:`RULESETS` maps the name a
map writes to that module, one line per game, and :data:`DEFAULT_RULESET` names the one a map
without the property plays. Packages are imported lazily: a map is never slowed down by the
rules of another game. What the rest of the house asks of a game, its ruleset declares:
diagonal counting (:attr:`Ruleset.diagonal_distance <game.rules.base.Ruleset.diagonal_distance>`,
asked through :func:`counts_diagonals`), the properties the linter knows
(``known_properties``), the values it refuses (``figure_problems``, ``nonsense``) and the page
its hints point to (``doc_page``).

>>> get_ruleset("arcadia").title
'Arcadia Quest'
>>> get_ruleset("").name == DEFAULT_RULESET
True
>>> counts_diagonals("conquest"), counts_diagonals("arcadia")
(True, False)
>>> get_ruleset("chess")
Traceback (most recent call last):
...
game.core.errors.UsageError: unknown ruleset 'chess' (known: arcadia, mage_knight, conquest, folklore)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from game.core.errors import UsageError
from game.rules.base import Ruleset

#: ruleset name (as the map property writes it) → the module that defines its ``RULESET``
RULESETS: dict[str, str] = {
    "arcadia": "game.rules.arcadia",
    "mage_knight": "game.rules.mage_knight",
    "conquest": "game.rules.conquest",
    "folklore": "game.rules.folklore",
}

#: the ruleset a map plays when it names none (a board's ``ruleset`` is then "")
DEFAULT_RULESET = "arcadia"

#: other spellings a map may use → the ruleset name
ALIASES: dict[str, str] = {
    "arcadia_quest": "arcadia",
    "mageknight": "mage_knight",
    "mage-knight": "mage_knight",
}

_CACHE: dict[str, Ruleset] = {}


def register_ruleset(name: str, module: str, *, aliases: Iterable[str] = ()) -> None:
    """Add a game: maps whose ``ruleset`` is ``name`` (or one of ``aliases``) play the
    ``RULESET`` of ``module`` (an importable module name), imported when first asked for.

    The same as a line in :data:`RULESETS`, for a game that lives outside this package (a
    plug-in, or a test's toy ruleset); :func:`forget_ruleset` takes it back out.
    """
    key = name.strip().lower()
    RULESETS[key] = module
    for alias in aliases:
        ALIASES[alias.strip().lower()] = key
    _CACHE.pop(key, None)


def forget_ruleset(name: str) -> None:
    """Remove a game added by :func:`register_ruleset` (and its aliases)."""
    key = name.strip().lower()
    RULESETS.pop(key, None)
    _CACHE.pop(key, None)
    for alias in [a for a, target in ALIASES.items() if target == key]:
        del ALIASES[alias]


def ruleset_names() -> tuple[str, ...]:
    """Every known ruleset name, in registry order."""
    return tuple(RULESETS)


def ruleset_key(name: str | None) -> str:
    """The registry name ``name`` means: lower case, aliases resolved, the default for none.

    >>> ruleset_key("Mage-Knight"), ruleset_key(""), ruleset_key("chess")
    ('mage_knight', 'arcadia', 'chess')
    """
    key = (name or DEFAULT_RULESET).strip().lower()
    return ALIASES.get(key, key)


def get_ruleset(name: str | None) -> Ruleset:
    """The ruleset called ``name`` (case-insensitive; "" or None: :data:`DEFAULT_RULESET`);
    UsageError naming the known ones otherwise."""
    key = ruleset_key(name)
    if key in _CACHE:
        return _CACHE[key]
    if key not in RULESETS:
        raise UsageError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    module = importlib.import_module(RULESETS[key])
    ruleset = getattr(module, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise UsageError(f"the {key} ruleset module defines no RULESET")
    _CACHE[key] = ruleset
    return ruleset


def counts_diagonals(name: str | None) -> bool:
    """Whether the ruleset ``name`` counts distances with a diagonal step as one (its
    ``diagonal_distance``); an unknown ruleset counts orthogonal steps only."""
    try:
        return get_ruleset(name).diagonal_distance
    except UsageError:
        return False
