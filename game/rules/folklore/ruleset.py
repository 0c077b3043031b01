"""The ``folklore`` ruleset: the 2D6 TRPG of seed 002 (hit vs dodge, damage, HP, death checks).

Figures carry ``valour``, ``wits``, ``senses``, ``hp``, ``max_hp``, ``armour``, ``statuses``
(a comma list of bad-status tags) and ``weapons`` = ``"Sword:valour:2:melee; Spell:wits:1:ranged"``
(name : attribute used for the hit check : damage bonus : melee|ranged, then optional flags:
``maxhp`` = the damage lowers max HP instead of HP, ``+Tag`` = a hit inflicts bad status Tag).
Melee needs Close, ranged needs line of sight. The arithmetic is in
:mod:`game.rules.folklore.checks`.

Pools of a physical roll: ``hit`` (hit-check dice) | ``dodge`` | ``damage`` (1D6, then one D6 per 6 of a
critical hit check) | ``death`` (the death check's 2D6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.core.board import Board, Figure, Stat
from game.core.dice import D6, DiceSource, DieRoll
from game.core.errors import IllegalAttackError, UsageError
from game.rules.base import (
    AttackOption,
    AttackRequest,
    Choice,
    Condition,
    FigureChange,
    Legality,
    Odds,
    Resolution,
    Ruleset,
    RuleStatus,
    counts_faces,
    not_applied_clause,
    not_applied_steps,
)
from game.rules.figure_stats import (
    bool_problems,
    int_problems,
    parse_problem,
    short_repr,
    stat_bool,
    stat_int,
    stat_list,
)
from game.rules.folklore import checks as fc
from game.rules.folklore.skills import (
    Mods,
    Skill,
    parse_status_effects,
    reaction_skill,
    skills_of,
    status_mods,
)
from game.rules.reach import close_reason, sight_reason
from game.rules.steps import Flow, Stage, run_stages, stage_names

POOLS = ("hit", "dodge", "damage", "death")
#: the most hit-check dice: the exact odds stay quick
MAX_HIT_DICE = 30
HIT, DODGE, DAMAGE, DEATH = range(4)
_ATTRIBUTES = {
    "valour": "valour",
    "valor": "valour",
    "武勇": "valour",
    "wits": "wits",
    "才覚": "wits",
}


@dataclass(frozen=True)
class Weapon:
    """One weapon or attack skill: the attribute of its hit check, damage bonus, reach, flags."""

    name: str
    attribute: str
    bonus: int
    kind: str
    max_hp_damage: bool = False
    inflicts: tuple[str, ...] = ()


def parse_weapons(text: str, owner: str = "figure") -> list[Weapon]:
    """Read the ``weapons`` property: ``;``-separated ``Name:attribute:bonus:melee|ranged[:flags]``.

    >>> [w.name for w in parse_weapons("Sword:valour:2:melee; Spell:wits:1:ranged")]
    ['Sword', 'Spell']
    >>> parse_weapons("Curse:wits:0:ranged:maxhp:+Poison")[0].inflicts
    ('Poison',)
    >>> parse_weapons("Sword:strength:2:melee", "Aya")
    Traceback (most recent call last):
    ...
    game.core.errors.UsageError: Aya: weapon 'Sword:strength:2:melee': the hit check uses valour or wits, not 'strength'
    """
    weapons = []
    for item in (part.strip() for part in str(text).split(";")):
        if not item:
            continue
        fields = [f.strip() for f in item.split(":")]
        if len(fields) < 4:
            raise UsageError(f"{owner}: weapon {short_repr(item)} needs Name:valour|wits:bonus:melee|ranged")
        name, attribute, bonus, kind, *flags = fields
        attr = _ATTRIBUTES.get(attribute.lower())
        if attr is None:
            raise UsageError(
                f"{owner}: weapon {short_repr(item)}: the hit check uses valour or wits, not {short_repr(attribute)}"
            )
        if not bonus.lstrip("+-").isdigit() or len(bonus) > 7:
            raise UsageError(
                f"{owner}: weapon {short_repr(item)}: the damage bonus must be a whole number, not {short_repr(bonus)}"
            )
        if kind.lower() not in ("melee", "ranged"):
            raise UsageError(
                f"{owner}: weapon {short_repr(item)}: reach must be melee or ranged, not {short_repr(kind)}"
            )
        max_hp = any(f.lower() in ("maxhp", "max_hp") for f in flags)
        inflicts = tuple(f[1:].strip() for f in flags if f.startswith("+") and f[1:].strip())
        unknown = [
            f for f in flags if f and f.lower() not in ("maxhp", "max_hp") and not f.startswith("+")
        ]
        if unknown:
            raise UsageError(
                f"{owner}: weapon {short_repr(item)}: unknown flag {short_repr(unknown[0])} (maxhp or +Status)"
            )
        weapons.append(Weapon(name, attr, int(bonus), kind.lower(), max_hp, inflicts))
    return weapons


def _weapons(figure: Figure) -> list[Weapon]:
    return parse_weapons(str(figure.stats.get("weapons", "")), figure.label)


def _health(figure: Figure) -> fc.Health:
    hp = stat_int(figure, "hp")
    return fc.Health(
        hp,
        stat_int(figure, "max_hp", hp),
        stat_bool(figure, "incapacitated") or hp <= 0,
        stat_bool(figure, "dead"),
    )


def _statuses_at_work(fig: Figure, target: Figure, effects: Mapping[str, Mods]) -> tuple[str, ...]:
    """The bad statuses with a stated effect that change this attack: the attacker's on its hit
    and damage, the defender's on its dodge and armour (a status's other numbers act in other
    rolls), each with what it does here."""
    roles = ((fig, lambda m: Mods(hit=m.hit, damage=m.damage)), (target, lambda m: Mods(dodge=m.dodge, armour=m.armour)))
    out = []
    for who, part in roles:
        for tag in stat_list(who, "statuses"):
            found = effects.get(tag.casefold())
            words = part(found).words() if found is not None else ""
            if words:
                out.append(f"bad status {tag!r} of {who.label}: {words}")
    return tuple(out)


@dataclass(frozen=True)
class Setup:
    """What skills and bad statuses bring to one attack: the attack skill and the attacker's
    statuses (``attack``), the reaction skill and the defender's statuses (``defence``), and the
    rules that apply but are not modelled (statuses with no effect stated)."""

    skill: Skill | None = None
    reaction: Skill | None = None
    attack: Mods = Mods()
    defence: Mods = Mods()
    notes: tuple[str, ...] = ()
    #: the bad statuses at work, with what they do here (``bad status 'Poison' of Kiku: -1 hit``)
    statuses: tuple[str, ...] = ()

    def armour(self, target: Figure) -> int:
        """The target's armour with its statuses, never below 0 [ASSUMPTION]."""
        return max(0, stat_int(target, "armour") + self.defence.armour)


