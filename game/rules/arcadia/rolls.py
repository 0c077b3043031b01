"""Arcadia Quest rolls with rerolls and CRIT effects: rolling them, and their exact odds (pure).

**Rolling** (:func:`roll_with_rerolls`). Each die is rolled; it may then be re-rolled (a reroll
from the roller's pool, rulebook Inferno p.31), again while rerolls last [ASSUMPTION: the source
does not say a die cannot be re-rolled twice]; a CRIT that stays adds one more die, rolled after
the dice of its wave. So a CRIT is only ever re-rolled **before** its extra die is rolled (the
FAQ's timing rule). Seeded dice follow the **policy** [ASSUMPTION: the rulebook leaves the choice
to the player]: re-roll a die that is no success (a miss or a blank) while rerolls last, never a
success. A physical roll writes each reroll after its die, ``old>new``.

**Exact odds** (:func:`roll_distribution`). Each die is a chain of rolls: a CRIT (chance c)
succeeds and rolls on, a success face (h) ends the chain with a success, a miss (m) ends it with
none, unless a reroll is spent on it, which rolls the chain on. Under the policy, only which
chain-endings are hits or misses matters: of ``n`` chains, the first ``r`` misses are re-rolled;
so the number of hit endings ``H`` and of endings ``E = n + rerolls used`` have a closed form,
and the CRITs, ``K``, are the failures before ``E`` non-CRITs: negative binomial. The successes
are ``H + K`` (``H + (1 + a)K`` when each CRIT adds ``a`` hits); chains are cut where less than
``tail`` of the CRIT count's probability remains per ending, that mass added to the last bucket.

>>> from game.core.dice import Die, ScriptedDice, parse_faces
>>> die = Die("attack", ("sword", "sword", "sword", "bow", "bow", "crit"))
>>> src = ScriptedDice(parse_faces("bow>sword crit sword", pools=("attack",),
...                    names={"sword", "bow", "crit"}, rerolls=True), ("attack",))
>>> spec = RollSpec(die, 2, 0, "attack", frozenset({"sword"}), 1, "Mark")
>>> got = roll_with_rerolls(src, spec)
>>> [(r.face, r.reason) for r in got.rolls], got.successes, got.crits
([('bow', 'rolled'), ('crit', 'rolled'), ('sword', 'reroll of die 1'), ('sword', 'explosion of die 2')], 3, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from game.core.dice import DiceSource, Die, DieRoll, Face, NotEnoughFaces, ScriptedDice
from game.core.errors import FacesError, UsageError
from game.core.words import plural

CRIT = "crit"


@dataclass(frozen=True)
class RollSpec:
    """One pool to roll: the die, how many, the pool's index and name (the name a physical roll uses, for
    messages), the faces that count a success (a CRIT always does), the rerolls the roller has,
    who rolls (for messages) and the rolls' label (``attack``, ``defence``; default the name)."""

    die: Die
    count: int
    pool: int
    pool_name: str
    success: frozenset[Face]
    rerolls: int = 0
    who: str = ""
    label: str = ""

    @property
    def shown(self) -> str:
        """The label of the rolls (the dice tray's row)."""
        return self.label or self.pool_name

    def misses(self, face: Face) -> bool:
        """Whether ``face`` is no success (the policy re-rolls it)."""
        return face != CRIT and face not in self.success


@dataclass
class _Die:
    """One die of a roll: its faces in order (each later one a reroll), its CRIT's extra die."""

    reason: str
    faces: list[Face] = field(default_factory=list)


@dataclass(frozen=True)
class RolledPool:
    """A pool as rolled: every roll in log order (``reason``: rolled, reroll of die N, explosion
    of die N), the final face of each die, the rerolls used and the CRITs re-rolled away."""

    rolls: tuple[DieRoll, ...]
    final: tuple[Face, ...]
    rerolls_used: int
    crits_rerolled: int
    #: final faces that count: CRITs and the success faces
    successes: int
    #: final CRITs (each added a die)
    crits: int


