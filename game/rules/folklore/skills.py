"""Skills and bad-status effects of the 2D6 TRPG of seed 002, as a map states them (pure).

The seed: an attack is made "with an action or a skill" (攻撃宣言ステップ), skills may raise or
lower the damage (ダメージロール), the defender may use ``[タイミング：リアクション]`` skills in its
dodge check, and effects that read "when N or more damage is dealt" act after the real damage
(実ダメージ後効果). It lists no skill and no bad status, so a map states them:

* figure property ``skills``: ``;``-separated skills, each ``NAME:attack:WEAPON:EFFECTS`` (an
  attack made with that weapon; it appears in the attack menu beside the weapons) or
  ``NAME:reaction:EFFECTS`` (used in the dodge check). EFFECTS, comma-separated:
  ``+N damage`` (or ``-N``), ``+ND damage`` (N more damage dice), ``+N hit``, ``+N hit dice``,
  ``+N dodge``, ``+N dodge dice``, ``after N: +Tag`` (real damage N or more inflicts bad status
  Tag) and ``after N: lose M hp`` (real damage N or more costs M more).
* map property ``status_effects``: ``;``-separated ``Tag: EFFECTS`` with ``±N hit``,
  ``±N dodge``, ``±N damage`` and ``±N armour``: a figure with bad status Tag (its ``statuses``)
  has them on its rolls. A status the map gives no effect changes nothing and is noted.

>>> [s.name for s in parse_skills("Power Strike:attack:Sword:+2 damage, +1D damage; Parry:reaction:+2 dodge", "Ren")]
['Power Strike', 'Parry']
>>> parse_effects("+1 hit dice, after 5: +Bleeding", "x")
Mods(hit=0, hit_dice=1, dodge=0, dodge_dice=0, damage=0, damage_dice=0, armour=0, after=5, after_status=('Bleeding',), after_hp=0)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from game.core.board import Figure
from game.core.errors import UsageError
from game.rules.figure_stats import stat_list

TIMINGS = ("attack", "reaction")
_EFFECT_RE = re.compile(r"^([+-]\s*\d{1,3})\s*(d\s+)?(damage|hit dice|hit|dodge dice|dodge|armour|armor)$")
_AFTER_RE = re.compile(r"^after\s+(\d{1,3})\s*:\s*(.+)$")
_LOSE_RE = re.compile(r"^lose\s+(\d{1,3})\s*hp$")
HINT = ("+N damage, +ND damage, +N hit, +N hit dice, +N dodge, +N dodge dice, after N: +Tag or "
        "after N: lose M hp")


@dataclass(frozen=True)
class Mods:
    """What skills or statuses add to one attack: to the hit check, the dodge, the damage roll,
    the armour; ``after`` (real damage N or more) inflicts ``after_status`` and costs ``after_hp``."""

    hit: int = 0
    hit_dice: int = 0
    dodge: int = 0
    dodge_dice: int = 0
    damage: int = 0
    damage_dice: int = 0
    armour: int = 0
    after: int = 0
    after_status: tuple[str, ...] = ()
    after_hp: int = 0

    def plus(self, other: Mods) -> Mods:
        """Both together (an ``after`` threshold: the first one stated)."""
        return Mods(self.hit + other.hit, self.hit_dice + other.hit_dice, self.dodge + other.dodge,
                    self.dodge_dice + other.dodge_dice, self.damage + other.damage,
                    self.damage_dice + other.damage_dice, self.armour + other.armour,
                    self.after or other.after, self.after_status + other.after_status,
                    self.after_hp + other.after_hp)

    def words(self) -> str:
        """``+2 damage, +1D damage`` (what the log says)."""
        parts = [f"{v:+d} {name}" for v, name in (
            (self.hit, "hit"), (self.hit_dice, "hit dice"), (self.dodge, "dodge"),
            (self.dodge_dice, "dodge dice"), (self.damage, "damage"), (self.armour, "armour")) if v]
        if self.damage_dice:
            parts.append(f"+{self.damage_dice}D damage")
        if self.after:
            then = [f"+{t}" for t in self.after_status] + ([f"lose {self.after_hp} hp"] if self.after_hp else [])
            parts.append(f"after {self.after}: {', '.join(then)}")
        return ", ".join(parts)


def parse_effects(text: str, where: str) -> Mods:
    """Comma-separated effects (the module docstring); UsageError naming ``where`` otherwise."""
    mods = Mods()
    for raw in (p.strip() for p in text.split(",")):
        if not raw:
            continue
        key = re.sub(r"\s+", " ", raw.lower())
        after = _AFTER_RE.match(key)
        if after:
            mods = mods.plus(_after(int(after.group(1)), raw.split(":", 1)[1].strip(), where))
            continue
        match = _EFFECT_RE.match(key.replace("+ ", "+").replace("- ", "-"))
        if match is None:
            raise UsageError(f"{where}: effect {raw!r} is not modelled ({HINT})")
        value, dice, what = int(match.group(1).replace(" ", "")), bool(match.group(2)), match.group(3)
        mods = mods.plus(_one(value, dice, what, raw, where))
    return mods


def _one(value: int, dice: bool, what: str, raw: str, where: str) -> Mods:
    if dice and what != "damage":
        raise UsageError(f"{where}: effect {raw!r} is not modelled ({HINT})")
    if dice:
        if value < 0:
            raise UsageError(f"{where}: effect {raw!r}: damage dice are added, not taken away")
        return Mods(damage_dice=value)
    if what in ("hit dice", "dodge dice") and value < 0:
        raise UsageError(f"{where}: effect {raw!r}: dice are added, not taken away")
    return {"damage": Mods(damage=value), "hit dice": Mods(hit_dice=value), "hit": Mods(hit=value),
            "dodge dice": Mods(dodge_dice=value), "dodge": Mods(dodge=value),
            "armour": Mods(armour=value), "armor": Mods(armour=value)}[what]


def _after(threshold: int, then: str, where: str) -> Mods:
    """``after N: +Tag`` or ``after N: lose M hp``."""
    if threshold < 1:
        raise UsageError(f"{where}: 'after {threshold}' must be 1 or more")
    if then.startswith("+") and then[1:].strip():
        return Mods(after=threshold, after_status=(then[1:].strip(),))
    lose = _LOSE_RE.match(then.lower())
    if lose:
        return Mods(after=threshold, after_hp=int(lose.group(1)))
    raise UsageError(f"{where}: after {threshold}: {then!r} is not modelled (+Tag or lose M hp)")


@dataclass(frozen=True)
class Skill:
    """A skill: its timing (``attack``: an attack with ``weapon``; ``reaction``: in the dodge)
    and what it adds."""

    name: str
    timing: str
    weapon: str
    mods: Mods


def parse_skills(text: str, owner: str) -> list[Skill]:
    """The ``skills`` property (the module docstring)."""
    out = []
    for item in (p.strip() for p in str(text).split(";")):
        if not item:
            continue
        fields = [f.strip() for f in item.split(":", 3)]
        timing = fields[1].lower() if len(fields) > 1 else ""
        where = f"{owner}: skill {item!r}"
        if timing == "attack" and len(fields) == 4 and fields[0] and fields[2]:
            out.append(Skill(fields[0], "attack", fields[2], parse_effects(fields[3], where)))
        elif timing == "reaction" and len(fields) >= 3 and fields[0]:
            out.append(Skill(fields[0], "reaction", "", parse_effects(":".join(fields[2:]), where)))
        else:
            raise UsageError(f"{where} is not NAME:attack:WEAPON:EFFECTS or NAME:reaction:EFFECTS")
    return out


def skills_of(figure: Figure) -> list[Skill]:
    """A figure's skills."""
    return parse_skills(str(figure.stats.get("skills", "") or ""), figure.label)