@dataclass(kw_only=True)
class _Attack(Flow):
    """One folklore attack being resolved: its inputs and what each stage leaves for the next."""

    dice: DiceSource
    fig: Figure
    target: Figure
    weapon: Weapon
    before: fc.Health
    #: the attack's and the defence's skills and bad statuses (:mod:`game.rules.folklore.skills`)
    setup: Setup = field(default_factory=lambda: Setup())
    hit: fc.CheckResult | None = None
    dodge: fc.CheckResult | None = None
    rolled: int = 0
    real: int = 0
    after: fc.Health | None = None
    death: fc.DeathCheck | None = None
    stats: dict[str, Stat | None] = field(default_factory=dict)


def _not_applied(flow: _Attack) -> None:
    """The rules that apply to this attack but are not modelled, one note each."""
    flow.steps.extend(not_applied_steps(flow.setup.notes, flow.stage))


def _hit_check(flow: _Attack) -> None:
    """The attacker's hit check: hit dice + the weapon's attribute (+ a skill's, a status's);
    first the bad statuses at work, with the effect the map states."""
    fig, weapon, setup = flow.fig, flow.weapon, flow.setup
    for words in setup.statuses:
        flow.log("note", f"{words[:1].upper()}{words[1:]}.")
    hit_mod = stat_int(fig, weapon.attribute) + setup.attack.hit
    hit_rolls = _roll(flow.dice, HIT, "hit", stat_int(fig, "hit_dice", 2) + setup.attack.hit_dice)
    flow.hit = hit = fc.check([int(r.face) for r in hit_rolls], hit_mod)
    using = f"{weapon.name}, {setup.skill.name}" if setup.skill else weapon.name
    extra = f" ({setup.attack.words()})" if setup.attack.words() else ""
    flow.log("roll", f"{fig.label}'s hit check ({using}){extra}: {_dice(hit)} + "
                     f"{_plus(weapon.attribute, stat_int(fig, weapon.attribute), setup.attack.hit)} = "
                     f"{hit.total}{_flag(hit)}.", hit_rolls)


