"""Mage Knight combat arithmetic: attacks, blocks, damage assignment, PvP (pure functions).

Everything here follows the rulebook transcription summarised in ``docs/mage-knight.md``
Part 1 (MK-RB). The ruleset (``game.rules.mage_knight.ruleset``) reads figures and the typed play and
calls these functions; they know nothing about boards.

>>> prowlers = Enemy("Prowlers", armor=3, attack=4, fame=2)
>>> attack_result([Play("ranged", 3)], [prowlers], phase="ranged").defeated
True
>>> block_result([Play("block", 6, "ice")], Enemy("Fire Mages", 5, 6, "fire")).blocked
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ELEMENTS: tuple[str, ...] = ("physical", "fire", "ice", "coldfire")
PLAY_TYPES: tuple[str, ...] = ("ranged", "siege", "attack", "block", "move")
#: a city's colour → what it gives its defenders (MK-RB "City bonuses")
CITY_COLOURS: tuple[str, ...] = ("white", "blue", "red", "green")
PHASES: tuple[str, ...] = ("ranged", "block", "assign", "attack")
RESISTANCES: tuple[str, ...] = ("physical", "fire", "ice")

#: block elements that are efficient against an enemy attack of each element (MK-RB §1.4).
EFFICIENT_BLOCKS: dict[str, frozenset[str]] = {
    "physical": frozenset(ELEMENTS),
    "fire": frozenset({"ice", "coldfire"}),
    "ice": frozenset({"fire", "coldfire"}),
    "coldfire": frozenset({"coldfire"}),
}


@dataclass(frozen=True)
class Play:
    """One attack or block value a player plays: ``kind`` ranged|siege|attack|block, an element.

    >>> str(Play("siege", 2, "fire"))
    'Siege 2 fire'
    """

    kind: str
    value: int
    element: str = "physical"

    def __str__(self) -> str:
        if self.kind == "move":
            return f"Move {self.value}"
        return f"{self.kind.capitalize()} {self.value} {self.element}"


@dataclass(frozen=True)
class Enemy:
    """An enemy token: Armor (and elusive Armor), Attack(s) with an element, Fame, abilities.

    ``more_attacks`` lists the extra attacks of a token with several (``attack`` is the first).
    ``site`` is True when the enemy defends a fortified site (keep, mage tower, city); ``blocked``
    when all its attacks were blocked this combat (Elusive).
    """

    name: str
    armor: int
    attack: int = 0
    element: str = "physical"
    fame: int = 0
    abilities: frozenset[str] = frozenset()
    resistances: frozenset[str] = frozenset()
    elusive_armor: int | None = None
    site: bool = False
    more_attacks: tuple[int, ...] = ()
    figure_id: int | None = None
    blocked: bool = False
    #: Armor added for the rest of the combat (Vampiric, a white city): both Armor values
    armor_bonus: int = 0

    @property
    def attacks(self) -> tuple[int, ...]:
        """Every attack value of the token, in order."""
        return (self.attack, *self.more_attacks)

    def has(self, ability: str) -> bool:
        """Whether the token has an ability (``swift``, ``brutal``, ``fortified`` ...)."""
        return ability in self.abilities

    def fortification(self) -> int:
        """0 unfortified, 1 fortified, 2 double-fortified (Fortified ability on a fortified site).

        >>> Enemy("Guardsmen", 7, abilities=frozenset({"fortified"}), site=True).fortification()
        2
        >>> Enemy("Shocktroops", 3, abilities=frozenset({"unfortified"}), site=True).fortification()
        0
        """
        level = 1 if self.has("fortified") else 0
        if self.site and not self.has("unfortified"):
            level += 1
        return level

    @property
    def elusive(self) -> bool:
        """Elusive: two Armor values (``elusive_armor`` is the higher one)."""
        return self.elusive_armor is not None or self.has("elusive")

    def armor_in(self, phase: str, all_blocked: bool = False) -> int:
        """The Armor that counts: an Elusive enemy uses the lower value only in the attack phase
        and only if all its attacks were blocked (MK-RB §1.6).

        >>> e = Enemy("Shocktroops", 3, elusive_armor=6)
        >>> e.armor_in("ranged"), e.armor_in("attack", all_blocked=True), e.armor_in("attack")
        (6, 3, 6)
        """
        if self.elusive_armor is None:
            return self.armor + self.armor_bonus
        if phase == "attack" and all_blocked:
            return min(self.armor, self.elusive_armor) + self.armor_bonus
        return max(self.armor, self.elusive_armor) + self.armor_bonus


@dataclass(frozen=True)
class Tally:
    """Pooled attack or block points: efficient ones count fully, inefficient ones are halved once."""

    efficient: int
    inefficient: int
    efficient_plays: tuple[Play, ...] = ()
    inefficient_plays: tuple[Play, ...] = ()

    @property
    def total(self) -> int:
        """``efficient + floor(inefficient / 2)``: the whole inefficient pool is halved once."""
        return self.efficient + self.inefficient // 2


@dataclass(frozen=True)
class AttackResult:
    """An attack against one or several enemies: its tally against the summed Armor."""

    tally: Tally
    armor: int
    armors: tuple[int, ...]
    defeated: bool
    fame: int
    halved_elements: frozenset[str]

    @property
    def effective(self) -> int:
        """The attack total after halving the inefficient pool."""
        return self.tally.total


@dataclass(frozen=True)
class BlockResult:
    """A block against one enemy attack: all or nothing; ``damage`` is what gets through."""

    tally: Tally
    needed: int
    blocked: bool
    damage: int

    @property
    def block(self) -> int:
        """The block total after halving the inefficient pool."""
        return self.tally.total


def split_efficiency(plays: Iterable[Play], inefficient_elements: Iterable[str]) -> Tally:
    """Sort plays into efficient and inefficient by element and pool each side.

    >>> split_efficiency([Play("attack", 3), Play("attack", 3, "fire"), Play("attack", 1, "ice")],
    ...                  {"physical", "fire"}).total
    4
    """
    bad = frozenset(inefficient_elements)
    eff = tuple(p for p in plays if p.element not in bad)
    ineff = tuple(p for p in plays if p.element in bad)
    return Tally(sum(p.value for p in eff), sum(p.value for p in ineff), eff, ineff)


def halved_elements(targets: Sequence[Enemy]) -> frozenset[str]:
    """The attack elements that are inefficient against this group of targets.

    One resistant target halves that element for the whole group; Cold Fire is halved only when a
    single target has both Fire and Ice Resistance (a union over targets is wrong: MK-6).

    >>> sorted(halved_elements([Enemy("a", 1, resistances=frozenset({"fire"})),
    ...                         Enemy("b", 1, resistances=frozenset({"ice"}))]))
    ['fire', 'ice']
    >>> "coldfire" in halved_elements([Enemy("Dragon", 9, resistances=frozenset({"fire", "ice"}))])
    True
    """
    halved: set[str] = set()
    for enemy in targets:
        halved |= enemy.resistances & set(RESISTANCES)
        if {"fire", "ice"} <= enemy.resistances:
            halved.add("coldfire")
    return frozenset(halved)


def attack_legality(plays: Sequence[Play], targets: Sequence[Enemy], phase: str) -> str | None:
    """Why this attack may not be made (None when it may): phases, fortification, play types.

    >>> diggers = Enemy("Diggers", 3, abilities=frozenset({"fortified"}))
    >>> attack_legality([Play("ranged", 5)], [diggers], "ranged")
    'ranged attacks cannot be used while a target is fortified (Diggers): use siege attacks only'
    >>> attack_legality([Play("siege", 3)], [diggers], "ranged") is None
    True
    """
    if not targets:
        return "an attack needs at least one target"
    if phase not in ("ranged", "attack"):
        return f"attacks are made in the ranged or attack phase, not the {phase} phase"
    for play in plays:
        if play.kind in ("block", "move"):
            what = "a block: blocks" if play.kind == "block" else "Move points: they"
            return f"{play} is {what} are played in the block phase"
        if phase == "ranged" and play.kind == "attack":
            return f"{play} is a plain attack: only ranged and siege attacks are used in the ranged phase"
    if phase == "ranged":
        double = [e.name for e in targets if e.fortification() >= 2]
        if double:
            return (
                f"{', '.join(double)} {'is' if len(double) == 1 else 'are'} double-fortified "
                "(Fortified ability on a fortified site): no attack can target "
                f"{'it' if len(double) == 1 else 'them'} in the ranged and siege phase"
            )
        fortified = [e.name for e in targets if e.fortification() >= 1]
        if fortified and any(p.kind == "ranged" for p in plays):
            return (
                f"ranged attacks cannot be used while a target is fortified ({', '.join(fortified)}): "
                "use siege attacks only"
            )
    return None


def attack_result(
    plays: Sequence[Play],
    targets: Sequence[Enemy],
    *,
    phase: str,
    blocked: Iterable[str] = (),
) -> AttackResult:
    """Pool the plays against the targets' summed Armor (legality is :func:`attack_legality`'s job).

    Elusive enemies whose attacks were all blocked (``Enemy.blocked``, or named in ``blocked``)
    use their lower Armor in the attack phase. Success defeats every target and scores the Fame
    of each.

    >>> golems = Enemy("Fire Golems", 4, 3, "fire", 5, resistances=frozenset({"fire", "physical"}))
    >>> r = attack_result([Play("attack", 3), Play("attack", 3, "fire"), Play("attack", 1, "ice")],
    ...                   [golems], phase="attack")
    >>> r.effective, r.armor, r.defeated, r.fame
    (4, 4, True, 5)
    """
    blocked_names = set(blocked)
    halved = halved_elements(targets)
    tally = split_efficiency(plays, halved)
    armors = tuple(e.armor_in(phase, e.blocked or e.name in blocked_names) for e in targets)
    armor = sum(armors)
    defeated = tally.total >= armor
    fame = sum(e.fame for e in targets) if defeated else 0
    return AttackResult(tally, armor, armors, defeated, fame, halved)


def block_legality(plays: Sequence[Play], targets: Sequence[Enemy]) -> str | None:
    """Why this block may not be made: one enemy per block, block values only.

    >>> block_legality([Play("block", 3)], [Enemy("a", 1), Enemy("b", 1)])
    'a block is against a single enemy: block a and b one at a time'
    """
    if len(targets) != 1:
        if not targets:
            return "a block needs one enemy to block"
        names = ", ".join(e.name for e in targets[:-1]) + f" and {targets[-1].name}"
        return f"a block is against a single enemy: block {names} one at a time"
    for play in plays:
        if play.kind == "move" and not targets[0].has("cumbersome"):
            return (f"{play} spends Move points, which lower only a Cumbersome enemy's attack "
                    f"({targets[0].name} is not Cumbersome)")
        if play.kind not in ("block", "move"):
            return f"{play} is not a block: only blocks are played in the block phase"
    return None


def block_result(plays: Sequence[Play], enemy: Enemy, attack: int | None = None) -> BlockResult:
    """Block one enemy attack: efficiency by the attack's element, Swift doubles the requirement,
    all or nothing; an unblocked attack deals its full value (doubled by Brutal). Move points
    (``move`` plays) first lower a Cumbersome enemy's attack, 1 each; reduced to 0 it counts as
    blocked.

    >>> wolf = Enemy("Wolf Riders", 4, 3, abilities=frozenset({"swift"}))
    >>> r = block_result([Play("block", 5)], wolf)
    >>> r.block, r.needed, r.blocked, r.damage
    (5, 6, False, 3)
    >>> ogre = Enemy("Ogre", 4, 5, abilities=frozenset({"cumbersome"}))
    >>> r = block_result([Play("move", 2), Play("block", 3)], ogre)
    >>> r.needed, r.blocked, block_result([Play("move", 5)], ogre).blocked
    (3, True, True)
    """
    value = enemy.attack if attack is None else attack
    value = max(0, value - sum(p.value for p in plays if p.kind == "move"))
    efficient = EFFICIENT_BLOCKS[enemy.element]
    tally = split_efficiency([p for p in plays if p.kind != "move"], set(ELEMENTS) - efficient)
    needed = value * 2 if enemy.has("swift") else value
    blocked = value == 0 or tally.total >= needed
    return BlockResult(tally, needed, blocked, 0 if blocked else unblocked_damage(enemy, value))


def unblocked_damage(enemy: Enemy, attack: int | None = None) -> int:
    """The damage an unblocked attack deals: its value, doubled by Brutal.

    >>> unblocked_damage(Enemy("Ironclads", 3, 4, abilities=frozenset({"brutal"})))
    8
    """
    value = enemy.attack if attack is None else attack
    return value * 2 if enemy.has("brutal") else value


# --- damage assignment ---------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A Unit that can absorb damage: Armor, resistances, and its state this combat."""

    name: str
    armor: int
    resistances: frozenset[str] = frozenset()
    wounded: bool = False
    absorbed: bool = False
    figure_id: int | None = None

    def resists(self, element: str) -> bool:
        """Physical vs physical, Fire vs Fire, Ice vs Ice, both Fire and Ice vs Cold Fire."""
        if element == "coldfire":
            return {"fire", "ice"} <= self.resistances
        return element in self.resistances

    @property
    def can_take_damage(self) -> bool:
        """Unwounded and not already used to absorb damage without a wound this combat."""
        return not self.wounded and not self.absorbed