def parse_status_effects(text: str) -> dict[str, Mods]:
    """The map's ``status_effects``: bad-status tag (case-insensitive) → its effects.

    >>> parse_status_effects("Poison: -1 hit; Blind: -2 hit, -2 dodge")["blind"].dodge
    -2
    """
    out: dict[str, Mods] = {}
    for item in (p.strip() for p in str(text).split(";")):
        if not item:
            continue
        tag, sep, effects = item.partition(":")
        if not sep or not tag.strip():
            raise UsageError(f"map property status_effects: {item!r} is not Tag: EFFECTS (e.g. \"Poison: -1 hit\")")
        mods = parse_effects(effects, f"map property status_effects: {tag.strip()}")
        if mods.hit_dice or mods.dodge_dice or mods.damage_dice or mods.after:
            raise UsageError(f"map property status_effects: {tag.strip()}: a bad status changes hit, "
                             "dodge, damage or armour by a number")
        out[tag.strip().casefold()] = mods
    return out


def status_mods(figure: Figure, effects: Mapping[str, Mods]) -> tuple[Mods, tuple[str, ...]]:
    """What the figure's bad statuses add to its rolls, and the statuses with no effect stated."""
    mods, silent = Mods(), []
    for tag in stat_list(figure, "statuses"):
        found = effects.get(tag.casefold())
        if found is None:
            silent.append(tag)
        else:
            mods = mods.plus(found)
    return mods, tuple(silent)


def reaction_skill(skills: Sequence[Skill], choice: object) -> Skill | None:
    """The reaction skill the defender uses: ``choice`` (a name; ``none``: no skill), else its
    first one [ASSUMPTION: the defender uses its first reaction skill]."""
    reactions = [s for s in skills if s.timing == "reaction"]
    if choice in (None, ""):
        return reactions[0] if reactions else None
    key = str(choice).strip().casefold()
    if key == "none":
        return None
    for skill in reactions:
        if skill.name.casefold() == key:
            return skill
    names = ", ".join(s.name for s in reactions) or "none"
    raise UsageError(f"the defender has no reaction skill {choice!r} (reaction skills: {names})")