def _dodge_check(flow: _Attack) -> None:
    """The target's dodge check (2D6 + senses, a reaction skill, statuses); none when it is
    incapacitated."""
    target, setup = flow.target, flow.setup
    if flow.before.incapacitated:
        flow.log("note", f"{target.label} is incapacitated: no dodge check.")
        return
    senses = stat_int(target, "senses") + setup.defence.dodge
    dodge_rolls = _roll(flow.dice, DODGE, "dodge", 2 + setup.defence.dodge_dice)
    flow.dodge = dodge = fc.check([int(r.face) for r in dodge_rolls], senses)
    skill = f" with {setup.reaction.name} (reaction)" if setup.reaction else ""
    extra = f" ({setup.defence.words()})" if setup.defence.words() else ""
    flow.log("roll", f"{target.label}'s dodge check{skill}{extra}: {_dice(dodge)} + "
                     f"{_plus('senses', stat_int(target, 'senses'), setup.defence.dodge)} "
                     f"= {dodge.total}{_flag(dodge)}.", dodge_rolls)


def _plus(attribute: str, value: int, bonus: int) -> str:
    """``wits 3 + 2``: an attribute and what skills and statuses add to it.

    >>> _plus("wits", 3, 2), _plus("senses", 4, -1), _plus("valour", 4, 0)
    ('wits 3 + 2', 'senses 4 - 1', 'valour 4')
    """
    if not bonus:
        return f"{attribute} {value}"
    return f"{attribute} {value} {'+' if bonus > 0 else '-'} {abs(bonus)}"


def _opposed(flow: _Attack) -> None:
    """Hit or miss (:func:`~game.rules.folklore.checks.opposed`); a miss ends the attack."""
    hit, dodge, before = flow.hit, flow.dodge, flow.before
    assert hit is not None
    verdict = fc.opposed(hit, dodge)
    flow.log("compare", f"{'Hit' if verdict.hit else 'Miss'}: {verdict.reason}.",
             data={"hit": verdict.hit})
    flow.outcome.update({
        "weapon": flow.weapon.name, "hit_total": hit.total, "critical": hit.critical,
        "fumble": hit.fumble, "dodge_total": None if dodge is None else dodge.total,
        "hit": verdict.hit, "damage": 0, "real_damage": 0, "hp": before.hp,
        "max_hp": before.max_hp, "incapacitated": before.incapacitated, "death_check": None,
        "dead": False,
    })
    if not verdict.hit:
        flow.summary = f"{flow.fig.label} misses {flow.target.label}: {verdict.reason}."
        flow.stop()


def _damage(flow: _Attack) -> None:
    """1D6 (+ a die per 6 of a critical hit check, + a skill's dice) + the weapon's bonus (+ a
    skill's, a status's), minus armour."""
    hit, weapon, setup = flow.hit, flow.weapon, flow.setup
    assert hit is not None
    extra = hit.sixes if hit.critical else 0
    base = 1 + setup.attack.damage_dice
    dmg_rolls = _roll(flow.dice, DAMAGE, "damage", base + extra,
                      reasons=["rolled"] * base + ["critical"] * extra)
    bonus = weapon.bonus + setup.attack.damage
    flow.rolled = rolled = sum(int(r.face) for r in dmg_rolls) + bonus
    armour = setup.armour(flow.target)
    flow.real = real = fc.real_damage(rolled, armour)
    crit_text = f" + {extra}D6 for the critical" if extra else ""
    flow.log(
        "damage",
        f"Damage {base}D6{crit_text} [{', '.join(str(r.face) for r in dmg_rolls)}] + {bonus} = "
        f"{rolled}, minus armour {armour}: {real} real damage"
        + (" to max HP." if weapon.max_hp_damage else "."),
        dmg_rolls,
        {"damage": rolled, "real": real},
    )
    mods = setup.attack
    if mods.after and mods.after_hp and real >= mods.after:
        flow.real = real + mods.after_hp
        flow.log("damage", f"{setup.skill.name if setup.skill else 'The skill'}: {real} real damage "
                           f"reaches {mods.after}, {mods.after_hp} more: {flow.real}.",
                 data={"real": flow.real})


def _hit_points(flow: _Attack) -> None:
    """The real damage lowers HP (or max HP, for a max-HP weapon)."""
    before, target, stats = flow.before, flow.target, flow.stats
    if flow.weapon.max_hp_damage:
        after = fc.take_max_hp_damage(before, flow.real)
        if "max_hp_base" not in target.stats and after.max_hp != before.max_hp:
            stats["max_hp_base"] = before.max_hp
    else:
        after = fc.take_damage(before, flow.real)
    flow.after = after
    stats["hp"] = after.hp
    stats["max_hp"] = after.max_hp
    flow.log("status", f"{target.label}: HP {before.hp} → {after.hp} (max {after.max_hp}).")


