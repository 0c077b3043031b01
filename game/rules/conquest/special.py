"""Conquest: First Blood special rules as data-driven hooks (pure).

A figure lists its special rules in the ``rules`` property (a comma list). :data:`HOOKS` maps a
normalised rule name to what it does at three hook points; only Relentless Blows and Parry are
implemented (as in the seed's worked example). Every other rule is reported, not applied.

>>> [r.name for r in special_rules(Figure(1, "Knight", "HK", (0, 0), {"rules": "Parry, Cleave 1"}))]
['parry', 'cleave']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from game.core.board import Figure
from game.rules.conquest import dice as cd
from game.rules.figure_stats import stat_list


@dataclass(frozen=True)
class SpecialRule:
    """A special rule as a figure lists it: normalised name, optional value (``Cleave 1``)."""

    name: str
    value: int | None
    text: str

    @staticmethod
    def parse(text: str) -> SpecialRule:
        """Read ``"Relentless Blows"``, ``"cleave 1"``, ``"parry(2)"`` ...

        >>> SpecialRule.parse(" Cleave 2 ")
        SpecialRule(name='cleave', value=2, text='Cleave 2')
        >>> SpecialRule.parse("relentless_blows").name
        'relentless blows'
        """
        clean = text.strip()
        match = re.match(r"^(.*?)[\s(]*(\d+)\)?$", clean)
        name, value = (match.group(1), int(match.group(2))) if match else (clean, None)
        name = re.sub(r"[\s_\-]+", " ", name).strip().casefold()
        return SpecialRule(name, value, clean)


@dataclass(frozen=True)
class RuleHooks:
    """What a special rule does, by hook; a hook left None does nothing.

    * ``on_primary_die(face, rule) -> (reroll, extra_dice)``: per primary attack die;
    * ``modify_block_pool(dice, rule) -> dice``: the defender's Block dice count;
    * ``on_unblocked_hit(face, rule) -> extra_wounds``: per Hit that becomes a Wound.

    ``role`` is whose rule it is (``attacker`` or ``defender``); ``actions`` where it applies.
    """

    role: str
    actions: frozenset[str] = frozenset({"clash", "volley"})
    on_primary_die: Callable[[int, SpecialRule], tuple[bool, int]] | None = None
    modify_block_pool: Callable[[int, SpecialRule], int] | None = None
    on_unblocked_hit: Callable[[int, SpecialRule], int] | None = None
    summary: str = ""


#: implemented special rules (name → hooks). Add a rule here when its First Blood text is known.
HOOKS: dict[str, RuleHooks] = {
    "relentless blows": RuleHooks(
        "attacker",
        frozenset({"clash"}),
        on_primary_die=lambda face, rule: (False, 1 if face == 1 else 0),
        summary="each primary 1 adds one extra attack die",
    ),
    "parry": RuleHooks(
        "defender",
        frozenset({"clash", "volley"}),
        on_primary_die=lambda face, rule: (face == 1, 0),
        summary="attack dice of 1 against this warrior are re-rolled, in a Clash and a Volley",
    ),
}

#: special rules whose First Blood 3rd edition text is unknown (the seed names none of them; the
#: older wording of The Last Argument of Kings does not fit keep-lowest dice): listed, not applied
UNKNOWN_TEXT = ("cleave", "flurry", "torrential fire", "deadly blades", "brutal impact",
                "armour piercing", "support")

#: why Parry acts on a Volley too (docs/conquest.md: a decision with its reason)
PARRY_VOLLEY_REASON = (
    "Parry re-rolls the attack dice of 1 in a Volley too: the seed resolves a Clash and a Volley "
    "the same way, and the only text of Parry we have (v1: 'hit rolls of 1 made against this "
    "stand must be re-rolled') names no action, where Relentless Blows' names the Clash")


def special_rules(figure: Figure) -> list[SpecialRule]:
    """The special rules listed in the figure's ``rules`` property."""
    return [SpecialRule.parse(text) for text in stat_list(figure, "rules")]


@dataclass(frozen=True)
class ActiveRules:
    """The special rules that act in one attack: the attacker's and the defender's (each with its
    hooks), and the notes for rules that are listed but not implemented."""

    attacker: tuple[tuple[SpecialRule, RuleHooks], ...]
    defender: tuple[tuple[SpecialRule, RuleHooks], ...]
    skipped: tuple[str, ...] = field(default=())

    def all(self) -> tuple[tuple[SpecialRule, RuleHooks], ...]:
        """Attacker's rules, then the defender's."""
        return self.attacker + self.defender

    def effects(self) -> cd.PrimaryEffects:
        """What the ``on_primary_die`` hooks do to each face, for the exact odds."""
        reroll = [False] * cd.SIDES
        extra = [0] * cd.SIDES
        for rule, hooks in self.all():
            if hooks.on_primary_die is None:
                continue
            for face in range(1, cd.SIDES + 1):
                again, more = hooks.on_primary_die(face, rule)
                reroll[face - 1] = reroll[face - 1] or again
                extra[face - 1] += more
        return cd.PrimaryEffects(tuple(reroll), tuple(extra))


def active_rules(attacker: Figure, target: Figure, action: str) -> ActiveRules:
    """The rules of both warriors that apply to this action (``clash`` or ``volley``)."""
    mine: list[tuple[SpecialRule, RuleHooks]] = []
    theirs: list[tuple[SpecialRule, RuleHooks]] = []
    skipped: list[str] = []
    for who, figure, bucket in (("attacker", attacker, mine), ("defender", target, theirs)):
        for rule in special_rules(figure):
            hooks = HOOKS.get(rule.name)
            if hooks is None:
                skipped.append(
                    f"{rule.text} ({figure.label}'s special rule): its First Blood 3rd edition "
                    "text is unknown"
                )
            elif hooks.role == who and action in hooks.actions:
                bucket.append((rule, hooks))
    return ActiveRules(tuple(mine), tuple(theirs), tuple(skipped))