@dataclass(frozen=True)
class UnitDamage:
    """What one Unit took: wound cards, destroyed (Paralyze), damage absorbed."""

    name: str
    absorbed: int
    wounds: int
    destroyed: bool
    no_wound_used: bool
    figure_id: int | None = None


@dataclass(frozen=True)
class HeroDamage:
    """What the Hero took: Wounds into the hand, Poison's extra Wounds into the discard pile,
    and whether all non-Wound cards are discarded (Paralyze or a knock-out)."""

    damage: int
    wounds_in_hand: int
    wounds_in_discard: int
    knocked_out: bool
    paralyzed: bool
    wounds_this_combat: int


@dataclass(frozen=True)
class Assignment:
    """The assignment of one enemy's damage to Units (in the order chosen) and the Hero."""

    damage: int
    units: tuple[UnitDamage, ...] = ()
    hero: HeroDamage | None = None
    notes: tuple[str, ...] = field(default=())


def hero_wounds(damage: int, armor: int) -> int:
    """Wounds a Hero takes: one per full or partial Armor's worth, ``ceil(damage / armor)``.

    >>> hero_wounds(8, 2), hero_wounds(8, 3), hero_wounds(1, 2), hero_wounds(0, 2)
    (4, 3, 1, 0)
    """
    if damage <= 0:
        return 0
    return -(-damage // max(armor, 1))


def damage_to_unit(unit: Unit, damage: int, enemy: Enemy) -> tuple[UnitDamage, int]:
    """Assign damage to one unwounded Unit; returns what it took and the damage left.

    Resistant Units first absorb their Armor without a wound; otherwise (or if damage remains) the
    Unit is wounded (two Wounds with Poison, destroyed with Paralyze) and absorbs its Armor.

    >>> u = Unit("Guardian", 4, frozenset({"fire"}))
    >>> fire = Enemy("Fire Mages", 5, 6, "fire")
    >>> damage_to_unit(u, 6, fire)[0].wounds, damage_to_unit(u, 6, fire)[1]
    (1, 0)
    >>> taken, left = damage_to_unit(u, 3, fire)
    >>> taken.wounds, taken.no_wound_used, left
    (0, True, 0)
    """
    left = damage
    absorbed = 0
    if unit.resists(enemy.element):
        step = min(left, unit.armor)
        absorbed += step
        left -= step
        if left <= 0:
            return UnitDamage(unit.name, absorbed, 0, False, True, unit.figure_id), 0
    step = min(left, unit.armor)
    absorbed += step
    left -= step
    destroyed = enemy.has("paralyze")
    wounds = 2 if enemy.has("poison") else 1
    return UnitDamage(unit.name, absorbed, wounds, destroyed, False, unit.figure_id), left


def damage_to_hero(
    damage: int,
    enemy: Enemy,
    *,
    armor: int,
    hand_limit: int,
    wounds_before: int = 0,
) -> HeroDamage:
    """Wounds into the Hero's hand (``ceil(damage / armor)``), Poison's copies into the discard
    pile, Paralyze's discard, and a knock-out when this combat's Wounds in hand reach the hand limit.

    >>> h = damage_to_hero(3, Enemy("Cursed Hags", 5, 3, abilities=frozenset({"poison"})),
    ...                    armor=2, hand_limit=5)
    >>> h.wounds_in_hand, h.wounds_in_discard, h.knocked_out
    (2, 2, False)
    """
    wounds = hero_wounds(damage, armor)
    discard = wounds if enemy.has("poison") else 0
    total = wounds_before + wounds
    knocked_out = total >= hand_limit and wounds > 0
    paralyzed = enemy.has("paralyze") and wounds >= 1
    return HeroDamage(damage, wounds, discard, knocked_out, paralyzed, total)


def assign_damage(
    enemy: Enemy,
    damage: int,
    units: Sequence[Unit],
    *,
    hero_armor: int,
    hand_limit: int,
    wounds_before: int = 0,
) -> Assignment:
    """Assign all of one enemy's damage: to the given Units in order, the rest to the Hero.

    Wounded or already used Units are skipped; Assassination sends everything to the Hero.

    >>> a = assign_damage(Enemy("Orcs", 3, 5), 5, [Unit("Peasants", 3)], hero_armor=2, hand_limit=5)
    >>> [u.wounds for u in a.units], a.hero.wounds_in_hand
    ([1], 1)
    """
    notes: list[str] = []
    left = damage
    taken: list[UnitDamage] = []
    if enemy.has("assassination") and units:
        notes.append(f"{enemy.name} has Assassination: no damage can be assigned to Units")
        units = ()
    for unit in units:
        if left <= 0:
            break
        if not unit.can_take_damage:
            state = "wounded" if unit.wounded else "already absorbed damage this combat"
            notes.append(f"{unit.name} is {state}: it cannot be assigned damage")
            continue
        result, left = damage_to_unit(unit, left, enemy)
        taken.append(result)
    hero = None
    if left > 0 or not taken:
        hero = damage_to_hero(
            left, enemy, armor=hero_armor, hand_limit=hand_limit, wounds_before=wounds_before
        )
    return Assignment(damage, tuple(taken), hero, tuple(notes))


# --- player versus player (MK-RB lines 975-1010) -------------------------------------------


def pvp_remaining_attack(attack: Sequence[Play], blocks: Sequence[Play], *, phase: str) -> int:
    """PvP: blocks reduce an attack partially, 1 per 2 Block in the ranged phase, 1 per 1 in melee.

    Efficiency by the attack's element applies to the blocks (one attack element assumed).

    >>> pvp_remaining_attack([Play("ranged", 4, "fire")], [Play("block", 4, "ice")], phase="ranged")
    2
    >>> pvp_remaining_attack([Play("ranged", 4, "fire")], [Play("block", 7)], phase="ranged")
    3
    """
    total = sum(p.value for p in attack)
    elements = {p.element for p in attack} or {"physical"}
    element = elements.pop() if len(elements) == 1 else "coldfire"
    tally = split_efficiency(blocks, set(ELEMENTS) - EFFICIENT_BLOCKS[element])
    reduction = tally.total // 2 if phase == "ranged" else tally.total
    return max(0, total - reduction)