def _bad_statuses(flow: _Attack) -> None:
    """A hit inflicts the weapon's bad statuses (``+Tag`` flags), and a skill's when the real
    damage reaches its threshold (after N: +Tag)."""
    target, mods = flow.target, flow.setup.attack
    inflicts = list(flow.weapon.inflicts)
    if mods.after and mods.after_status and flow.real >= mods.after:
        inflicts += list(mods.after_status)
    if not inflicts:
        return
    tags = stat_list(target, "statuses")
    new = [t for t in dict.fromkeys(inflicts) if t not in tags]
    flow.stats["statuses"] = ", ".join(tags + new)
    if new:
        flow.log("status", f"{target.label} suffers {', '.join(new)}.")


def _death_check(flow: _Attack) -> None:
    """Max HP 0 is death; falling to 0 HP, or a hit while incapacitated, calls for a death check."""
    target, before, after = flow.target, flow.before, flow.after
    assert after is not None
    if after.dead:
        flow.log("status", f"{target.label}'s max HP falls to 0: {target.label} dies.")
    elif after.incapacitated:
        why = (
            "is hit while incapacitated"
            if before.incapacitated
            else f"falls to {after.hp} HP and is incapacitated"
        )
        death_rolls = _roll(flow.dice, DEATH, "death", 2)
        flow.death = death = fc.death_check([int(r.face) for r in death_rolls],
                                            stat_int(target, "valour"))
        flow.log(
            "status",
            f"{target.label} {why}: death check 2D6 [{', '.join(str(d) for d in death.dice)}] "
            f"against {death.target}: {death.reason}, {target.label} "
            f"{'survives' if death.survives else 'dies'}.",
            death_rolls,
        )


def _result(flow: _Attack) -> None:
    """The outcome, the target's new stats and the summary sentence."""
    fig, target, weapon, before, after, death = (
        flow.fig, flow.target, flow.weapon, flow.before, flow.after, flow.death)
    assert after is not None
    dead = after.dead or (death is not None and not death.survives)
    flow.stats["incapacitated"] = after.incapacitated or None
    if dead:
        flow.stats["dead"] = True
    flow.outcome.update({
        "damage": flow.rolled, "real_damage": flow.real, "hp": after.hp, "max_hp": after.max_hp,
        "incapacitated": after.incapacitated,
        "death_check": None if death is None
        else {"dice": list(death.dice), "target": death.target, "survives": death.survives},
        "dead": dead,
    })
    if weapon.max_hp_damage:
        harm = f"{flow.real} real damage to max HP, max HP {before.max_hp} → {after.max_hp}"
    else:
        harm = f"{flow.real} real damage, HP {before.hp} → {after.hp}"
    fate = ""
    if dead:
        fate = f"; {target.label} dies"
    elif after.incapacitated:
        fate = f"; {target.label} is incapacitated" + (
            " and survives the death check" if death is not None else "")
    flow.summary = f"{fig.label} hits {target.label} with {weapon.name}: {harm}{fate}."
    flow.changes.append(FigureChange(target.id, flow.stats))


#: a folklore attack, step by step (:mod:`game.rules.steps`)
STAGES: tuple[Stage[_Attack], ...] = (
    Stage("not applied", _not_applied),
    Stage("hit", _hit_check),
    Stage("dodge", _dodge_check),
    Stage("hit or miss", _opposed),
    Stage("damage", _damage),
    Stage("HP", _hit_points),
    Stage("bad status", _bad_statuses),
    Stage("death check", _death_check),
    Stage("result", _result),
)