def roll_with_rerolls(source: DiceSource, spec: RollSpec) -> RolledPool:
    """Roll ``spec``: each die, its rerolls (the script's ``old>new``, else the policy), then the
    extra dice of the CRITs, wave after wave. A script with more rerolls than the roller has,
    or too few faces, is a :class:`FacesError` naming the pool."""
    scripted = isinstance(source, ScriptedDice)
    dice: list[_Die] = []
    wave = [_Die("rolled") for _ in range(spec.count)]
    used = crits_rerolled = drawn = explosions = 0
    while wave:
        extra: list[_Die] = []
        for die in wave:
            die.faces.append(_roll(source, spec, drawn, explosions, used))
            drawn += 1
            while _wants_reroll(source, spec, die.faces[-1], used, scripted):
                if used >= spec.rerolls:
                    raise FacesError(_too_many(spec), pool=spec.pool_name)
                crits_rerolled += die.faces[-1] == CRIT
                used += 1
                die.faces.append(_roll(source, spec, drawn, explosions, used))
                drawn += 1
            dice.append(die)
            if die.faces[-1] == CRIT:
                explosions += 1
                extra.append(_Die(f"explosion of die {len(dice)}"))
        wave = extra
    return _flatten(dice, spec, used, crits_rerolled)


def _wants_reroll(source: DiceSource, spec: RollSpec, face: Face, used: int, scripted: bool) -> bool:
    if scripted:
        assert isinstance(source, ScriptedDice)
        return source.next_is_reroll(spec.pool)
    return used < spec.rerolls and spec.misses(face)


def _roll(source: DiceSource, spec: RollSpec, drawn: int, explosions: int, rerolls: int) -> Face:
    """The next face; a physical roll that runs out says how many faces it needs so far."""
    try:
        return source.roll(spec.die, spec.pool)
    except NotEnoughFaces as exc:
        missing = spec.count + explosions + rerolls - drawn
        parts = plural(spec.count, "die", "dice")
        parts += f" + {plural(explosions, 'explosion')}" if explosions else ""
        parts += f" + {plural(rerolls, 'reroll')}" if rerolls else ""
        raise NotEnoughFaces(spec.pool_name, exc.given,
                             f"the {spec.pool_name} pool needs {plural(missing, 'more face')} "
                             f"({parts})") from None


def _too_many(spec: RollSpec) -> str:
    return (f"{spec.who} has {plural(spec.rerolls, 'reroll')} for this roll, but the {spec.pool_name} "
            "pool writes more (old>new)")


def _flatten(dice: list[_Die], spec: RollSpec, used: int, crits_rerolled: int) -> RolledPool:
    """The rolls in log order: a wave's first faces, then its rerolls, then the next wave; a die
    numbered by its place in that order, as each reroll and extra die names the die it follows."""
    rolls: list[DieRoll] = []
    last: dict[int, int] = {}  # die index -> number of its latest roll
    first_wave = [i for i, d in enumerate(dice) if d.reason == "rolled"]
    waves: list[list[int]] = [first_wave]
    rest = [i for i in range(len(dice)) if i not in first_wave]
    by_parent: dict[int, list[int]] = {}
    for i in rest:
        parent = int(dice[i].reason.rsplit(" ", 1)[1]) - 1
        by_parent.setdefault(parent, []).append(i)
    while waves[-1]:
        waves.append([c for p in waves[-1] for c in by_parent.get(p, [])])
    for wave in waves:
        for i in wave:
            reason = dice[i].reason
            if reason != "rolled":
                parent = int(reason.rsplit(" ", 1)[1]) - 1
                reason = f"explosion of die {last[parent]}"
            rolls.append(DieRoll(spec.shown, spec.die.name, dice[i].faces[0], reason))
            last[i] = len(rolls)
        for i in wave:
            for face in dice[i].faces[1:]:
                rolls.append(DieRoll(spec.shown, spec.die.name, face, f"reroll of die {last[i]}"))
                last[i] = len(rolls)
    final = tuple(d.faces[-1] for d in dice)
    crits = sum(1 for f in final if f == CRIT)
    plain = sum(1 for f in final if f != CRIT and f in spec.success)
    return RolledPool(tuple(rolls), final, used, crits_rerolled, crits + plain, crits)


# --- exact odds --------------------------------------------------------------------------


@dataclass(frozen=True)
class DieOdds:
    """A die as chances: sides, success faces, CRIT faces (the rest miss)."""

    sides: int
    hit: int
    crit: int

    @property
    def miss(self) -> int:
        """Faces that are no success."""
        return self.sides - self.hit - self.crit


