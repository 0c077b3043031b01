"""The 2D6 TRPG of seed 002 ("folklore" @wiki, Arianrhod lineage): checks, hits, damage, HP (pure).

Where the source is silent this follows the Arianrhod-style defaults of ``docs/folklore.md``
§2.2, flagged as assumptions by the ruleset: a check is 2D6 + attribute; a critical is two or more
6s, a fumble every die showing 1.

>>> hit = check([6, 6], 4)
>>> hit.total, hit.critical, hit.sixes
(16, True, 2)
>>> opposed(hit, check([2, 3], 3)).hit
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, product

SIDES = 6


@dataclass(frozen=True)
class CheckResult:
    """A check: the dice, the attribute added, the achieved value, critical and fumble."""

    dice: tuple[int, ...]
    modifier: int
    total: int
    critical: bool
    fumble: bool

    @property
    def sixes(self) -> int:
        """How many dice show 6 (a critical hit adds that many damage dice)."""
        return self.dice.count(6)


def is_critical(dice: Sequence[int]) -> bool:
    """Two or more 6s (ASSUMPTION, Arianrhod's rule).

    >>> is_critical([6, 6]), is_critical([6, 5]), is_critical([6, 1, 6])
    (True, False, True)
    """
    return sum(1 for d in dice if d == 6) >= 2


def is_fumble(dice: Sequence[int]) -> bool:
    """Every die shows 1 (ASSUMPTION, Arianrhod's rule).

    >>> is_fumble([1, 1]), is_fumble([1, 2])
    (True, False)
    """
    return bool(dice) and all(d == 1 for d in dice)


def check(dice: Sequence[int], modifier: int) -> CheckResult:
    """A check: the sum of the dice plus an attribute (the 達成値)."""
    faces = tuple(int(d) for d in dice)
    return CheckResult(faces, modifier, sum(faces) + modifier, is_critical(faces), is_fumble(faces))


@dataclass(frozen=True)
class HitOutcome:
    """Whether an attack hits, and the rule that decided it."""

    hit: bool
    reason: str


def opposed(attack: CheckResult, dodge: CheckResult | None) -> HitOutcome:
    """Hit check against dodge check, in this order (ASSUMPTION for the order of 2-4):

    1. the defender's critical → miss, even against a critical (reacting side has priority);
    2. the attacker's fumble → miss; 3. the attacker's critical → hit; 4. the defender's fumble →
    hit; 5. otherwise hit only if the attacker's value is higher: a tie goes to the defender.
    ``dodge`` None: the defender cannot dodge (incapacitated).

    >>> opposed(check([3, 5], 4), check([4, 5], 3)).reason
    'tie 12 against 12: the defender wins ties'
    >>> opposed(check([6, 6], 0), check([6, 6], 0)).hit
    False
    """
    if dodge is not None and dodge.critical:
        return HitOutcome(False, "the defender's critical dodge wins, whatever the hit check")
    if attack.fumble:
        return HitOutcome(False, "the hit check is a fumble")
    if attack.critical:
        return HitOutcome(True, "the hit check is a critical")
    if dodge is None:
        return HitOutcome(True, "the defender cannot dodge")
    if dodge.fumble:
        return HitOutcome(True, "the dodge check is a fumble")
    if attack.total > dodge.total:
        return HitOutcome(True, f"{attack.total} beats {dodge.total}")
    if attack.total == dodge.total:
        return HitOutcome(
            False, f"tie {attack.total} against {dodge.total}: the defender wins ties"
        )
    return HitOutcome(False, f"{attack.total} does not beat {dodge.total}")


def real_damage(rolled: int, armour: int) -> int:
    """Damage minus the defender's armour (防御点), never below 0.

    >>> real_damage(12, 3), real_damage(5, 6)
    (9, 0)
    """
    return max(0, rolled - armour)


def death_check_target(valour: int) -> int:
    """The death check (生死判定) target number: 10 − valour."""
    return 10 - valour


@dataclass(frozen=True)
class DeathCheck:
    """A death check: 2D6 ≥ 10 − valour survives; a critical always survives, a fumble dies."""

    dice: tuple[int, ...]
    target: int
    survives: bool
    reason: str


def death_check(dice: Sequence[int], valour: int) -> DeathCheck:
    """Roll the death check for a figure with this valour.

    >>> death_check([3, 4], 3).survives, death_check([2, 4], 3).survives
    (True, False)
    >>> death_check([6, 6], 3).survives, death_check([1, 1], 9).survives
    (True, False)
    """
    faces = tuple(int(d) for d in dice)
    target = death_check_target(valour)
    total = sum(faces)
    if is_critical(faces):
        return DeathCheck(faces, target, True, "a critical always survives")
    if is_fumble(faces):
        return DeathCheck(faces, target, False, "a fumble always dies")
    if total >= target:
        return DeathCheck(faces, target, True, f"{total} ≥ {target}")
    return DeathCheck(faces, target, False, f"{total} < {target}")


def death_chance(valour: int, dice: int = 2) -> Fraction:
    """The exact chance to die in a death check.

    >>> death_chance(3), death_chance(9)
    (Fraction(5, 12), Fraction(1, 36))
    """
    dead = sum(
        1
        for roll in product(range(1, SIDES + 1), repeat=dice)
        if not death_check(roll, valour).survives
    )
    return Fraction(dead, SIDES**dice)


@dataclass(frozen=True)
class Health:
    """HP state: current HP, max HP (after max-HP damage), incapacitated, dead."""

    hp: int
    max_hp: int
    incapacitated: bool = False
    dead: bool = False


def take_damage(health: Health, damage: int) -> Health:
    """Lose real damage; HP ≤ 0 → incapacitated (ASSUMPTION: the "0 or less" reading).

    >>> take_damage(Health(4, 10), 4)
    Health(hp=0, max_hp=10, incapacitated=True, dead=False)
    """
    hp = health.hp - max(damage, 0)
    return Health(hp, health.max_hp, health.incapacitated or hp <= 0, health.dead)


def take_max_hp_damage(health: Health, amount: int) -> Health:
    """Max-HP damage (上限ダメージ) lowers max HP; HP is cut to the new max; max HP 0 → dead.

    >>> take_max_hp_damage(Health(25, 30), 10), take_max_hp_damage(Health(12, 30), 10).hp
    (Health(hp=20, max_hp=20, incapacitated=False, dead=False), 12)
    >>> take_max_hp_damage(Health(8, 8), 8).dead
    True
    """
    max_hp = max(0, health.max_hp - max(amount, 0))
    hp = min(health.hp, max_hp)
    return Health(hp, max_hp, health.incapacitated, health.dead or max_hp <= 0)


def heal(health: Health, amount: int) -> Health:
    """Healing, capped at max HP; incapacitated or dead figures cannot be healed.

    >>> heal(Health(25, 30), 10).hp, heal(Health(-1, 30, incapacitated=True), 10).hp
    (30, -1)
    """
    if health.incapacitated or health.dead:
        return health
    return Health(min(health.max_hp, health.hp + max(amount, 0)), health.max_hp)


# --- exact odds ----------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _rolls(dice: int) -> tuple[tuple[int, ...], ...]:
    return tuple(product(range(1, SIDES + 1), repeat=dice))


@lru_cache(maxsize=64)
def sum_distribution(dice: int) -> dict[int, int]:
    """Ways to roll each sum with ``dice`` d6 (``6**dice`` ways in all).

    >>> sum_distribution(2)[7]
    6
    """
    out: dict[int, int] = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for s, w in out.items():
            for f in range(1, SIDES + 1):
                nxt[s + f] = nxt.get(s + f, 0) + w
        out = nxt
    return out


def hit_chances_brute(
    hit_mod: int, dodge_mod: int | None, *, hit_dice: int = 2, dodge_dice: int = 2
) -> dict[int, Fraction]:
    """The test oracle of :func:`hit_chances`: every hit roll against every dodge roll
    (``6**(hit_dice + dodge_dice)`` opposed checks)."""
    dodges = [check(r, dodge_mod) for r in _rolls(dodge_dice)] if dodge_mod is not None else [None]
    weight = Fraction(1, SIDES ** (hit_dice + (dodge_dice if dodge_mod is not None else 0)))
    out: dict[int, Fraction] = {}
    for roll in _rolls(hit_dice):
        attack = check(roll, hit_mod)
        wins = sum(1 for d in dodges if opposed(attack, d).hit)
        if wins:
            key = attack.sixes if attack.critical else 0
            out[key] = out.get(key, Fraction(0)) + wins * weight
    return out


@lru_cache(maxsize=64)
def sum_sixes_distribution(dice: int) -> dict[tuple[int, int], int]:
    """Ways to roll each (sum, number of 6s) with ``dice`` d6, by convolution die by die
    (``6**dice`` ways in all; at most ``5·dice+1`` sums × ``dice+1`` counts of 6s).

    >>> sum_sixes_distribution(2)[(12, 2)], sum_sixes_distribution(2)[(7, 1)]
    (1, 2)
    """
    out: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(dice):
        nxt: dict[tuple[int, int], int] = {}
        for (s, k), w in out.items():
            for f in range(1, SIDES + 1):
                key = (s + f, k + (f == SIDES))
                nxt[key] = nxt.get(key, 0) + w
        out = nxt
    return out


@dataclass(frozen=True)
class _CheckSpread:
    """A check's dice as counts: critical ways, fumble ways and the other ways by sum."""

    critical: int
    fumble: int
    plain: dict[int, int]
    total: int


@lru_cache(maxsize=64)
def _spread(dice: int) -> _CheckSpread:
    critical = fumble = 0
    plain: dict[int, int] = {}
    for (s, sixes), w in sum_sixes_distribution(dice).items():
        if sixes >= 2:
            critical += w
        elif dice and s == dice:  # every die shows 1 (the least sum)
            fumble += w
        else:
            plain[s] = plain.get(s, 0) + w
    return _CheckSpread(critical, fumble, plain, SIDES**dice)


def hit_chances(
    hit_mod: int, dodge_mod: int | None, *, hit_dice: int = 2, dodge_dice: int = 2
) -> dict[int, Fraction]:
    """The exact chance of hitting, by the number of 6s on the hit dice when the hit is critical
    (key = extra damage dice; 0 for a non-critical hit). ``dodge_mod`` None: no dodge roll.

    By convolution of sums: the hit dice as (sum, 6s) counts, the dodge dice as critical, fumble
    and plain sums with their cumulative counts, so the cost grows with the number of sums, not
    with ``6**(hit_dice + dodge_dice)`` (:func:`hit_chances_brute` is the oracle).

    >>> sum(hit_chances(4, 3).values()) < 1
    True
    >>> hit_chances(4, 3, hit_dice=3) == hit_chances_brute(4, 3, hit_dice=3)
    True
    """
    hits = sum_sixes_distribution(hit_dice)
    if dodge_mod is None:
        dodge_total, dodge_crit, dodge_fumble = 1, 0, 0
        below: dict[int, int] = {}
    else:
        spread = _spread(dodge_dice)
        dodge_total, dodge_crit, dodge_fumble = spread.total, spread.critical, spread.fumble
        below = {}  # plain dodge ways with total below t, for every attack total t met
        totals = sorted(s + dodge_mod for s in spread.plain)
        cum = list(accumulate(spread.plain[t - dodge_mod] for t in totals))
        below_of = (totals, cum)
    out: dict[int, int] = {}
    for (s, sixes), w in hits.items():
        if hit_dice and s == hit_dice:  # fumble: always misses
            continue
        if sixes >= 2:  # critical: hits unless the dodge is critical
            wins = dodge_total - dodge_crit
            key = sixes
        elif dodge_mod is None:
            wins, key = 1, 0
        else:
            total = s + hit_mod
            if total not in below:
                i = bisect_left(below_of[0], total)
                below[total] = below_of[1][i - 1] if i else 0
            wins, key = dodge_fumble + below[total], 0
        if wins:
            out[key] = out.get(key, 0) + w * wins
    den = SIDES**hit_dice * dodge_total
    return {k: Fraction(v, den) for k, v in out.items()}


def damage_distribution(
    hit_mod: int,
    dodge_mod: int | None,
    *,
    bonus: int,
    armour: int,
    hit_dice: int = 2,
    dodge_dice: int = 2,
    damage_dice: int = 1,
    after: tuple[int, int] = (0, 0),
) -> dict[int, Fraction]:
    """The exact distribution of real damage (HP lost) of one attack, misses counting as 0.

    ``damage_dice`` is the damage roll's dice before a critical's (1D6, more with a skill);
    ``after`` = (N, M): a real damage of N or more costs M more (a skill's "after N: lose M hp").
    Results are cached by their inputs (a fresh dict is returned each time).

    >>> d = damage_distribution(0, None, bonus=0, armour=0)
    >>> d[0], sum(d.values())
    (Fraction(1, 36), Fraction(1, 1))
    """
    return dict(_cached_damage(hit_mod, dodge_mod, bonus, armour, hit_dice, dodge_dice, damage_dice, after))


def damage_on_hit(
    hit_mod: int,
    dodge_mod: int | None,
    *,
    bonus: int,
    armour: int,
    hit_dice: int = 2,
    dodge_dice: int = 2,
    damage_dice: int = 1,
    after: tuple[int, int] = (0, 0),
) -> dict[int, Fraction]:
    """The exact chance of each real damage **and** a hit (a miss is not in it; its values sum
    to the chance to hit). A hit whose damage armour soaks is the 0 here, not a miss.

    >>> d = damage_on_hit(0, None, bonus=0, armour=100)
    >>> d, sum(d.values()) == 1 - Fraction(1, 36)
    ({0: Fraction(35, 36)}, True)
    """
    return dict(_cached_on_hit(hit_mod, dodge_mod, bonus, armour, hit_dice, dodge_dice, damage_dice, after))


@lru_cache(maxsize=256)
def _cached_on_hit(
    hit_mod: int, dodge_mod: int | None, bonus: int, armour: int, hit_dice: int, dodge_dice: int,
    damage_dice: int = 1, after: tuple[int, int] = (0, 0),
) -> tuple[tuple[int, Fraction], ...]:
    out: dict[int, Fraction] = {}
    hits = hit_chances(hit_mod, dodge_mod, hit_dice=hit_dice, dodge_dice=dodge_dice)
    threshold, more = after
    for extra, p in hits.items():
        dice = damage_dice + extra
        ways = sum_distribution(dice)
        total = SIDES**dice
        for s, w in ways.items():
            dmg = real_damage(s + bonus, armour)
            if threshold and dmg >= threshold:
                dmg += more
            out[dmg] = out.get(dmg, Fraction(0)) + p * Fraction(w, total)
    return tuple(sorted(out.items()))


@lru_cache(maxsize=256)
def _cached_damage(
    hit_mod: int, dodge_mod: int | None, bonus: int, armour: int, hit_dice: int, dodge_dice: int,
    damage_dice: int = 1, after: tuple[int, int] = (0, 0),
) -> tuple[tuple[int, Fraction], ...]:
    out = dict(_cached_on_hit(hit_mod, dodge_mod, bonus, armour, hit_dice, dodge_dice, damage_dice, after))
    missed = 1 - sum(out.values(), Fraction(0))
    if missed:
        out[0] = out.get(0, Fraction(0)) + missed
    return tuple(sorted(out.items()))
