"""Arcadia Quest attack cards as a map states them: kind, dice, rerolls and effects on a CRIT.

The figure property ``attacks`` lists the cards, ``;``-separated, each
``NAME:melee|ranged:DICE`` and then optional fields (docs/arcadia.md, "Card effects"):

* ``reroll=N``: N more rerolls for this card's attack roll (beside the figure's ``reroll``);
* ``on_crit=EFFECT``: what the card does when its attack roll shows a CRIT, besides the hit and
  the extra die every CRIT gives (seed 000: "the +1 and the extra die still apply"). EFFECT is
  ``+N hit`` (N more hits, saved as usual), ``+N wound`` (N more wounds after the saves) or
  ``daze`` (the target is Dazed after the attack); ``each`` after ``+N hit`` / ``+N wound``
  counts it for every CRIT, else it happens once when at least one CRIT is rolled. Several
  ``on_crit`` fields add up. Any other effect is refused with one line naming it.

>>> card = parse_card("Fancy Blade:melee:3:reroll=1:on_crit=+1 wound", "Kisha")
>>> card.name, card.dice, card.reroll, card.crit.wounds_once
('Fancy Blade', 3, 1, 1)
>>> parse_card("Nova Bolt:ranged:2:on_crit=second target", "Kisha")
Traceback (most recent call last):
...
game.core.errors.UsageError: Kisha: attack 'Nova Bolt:ranged:2:on_crit=second target': on_crit 'second target' is not modelled (+N hit, +N wound, +N hit each, +N wound each or daze)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.core.board import Figure
from game.core.errors import UsageError
from game.core.words import quoted

KINDS = ("melee", "ranged")
_HEAD_RE = re.compile(r"^\s*([^:]+?)\s*:\s*([A-Za-z]+)\s*:\s*(\d{1,7})\s*$")
_EFFECT_RE = re.compile(r"^\+\s*(\d{1,3})\s*(hits?|wounds?)(\s+each)?$")
#: the crit effects the grammar knows, for the refusal's hint
EFFECTS_HINT = "+N hit, +N wound, +N hit each, +N wound each or daze"


@dataclass(frozen=True)
class CritEffect:
    """What a card adds when its attack roll shows a CRIT: hits (saved as usual) and wounds
    (after the saves), once if any CRIT is rolled or for each CRIT; ``daze`` dazes the target."""

    hits_once: int = 0
    hits_each: int = 0
    wounds_once: int = 0
    wounds_each: int = 0
    daze: bool = False

    @property
    def any(self) -> bool:
        """Whether the card does anything on a CRIT."""
        return bool(self.hits_once or self.hits_each or self.wounds_once or self.wounds_each or self.daze)

    def plus(self, other: CritEffect) -> CritEffect:
        """Both effects together (several ``on_crit`` fields add up)."""
        return CritEffect(self.hits_once + other.hits_once, self.hits_each + other.hits_each,
                          self.wounds_once + other.wounds_once, self.wounds_each + other.wounds_each,
                          self.daze or other.daze)

    def words(self) -> str:
        """``+1 wound, daze`` (what the log and the odds note say)."""
        parts = []
        for n, what, each in ((self.hits_once, "hit", ""), (self.hits_each, "hit", " each"),
                              (self.wounds_once, "wound", ""), (self.wounds_each, "wound", " each")):
            if n:
                parts.append(f"+{n} {what}{'s' if n != 1 else ''}{each}")
        if self.daze:
            parts.append("daze")
        return ", ".join(parts)


def parse_effect(text: str) -> CritEffect | None:
    """One ``on_crit`` effect (None when the grammar does not know it).

    >>> parse_effect("+2 hits each"), parse_effect("Daze").daze, parse_effect("teleport")
    (CritEffect(hits_once=0, hits_each=2, wounds_once=0, wounds_each=0, daze=False), True, None)
    """
    key = re.sub(r"\s+", " ", text.strip().lower())
    if key == "daze":
        return CritEffect(daze=True)
    match = _EFFECT_RE.match(key)
    if match is None:
        return None
    n, what, each = int(match.group(1)), match.group(2), bool(match.group(3))
    if what.startswith("hit"):
        return CritEffect(hits_each=n) if each else CritEffect(hits_once=n)
    return CritEffect(wounds_each=n) if each else CritEffect(wounds_once=n)


@dataclass(frozen=True)
class AttackCard:
    """One attack card: name, kind (melee or ranged), dice shown on it, the rerolls it gives its
    own attack roll and what it does on a CRIT."""

    name: str
    kind: str
    dice: int
    reroll: int = 0
    crit: CritEffect = field(default_factory=CritEffect)


def parse_card(text: str, owner: str) -> AttackCard:
    """One card of the ``attacks`` property (see the module docstring)."""
    fields = text.split(":")
    match = _HEAD_RE.match(":".join(fields[:3]))
    if not match or match.group(2).lower() not in KINDS:
        raise UsageError(f"{owner}: attack {quoted(text)} is not NAME:melee|ranged:DICE "
                         f"(e.g. \"Dusty Blade:melee:3\")")
    reroll, crit = 0, CritEffect()
    for extra in (f.strip() for f in fields[3:]):
        key, _, value = (p.strip() for p in extra.partition("="))
        if key.lower() == "reroll" and value.isdigit() and len(value) <= 3:
            reroll += int(value)
        elif key.lower() == "on_crit":
            effect = parse_effect(value)
            if effect is None:
                raise UsageError(f"{owner}: attack {quoted(text)}: on_crit {quoted(value)} is not modelled "
                                 f"({EFFECTS_HINT})")
            crit = crit.plus(effect)
        else:
            raise UsageError(f"{owner}: attack {quoted(text)}: unknown field {quoted(extra)} "
                             "(reroll=N or on_crit=EFFECT)")
    return AttackCard(match.group(1), match.group(2).lower(), int(match.group(3)), reroll, crit)


def parse_attacks(figure: Figure) -> list[AttackCard]:
    """The attack cards of a figure, from its ``attacks`` property.

    >>> [(c.name, c.kind, c.dice) for c in parse_attacks(Figure(1, "Kisha", "blue", (0, 0),
    ...     {"attacks": "Short Bow:ranged:2; Fancy Blade:Melee:3"}))]
    [('Short Bow', 'ranged', 2), ('Fancy Blade', 'melee', 3)]
    """
    text = figure.stats.get("attacks")
    if text is None or str(text).strip() == "":
        return []
    return [parse_card(part, figure.label) for part in str(text).split(";") if part.strip()]
