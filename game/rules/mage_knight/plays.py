"""The typed-play grammar of the Mage Knight ruleset: what a player plays, as text.

Comma-separated items ``[TYPE] VALUE [ELEMENT]``: TYPE ranged|siege|attack|block|move (default:
block in the block phase, attack otherwise; ``move N`` spends Move points against a Cumbersome
enemy's attack), ELEMENT physical|fire|ice|coldfire (default physical). A
malformed item is one :class:`~game.core.errors.PlayError` (the item and what is wrong with it).
"""

from __future__ import annotations

import re

from game.core.errors import PlayError, UsageError
from game.rules.mage_knight import combat as mk

_ELEMENT_ALIASES = {
    "physical": "physical",
    "phys": "physical",
    "fire": "fire",
    "ice": "ice",
    "coldfire": "coldfire",
    "cold fire": "coldfire",
    "cold_fire": "coldfire",
    "cold-fire": "coldfire",
}
_ITEM_RE = re.compile(r"^(?:(?P<kind>[a-z]+)\s+)?(?P<value>\d+)(?:\s+(?P<element>[a-z_\- ]+))?$")


def norm_name(text: str) -> str:
    """Lower case, runs of spaces, ``_`` and ``-`` as one space: ``"Cold_Fire "`` → ``"cold fire"``."""
    return re.sub(r"[\s_\-]+", " ", text.strip().casefold())


def parse_element(text: str) -> str:
    """An element name: physical, fire, ice, coldfire (``cold fire`` accepted).

    >>> parse_element("Cold Fire")
    'coldfire'
    """
    key = _ELEMENT_ALIASES.get(norm_name(text)) or _ELEMENT_ALIASES.get(
        norm_name(text).replace(" ", "")
    )
    if key is None:
        raise UsageError(f"unknown element {text!r} (physical, fire, ice or coldfire)")
    return key


def parse_play(text: str, phase: str) -> list[mk.Play]:
    """Read a typed play: comma-separated items ``[TYPE] VALUE [ELEMENT]``.

    TYPE is ranged, siege, attack or block (default: block in the block phase, else attack),
    ELEMENT physical, fire, ice or coldfire (default physical).

    >>> [str(p) for p in parse_play("ranged 3 fire, siege 2", "ranged")]
    ['Ranged 3 fire', 'Siege 2 physical']
    >>> [str(p) for p in parse_play("6 ice, 2", "block")]
    ['Block 6 ice', 'Block 2 physical']
    >>> parse_play("ranged fire", "ranged")
    Traceback (most recent call last):
    ...
    game.core.errors.PlayError: the play 'ranged fire' is not [TYPE] VALUE [ELEMENT] (e.g. "ranged 3 fire, siege 2")
    >>> parse_play("ranged -3", "ranged")
    Traceback (most recent call last):
    ...
    game.core.errors.PlayError: the play 'ranged -3': values are whole numbers of 0 or more, not negative
    """
    default = "block" if phase == "block" else "attack"
    plays = []
    for raw in str(text).split(","):
        # keep "-": a minus sign is no separator ("ranged -3" is an error, not "ranged 3")
        item = re.sub(r"[\s_]+", " ", raw.strip().casefold())
        if not item:
            continue
        if re.search(r"-\s*\d", item):
            raise PlayError(raw.strip(), "values are whole numbers of 0 or more, not negative")
        match = _ITEM_RE.match(item)
        if not match:
            raise PlayError(raw.strip())
        kind = match.group("kind") or default
        if kind not in mk.PLAY_TYPES:
            raise PlayError(raw.strip(), f"unknown type {kind!r} (ranged, siege, attack, block or move)")
        try:
            element = parse_element(match.group("element") or "physical")
        except UsageError as exc:
            raise PlayError(raw.strip(), str(exc)) from None
        plays.append(mk.Play(kind, int(match.group("value")), element))
    return plays