class Folklore(Ruleset):
    """The 2D6 TRPG of seed 002: opposed hit and dodge checks, damage, HP and death checks."""

    name = "folklore"
    doc_page = "docs/folklore.md"
    title = "Folklore 2D6 TRPG"
    pools = POOLS
    face_names = None
    stages = stage_names(STAGES)
    known_properties = frozenset(
        {
            "side",
            "valour",
            "wits",
            "senses",
            "hp",
            "max_hp",
            "armour",
            "weapons",
            "statuses",
            "incapacitated",
            "dead",
            "hit_dice",
            "max_hp_base",
            "skills",
            "status_effects",
        }
    )
    assumptions = (
        "A check is 2D6 + the attribute (valour or wits for the hit check, senses for the dodge).",
        "A critical is two or more dice showing 6; a fumble is every die showing 1 (Arianrhod's rule; "
        "the source's check page was not found).",
        "Order of the opposed check: the defender's critical wins, then the attacker's fumble misses, "
        "the attacker's critical hits, the defender's fumble is hit, else the higher value hits and "
        "a tie goes to the defender.",
        "A critical hit adds one damage die per 6 on the hit-check dice; damage dice never chain.",
        "Incapacitated at HP 0 or less (the source also says 'below 0' once).",
        "An incapacitated figure cannot dodge; any hit on it calls for a death check.",
        "In a death check a critical always survives and a fumble always dies.",
        "Armour reduces max-HP damage as it reduces damage to HP: the source defines real damage "
        "as damage minus armour and max-HP damage as lowering max HP instead of HP, but does not "
        "say whether armour applies to the latter.",
        "Bad statuses are free-form tags: the source lists none; all are cleared at the end of combat. "
        "A status changes a roll only when the map states its effect (status_effects); armour "
        "lowered by a status never goes below 0.",
        "Skills are stated by the map (the source lists none): an attack skill is an attack made "
        "with a weapon; the defender uses its first reaction skill unless another (or none) is "
        "chosen; 'after N' effects read the real damage, before they add anything.",
        "Melee needs the target Close: the same cell or a neighbour across an open edge, on a "
        "square board (orthogonal) or a hex board (one of six); ranged needs line of sight only "
        "(the source counts no distances).",
    )
    grids = ("square", "hex")
    special_rules = (
        RuleStatus("Attack skills", "modelled", "an attack made with a skill: +N damage, +ND damage, "
                   "+N hit, +N hit dice"),
        RuleStatus("Reaction skills", "modelled", "the defender's skill in its dodge check: +N dodge, "
                   "+N dodge dice"),
        RuleStatus("After N or more damage", "modelled", "after N: +Tag or after N: lose M hp, once "
                   "the real damage is known"),
        RuleStatus("Other skill effects", "refused", "an effect outside the grammar is refused with "
                   "one line naming it"),
        RuleStatus("Bad statuses with a stated effect", "modelled", "status_effects: ±N hit, dodge, "
                   "damage or armour"),
        RuleStatus("Bad statuses without a stated effect", "noted", "the source lists none: a tag "
                   "with no effect stated changes nothing"),
        RuleStatus("Max-HP damage", "modelled", "a maxhp weapon lowers max HP"),
        RuleStatus("Death check", "modelled", "2D6 against 10 − valour at 0 HP or when hit while "
                   "incapacitated"),
    )

    def condition(self, figure: Figure) -> Condition:
        """HP lost of max HP; down when incapacitated or dead."""
        health = _health(figure)
        note = "dead" if health.dead else ("incapacitated" if health.incapacitated else "")
        lost = max(0, health.max_hp - max(0, health.hp))
        return Condition(max(0, health.max_hp), lost, health.dead or health.incapacitated, note)

    def figure_problems(self, figure: Figure) -> list[str]:
        """Unreadable ``weapons``, non-numeric numbers, negative armour / max HP, bad flags.

        >>> RULESET.figure_problems(Figure(1, "Aya", "red", (0, 0), {"weapons": "Sword", "hp": "x"}))
        ["weapon 'Sword' needs Name:valour|wits:bonus:melee|ranged", "property 'hp' must be a number, not 'x'"]
        """
        weapons = parse_problem(figure, lambda: _weapons(figure))
        return (
            (weapons or parse_problem(figure, lambda: _skill_weapons(figure)))  # skills: once weapons read
            + int_problems(
                figure,
                ("valour", "wits", "senses", "hp", "max_hp", "armour", "hit_dice", "max_hp_base"),
                non_negative=("max_hp", "armour", "hit_dice", "max_hp_base"),
            )
            + bool_problems(figure, ("incapacitated", "dead"))
        )

    def nonsense(self, figure: Figure) -> list[str]:
        """``hit_dice`` below 1 or above :data:`MAX_HIT_DICE`.

        >>> RULESET.nonsense(Figure(1, "Aya", "red", (0, 0), {"hit_dice": 0}))
        ["property 'hit_dice' is 0: a hit check rolls at least 1 die (give it 1 or more, or leave it out for 2D6)"]
        """
        if "hit_dice" not in figure.stats or str(figure.stats["hit_dice"]).strip() == "":
            return []
        dice = stat_int(figure, "hit_dice", 2)
        if dice < 1:
            return [f"property 'hit_dice' is {dice}: a hit check rolls at least 1 die (give it 1 or "
                    "more, or leave it out for 2D6)"]
        if dice > MAX_HIT_DICE:
            return [f"property 'hit_dice' is {dice}: more than the {MAX_HIT_DICE} dice the exact "
                    f"odds count (use {MAX_HIT_DICE} or fewer)"]
        return []

    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """The figure's weapons; none is usable while it is incapacitated or dead."""
        fig = board.figure(attacker)
        health = _health(fig)
        reason = ""
        if health.dead:
            reason = f"{fig.label} is dead"
        elif health.incapacitated:
            reason = f"{fig.label} is incapacitated and can do nothing"
        options = [AttackOption(w.name, w.kind, None, not reason, reason) for w in _weapons(fig)]
        for skill in skills_of(fig):
            if skill.timing == "attack":
                weapon = self._weapon(fig, skill.weapon)
                options.append(AttackOption(skill.name, weapon.kind, None, not reason, reason))
        return options

    def _weapon(self, fig: Figure, attack: str | None) -> Weapon:
        weapons = _weapons(fig)
        if not weapons:
            raise UsageError(
                f'{fig.label} has no weapons (property weapons = "Sword:valour:2:melee")'
            )
        if attack is None:
            return weapons[0]
        for weapon in weapons:
            if weapon.name.casefold() == attack.strip().casefold():
                return weapon
        skill = self._skill(fig, attack)
        if skill is not None:
            return self._weapon(fig, skill.weapon)
        names = ", ".join(w.name for w in weapons)
        skills = ", ".join(s.name for s in skills_of(fig) if s.timing == "attack")
        if skills:
            raise UsageError(f"{fig.label} has no weapon or attack skill {attack!r} "
                             f"(weapons: {names}; attack skills: {skills})")
        raise UsageError(f"{fig.label} has no weapon {short_repr(attack)} (weapons: {names})")

    @staticmethod
    def _skill(fig: Figure, attack: str | None) -> Skill | None:
        """The attack skill ``attack`` names (None: a weapon, or nothing named)."""
        if attack is None:
            return None
        for skill in skills_of(fig):
            if skill.timing == "attack" and skill.name.casefold() == attack.strip().casefold():
                return skill
        return None

    def _setup(self, board: Board, fig: Figure, target: Figure, attack: str | None,
               options: Mapping[str, object]) -> Setup:
        """The skills and bad statuses at work in this attack (:class:`Setup`)."""
        if not any(str(f.stats.get(k, "") or "").strip() for f in (fig, target) for k in ("skills", "statuses")):
            return Setup()  # neither has skills nor statuses: nothing to read
        effects = parse_status_effects(str(board.properties.get("status_effects", "") or ""))
        skill = self._skill(fig, attack)
        reaction = None if _health(target).incapacitated else reaction_skill(
            skills_of(target), options.get("dodge_skill"))
        mine, silent = status_mods(fig, effects)
        theirs, silent_too = status_mods(target, effects)
        attack_mods = (skill.mods if skill else Mods()).plus(Mods(hit=mine.hit, damage=mine.damage))
        defence = (reaction.mods if reaction else Mods()).plus(Mods(dodge=theirs.dodge, armour=theirs.armour))
        notes = tuple(f"bad status {tag!r} of {who.label}: no effect stated (map property status_effects)"
                      for who, tags in ((fig, silent), (target, silent_too)) for tag in tags)
        return Setup(skill, reaction, attack_mods, defence, notes, _statuses_at_work(fig, target, effects))

    def choices(self, board: Board, attacker: int, targets: Sequence[int]) -> list[Choice]:
        """The defender's reaction skill in its dodge check (``options["dodge_skill"]``), when it
        has one: by default its first; ``none`` for no skill."""
        if len(targets) != 1 or targets[0] not in board.figures:
            return []
        try:
            reactions = [s for s in skills_of(board.figure(targets[0])) if s.timing == "reaction"]
        except UsageError:  # malformed skills: the verdict says so
            return []
        if not reactions:
            return []
        values: list[tuple[str | None, str]] = [(None, f"{reactions[0].name} (first)"), ("none", "no skill")]
        values += [(s.name, f"{s.name} ({s.mods.words()})") for s in reactions]
        return [Choice("dodge_skill", "Dodge", tuple(values), None)]

    def not_applied(self, request: AttackRequest) -> tuple[str, ...]:
        """Bad statuses of the two figures that the map gives no effect."""
        board, attacker, targets, attack, options = request.parts()
        attack = self.named_attack(board, attacker, targets, attack, options)
        if not self.check(request.with_attack(attack)).legal:
            return ()
        fig, target = board.figure(attacker), board.figure(targets[0])
        return self._setup(board, fig, target, attack, options).notes

    def _why_not(
        self, board: Board, attacker: int, targets: Sequence[int], weapon: Weapon
    ) -> str | None:
        fig = board.figure(attacker)
        if len(targets) != 1:
            return "an attack targets exactly one figure"
        nonsense = self.nonsense_reason(board, [attacker, *targets])
        if nonsense:
            return nonsense.rstrip(".")
        target = board.figure(targets[0])
        me, them = _health(fig), _health(target)
        if target.id == fig.id:
            return f"{fig.label} cannot attack itself"
        if me.dead:
            return f"{fig.label} is dead"
        if me.incapacitated:
            return f"{fig.label} is incapacitated and can do nothing"
        if them.dead:
            return f"{target.label} is already dead"
        if target.side == fig.side:
            return f"{target.label} is an ally of {fig.label}"
        if weapon.kind == "melee":
            why = close_reason(board, fig, target)
            return f"{weapon.name} is a melee weapon: {why}" if why else None
        return sight_reason(board, fig, target)

    def check(self, request: AttackRequest) -> Legality:
        """Melee needs Close, ranged needs line of sight; the attacker must be able to act.

        No ``attack`` named: the first usable weapon legal on the target."""
        board, attacker, targets, attack, options = request.parts()
        if attack is None:
            attack, why = self.first_legal_attack(board, attacker, targets, options)
            if attack is None and why:
                return Legality(False, why)
        weapon = self._weapon(board.figure(attacker), attack)
        refusal = self._why_not(board, attacker, targets, weapon)
        if refusal:
            return Legality(False, refusal[0].upper() + refusal[1:] + ".")
        fig, target = board.figure(attacker), board.figure(targets[0])
        skill = self._skill(fig, attack)
        using = f"{skill.name} ({weapon.name})" if skill else weapon.name
        return Legality(True, f"{fig.label} can attack {target.label} with {using}.")

    @counts_faces
    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Hit check, dodge check, damage roll, HP, incapacitation and death check (:data:`STAGES`)."""
        board, attacker, targets, attack, options = request.parts()
        seed = getattr(dice, "seed", None)
        attack = self.named_attack(board, attacker, targets, attack, options)
        verdict = self.check(AttackRequest(board, attacker, targets, attack, options))
        if not verdict.legal:
            return Resolution.refused(verdict, seed=seed)
        fig, target = board.figure(attacker), board.figure(targets[0])
        flow = _Attack(dice=dice, fig=fig, target=target, weapon=self._weapon(fig, attack),
                       before=_health(target), setup=self._setup(board, fig, target, attack, options))
        return run_stages(STAGES, flow).resolution(verdict.reason, seed)

    def odds(self, request: AttackRequest) -> Odds:
        """Exact distribution of HP lost (max HP lost for a max-HP weapon), and the chances a
        player asks for: to hit, to be incapacitated, to die.

        ``kill`` is the chance the target ends down: incapacitated or dead (dead, if it was already
        incapacitated). Death comes from max HP falling to 0, or from the death check that falling
        to 0 HP, or any hit on an incapacitated figure (whatever the real damage), calls for.
        """
        board, attacker, targets, attack, options = request.parts()
        attack = self.named_attack(board, attacker, targets, attack, options)
        verdict = self.check(AttackRequest(board, attacker, targets, attack, options))
        if not verdict.legal:
            raise IllegalAttackError(verdict.reason)
        fig, target = board.figure(attacker), board.figure(targets[0])
        weapon = self._weapon(fig, attack)
        before = _health(target)
        setup = self._setup(board, fig, target, attack, options)
        mine, theirs = setup.attack, setup.defence
        args = (
            stat_int(fig, weapon.attribute) + mine.hit,
            None if before.incapacitated else stat_int(target, "senses") + theirs.dodge,
        )
        kw: dict[str, object] = {
            "bonus": weapon.bonus + mine.damage, "armour": setup.armour(target),
            "hit_dice": stat_int(fig, "hit_dice", 2) + mine.hit_dice, "dodge_dice": 2 + theirs.dodge_dice,
            "damage_dice": 1 + mine.damage_dice, "after": (mine.after, mine.after_hp) if mine.after_hp else (0, 0)}
        dist = fc.damage_distribution(*args, **kw)  # type: ignore[arg-type]
        on_hit = fc.damage_on_hit(*args, **kw)  # type: ignore[arg-type]
        p_hit = sum(on_hit.values(), Fraction(0))
        expected = sum((d * p for d, p in dist.items()), Fraction(0))
        p_check_dies = fc.death_chance(stat_int(target, "valour"))
        zeroed = Fraction(0)  # hit and max HP (max-HP weapon) or HP falls to 0
        for d, p in on_hit.items():
            left = (before.max_hp if weapon.max_hp_damage else before.hp) - d
            if left <= 0:
                zeroed += p
        if weapon.max_hp_damage:
            # max HP 0 is death; an incapacitated target hit otherwise makes the death check
            dies = zeroed + ((p_hit - zeroed) * p_check_dies if before.incapacitated else 0)
            incapacitated = Fraction(0)
        elif before.incapacitated:
            dies = p_hit * p_check_dies
            incapacitated = Fraction(0)
        else:
            incapacitated = zeroed
            dies = zeroed * p_check_dies
        down = dies if before.incapacitated or weapon.max_hp_damage else incapacitated
        chances: list[tuple[str, Fraction]] = [("hit", p_hit)]
        if not before.incapacitated and not weapon.max_hp_damage:
            chances.append(("incapacitated", incapacitated))
        chances.append(("killed (death)", dies))
        parts = []
        if before.incapacitated:
            parts.append(f"{target.label} is incapacitated: no dodge, and any hit calls for a death check")
        if weapon.max_hp_damage:
            parts.append(f"{weapon.name} lowers max HP; max HP 0 is death; armour reduces it too (an "
                         "assumption: the source does not say)")
        if setup.skill or setup.reaction:
            used = [f"{s.name} ({s.mods.words()})" for s in (setup.skill, setup.reaction) if s]
            parts.append("skills: " + ", ".join(used))
        if mine.after_status:
            parts.append(f"a real damage of {mine.after} or more inflicts {', '.join(mine.after_status)}")
        parts += [not_applied_clause(n) for n in setup.notes] + list(setup.statuses)
        parts.append(f"the 0 bucket holds misses and hits armour soaks (hit {float(p_hit) * 100:.1f}%)")
        parts.append(f"chance of death {float(dies):.4f}")
        return Odds(dist, expected, down, "HP lost", note="; ".join(parts),
                    chances=tuple(chances), kill_label="down")

    # --- actions -------------------------------------------------------------------------

    def actions(self, board: Board, side: str) -> list[str]:
        """``end combat`` clears bad statuses; ``end scene`` also restores max-HP damage."""
        return ["end combat", "end scene"]

    def perform(self, board: Board, action: str, side: str) -> tuple[FigureChange, ...]:
        """The changes of ``end combat`` / ``end scene`` for every figure on the board."""
        key = action.strip().lower().replace("_", " ")
        if key not in ("end combat", "end scene"):
            return super().perform(board, action, side)
        changes = []
        for fig in board.figures.values():
            stats: dict[str, Stat | None] = {}
            if stat_list(fig, "statuses"):
                stats["statuses"] = None
            if key == "end scene" and "max_hp_base" in fig.stats:
                stats["max_hp"] = stat_int(fig, "max_hp_base")
                stats["max_hp_base"] = None
            if stats:
                changes.append(FigureChange(fig.id, stats))
        return tuple(changes)


def _skill_weapons(figure: Figure) -> None:
    """UsageError when an attack skill names a weapon the figure does not have."""
    names = {w.name.casefold() for w in _weapons(figure)}
    for skill in skills_of(figure):
        if skill.timing == "attack" and skill.weapon.casefold() not in names:
            raise UsageError(f"{figure.label}: attack skill {skill.name!r} uses no weapon of "
                             f"{figure.label}'s: {skill.weapon!r}")


def _roll(
    dice: DiceSource, pool: int, name: str, count: int, reasons: Sequence[str] | None = None
) -> tuple[DieRoll, ...]:
    reasons = list(reasons) if reasons is not None else ["rolled"] * count
    return tuple(DieRoll(name, "d6", dice.roll(D6, pool), reason) for reason in reasons)


def _dice(result: fc.CheckResult) -> str:
    return "[" + ", ".join(str(d) for d in result.dice) + "]"


def _flag(result: fc.CheckResult) -> str:
    if result.critical:
        return " (critical)"
    if result.fumble:
        return " (fumble)"
    return ""


RULESET = Folklore()