def endings(die: DieOdds, n: int, rerolls: int) -> dict[tuple[int, int], Fraction]:
    """The chance of each (hit endings H, endings E) of ``n`` chains whose first ``rerolls``
    misses are re-rolled (see the module docstring). E counts the rerolls used: ``E = n + used``.

    >>> endings(DieOdds(6, 3, 0), 1, 1)
    {(1, 1): Fraction(1, 2), (1, 2): Fraction(1, 4), (0, 2): Fraction(1, 4)}
    """
    if die.hit + die.miss == 0:
        raise UsageError("a die whose every face explodes never stops rolling: give it a face that does not explode")
    qh = Fraction(die.hit, die.hit + die.miss)
    qm = 1 - qh
    out: dict[tuple[int, int], Fraction] = {}
    if n == 0:
        return {(0, 0): Fraction(1)}
    for j in range(rerolls):  # fewer misses than rerolls: every chain ends on a hit
        p = comb(n + j - 1, j) * qh**n * qm**j
        if p:
            out[(n, n + j)] = out.get((n, n + j), Fraction(0)) + p
    for h0 in range(n):  # the last reroll is spent after h0 hits; the other chains end as they fall
        start = comb(h0 + rerolls - 1, h0) * qh**h0 * qm**rerolls if rerolls else Fraction(int(h0 == 0))
        if not start:
            continue
        left = n - h0
        for f in range(left + 1):
            p = start * comb(left, f) * qm**f * qh ** (left - f)
            if p:
                key = (n - f, n + rerolls)
                out[key] = out.get(key, Fraction(0)) + p
    return out


def crit_counts(die: DieOdds, ends: int, tail: Fraction) -> tuple[dict[int, Fraction], Fraction]:
    """The chance of K CRITs before ``ends`` chain-endings (negative binomial), cut where less
    than ``tail × ends`` remains (that mass added to the last count), and the mass moved.

    >>> crit_counts(DieOdds(6, 3, 0), 2, Fraction(1, 10**12))
    ({0: Fraction(1, 1)}, Fraction(0, 1))
    """
    c = Fraction(die.crit, die.sides)
    if not c or not ends:
        return {0: Fraction(1)}, Fraction(0)
    out: dict[int, Fraction] = {}
    left, k = Fraction(1), 0
    while True:
        p = comb(ends + k - 1, k) * c**k * (1 - c) ** ends
        out[k] = p
        left -= p
        if left < tail * ends:
            out[k] += left
            return out, left
        k += 1


@dataclass(frozen=True)
class RollOdds:
    """The exact odds of one roll: the chance of each (successes before the saves, wounds added
    after them by CRIT effects), and the mass moved by the cut of the CRIT chains."""

    joint: Mapping[tuple[int, int], Fraction]
    cut: Fraction

    def successes(self) -> dict[int, Fraction]:
        """The chance of each number of successes (the CRIT effects' wounds ignored)."""
        out: dict[int, Fraction] = {}
        for (s, _), p in self.joint.items():
            out[s] = out.get(s, Fraction(0)) + p
        return out


def roll_distribution(
    die: DieOdds, n: int, rerolls: int, tail: Fraction, *, hits_once: int = 0, hits_each: int = 0,
    wounds_once: int = 0, wounds_each: int = 0,
) -> RollOdds:
    """Successes of ``n`` dice with ``rerolls`` under the policy, with CRIT effects: ``hits_*``
    add to the successes, ``wounds_*`` are wounds after the saves; ``*_once`` when at least one
    CRIT is rolled, ``*_each`` per CRIT (module docstring).

    >>> r = roll_distribution(DieOdds(6, 3, 1), 1, 0, Fraction(1, 10**12))
    >>> [str(r.successes()[k]) for k in range(3)]
    ['1/3', '5/9', '5/54']
    """
    joint: dict[tuple[int, int], Fraction] = {}
    cut = Fraction(0)
    counts: dict[int, tuple[dict[int, Fraction], Fraction]] = {}
    for (hits, ends), p_end in endings(die, n, rerolls).items():
        if ends not in counts:
            counts[ends] = crit_counts(die, ends, tail)
        ks, moved = counts[ends]
        cut += p_end * moved
        for k, p_k in ks.items():
            any_crit = int(k > 0)
            s = hits + k + hits_each * k + hits_once * any_crit
            w = wounds_each * k + wounds_once * any_crit
            joint[(s, w)] = joint.get((s, w), Fraction(0)) + p_end * p_k
    return RollOdds(joint, cut)


def wounds_after_saves(
    attack: RollOdds, saves: Mapping[int, Fraction], cap: int | None
) -> dict[int, Fraction]:
    """``min(cap, max(0, successes − saves) + CRIT wounds)`` (cap None: no cap).

    >>> a = RollOdds({(2, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)}, Fraction(0))
    >>> wounds_after_saves(a, {1: Fraction(1)}, None)
    {1: Fraction(1, 1)}
    """
    out: dict[int, Fraction] = {}
    for (s, w), p in attack.joint.items():
        for d, q in saves.items():
            wounds = max(0, s - d) + w
            if cap is not None:
                wounds = min(wounds, cap)
            out[wounds] = out.get(wounds, Fraction(0)) + p * q
    return dict(sorted(out.items()))
