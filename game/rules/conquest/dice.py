"""Conquest: First Blood (3rd edition, warriors) dice arithmetic and exact odds (pure).

The procedure (``docs/conquest.md``, from the seed's rules wiki): roll A (Clash)
or X (Volley) dice; special rules may re-roll primary dice or add dice; keep the **lowest** C or V
dice as Hits, a 6 is never a Hit; the defender rolls D or E Block dice; each Block die cancels one
Hit of equal or higher value (matched optimally); each Hit left is a Wound; at the wound limit W a
Resolve test: one die ≤ R − (wounds above W), a modified Resolve of 0 or less fails outright.

>>> keep_hits([2, 3, 4, 5], 2)
[2, 3]
>>> unblocked_hits([2, 3], [3, 4, 6])
[2]
>>> resolve_test(wounds=4, wound_limit=2, resolve=3, roll=1).passed
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

import numpy as np

SIDES = 6
#: the face that is never a Hit
NEVER_HITS = 6

Counts = tuple[int, ...]  # how many dice show 1, 2, ..., 6


def keep_hits(faces: Sequence[int], keep: int) -> list[int]:
    """The Hits: the lowest ``keep`` dice, never a 6 (sorted ascending).

    >>> keep_hits([6, 6, 5], 3), keep_hits([1, 1, 3, 6, 2], 3)
    ([5], [1, 1, 2])
    """
    return sorted(f for f in faces if f != NEVER_HITS)[: max(keep, 0)]


def match_blocks(hits: Sequence[int], blocks: Sequence[int]) -> list[tuple[int, int]]:
    """A maximum matching of Block dice to Hits (a Block die cancels a Hit ≥ its value).

    Both sorted ascending; each Block die, smallest first, takes the smallest Hit it can cancel.
    That greedy choice is optimal (a naive "highest Hit first" is not: FB-5). Returns the
    (block, hit) pairs.

    >>> match_blocks([2, 5], [1, 5])
    [(1, 2), (5, 5)]
    """
    hs = sorted(hits)
    bs = sorted(blocks)
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(bs) and j < len(hs):
        if bs[i] <= hs[j]:
            pairs.append((bs[i], hs[j]))
            i += 1
        j += 1
    return pairs


def unblocked_hits(hits: Sequence[int], blocks: Sequence[int]) -> list[int]:
    """The Hits no Block die cancels (each one is a Wound).

    >>> unblocked_hits([1, 4], [2, 3]), unblocked_hits([1, 1, 2], [1, 2, 2, 4])
    ([1], [1])
    """
    left = sorted(hits)
    for _, hit in match_blocks(hits, blocks):
        left.remove(hit)
    return left


@dataclass(frozen=True)
class ResolveOutcome:
    """A Resolve test (or none): the modified Resolve, the roll, and what happens to the warrior."""

    tested: bool
    modified: int
    automatic_failure: bool
    roll: int | None
    passed: bool
    wounds_after: int
    broken: bool
    slain: bool

    @property
    def driven_back(self) -> bool:
        """A warrior who passes is Driven Back (and Broken!)."""
        return self.tested and self.passed


def resolve_needed(wounds: int, wound_limit: int) -> bool:
    """A Resolve test is taken as soon as Wounds reach the wound limit W."""
    return wounds >= wound_limit


def modified_resolve(wounds: int, wound_limit: int, resolve: int) -> int:
    """Resolve minus one per Wound above W.

    >>> modified_resolve(4, 2, 3), modified_resolve(2, 2, 3)
    (1, 3)
    """
    return resolve - max(0, wounds - wound_limit)


def resolve_test(
    *, wounds: int, wound_limit: int, resolve: int, roll: int | None
) -> ResolveOutcome:
    """Take the Resolve test for a warrior with ``wounds`` (``roll`` None when no die is needed).

    Success (roll ≤ modified Resolve): Wounds drop to W − 1, Broken!, Driven Back. Failure, or a
    modified Resolve of 0 or less (no roll): Slain.

    >>> resolve_test(wounds=4, wound_limit=2, resolve=2, roll=None).slain
    True
    >>> r = resolve_test(wounds=2, wound_limit=2, resolve=3, roll=3)
    >>> r.passed, r.wounds_after, r.broken
    (True, 1, True)
    """
    if not resolve_needed(wounds, wound_limit):
        return ResolveOutcome(False, resolve, False, None, True, wounds, False, False)
    modified = modified_resolve(wounds, wound_limit, resolve)
    if modified <= 0:
        return ResolveOutcome(True, modified, True, None, False, wounds, False, True)
    if roll is None:
        raise ValueError("a Resolve test with a modified Resolve above 0 needs a die")
    if roll <= modified:
        return ResolveOutcome(True, modified, False, roll, True, wound_limit - 1, True, False)
    return ResolveOutcome(True, modified, False, roll, False, wounds, False, True)


def slain_chance(wounds: int, wound_limit: int, resolve: int) -> Fraction:
    """The chance a warrior with ``wounds`` (after the attack) is Slain by the Resolve test.

    >>> slain_chance(1, 2, 3), slain_chance(2, 2, 3), slain_chance(4, 2, 2)
    (Fraction(0, 1), Fraction(1, 2), Fraction(1, 1))
    """
    if not resolve_needed(wounds, wound_limit):
        return Fraction(0)
    modified = modified_resolve(wounds, wound_limit, resolve)
    if modified <= 0:
        return Fraction(1)
    return Fraction(SIDES - min(modified, SIDES), SIDES)


# --- exact odds --------------------------------------------------------------------------


@dataclass(frozen=True)
class PrimaryEffects:
    """What special rules do to each primary face: re-roll it, and how many extra dice it adds.

    ``reroll[f-1]`` / ``extra[f-1]`` for face f. Re-rolled and extra dice trigger nothing more.
    """

    reroll: tuple[bool, ...] = (False,) * SIDES
    extra: tuple[int, ...] = (0,) * SIDES

    @property
    def active(self) -> bool:
        """Whether any face triggers anything."""
        return any(self.reroll) or any(self.extra)


def _compositions(n: int, parts: int) -> Iterator[Counts]:
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, parts - 1):
            yield (first, *rest)


@lru_cache(maxsize=64)
def counts_ways(n: int) -> tuple[tuple[Counts, int], ...]:
    """Every way ``n`` fair d6 can fall, as face counts with the number of ordered rolls giving
    them (out of ``6**n``).

    >>> dict(counts_ways(2))[(1, 1, 0, 0, 0, 0)]
    2
    >>> sum(w for _, w in counts_ways(4)) == 6**4
    True
    """
    out = []
    for counts in _compositions(n, SIDES):
        ways = factorial(n)
        for c in counts:
            ways //= factorial(c)
        out.append((counts, ways))
    return tuple(out)


@lru_cache(maxsize=4096)
def add_die(hits: Counts, face: int, keep: int) -> Counts:
    """Add one die to kept Hits (counts by face 1..5) and keep the lowest ``keep``: a 6 is never
    kept, and one die too many drops the highest Hit.

    >>> add_die((1, 0, 0, 1, 0), 2, 2)
    (1, 1, 0, 0, 0)
    >>> add_die((0, 0, 0, 0, 0), 6, 3)
    (0, 0, 0, 0, 0)
    """
    if face == NEVER_HITS or keep <= 0:
        return hits
    out = list(hits)
    out[face - 1] += 1
    if sum(out) > keep:
        top = max(i for i, c in enumerate(out) if c)
        out[top] -= 1
    return tuple(out)


_NO_HITS: Counts = (0,) * (SIDES - 1)


def hits_distribution(
    dice: int, keep: int, effects: PrimaryEffects = PrimaryEffects()
) -> dict[Counts, Fraction]:
    """The exact distribution of the Hits (counts by face 1..5) after the Secondary Roll.

    Dynamic programming die by die over (Hits kept so far, dice still to roll): the primary dice
    first (a re-rolled face keeps nothing and adds a die to roll; extra dice add dice to roll), then
    the re-rolled and extra dice, which trigger nothing. Keeping the lowest ``keep`` of a union is
    keeping the lowest of the lowest, so the state stays small.

    >>> sum(hits_distribution(3, 2).values())
    Fraction(1, 1)
    >>> hits_distribution(1, 1)[(0, 0, 0, 0, 0)]
    Fraction(1, 6)
    """
    states: dict[tuple[Counts, int], int] = {(_NO_HITS, 0): 1}
    for _ in range(dice):
        nxt: dict[tuple[Counts, int], int] = {}
        for (hits, pending), w in states.items():
            for face in range(1, SIDES + 1):
                again = effects.reroll[face - 1]
                key = (
                    hits if again else add_die(hits, face, keep),
                    pending + int(again) + effects.extra[face - 1],
                )
                nxt[key] = nxt.get(key, 0) + w
        states = nxt
    done: dict[Counts, Fraction] = {}
    denominator = SIDES**dice
    while states:
        nxt = {}
        for (hits, pending), w in states.items():
            if pending == 0:
                done[hits] = done.get(hits, Fraction(0)) + Fraction(w, denominator)
                continue
            for face in range(1, SIDES + 1):
                key = (add_die(hits, face, keep), pending - 1)
                nxt[key] = nxt.get(key, 0) + w
        states = nxt
        denominator *= SIDES
    return done


def _at_least(counts: Sequence[int]) -> list[int]:
    """``out[v-1]`` = how many dice show v or more, for v = 1..6."""
    out, running = [], 0
    for c in reversed(list(counts) + [0] * (SIDES - len(counts))):
        running += c
        out.append(running)
    return out[::-1]


def wounds_distribution(hits: Mapping[Counts, Fraction], block_dice: int) -> dict[int, Fraction]:
    """The exact distribution of Wounds (unblocked Hits) against ``block_dice`` Block dice.

    A Block die b can cancel the Hits ≥ b: these sets are nested, so by Hall's theorem the most
    Hits a set of Block dice cancels is ``|B| - max(0, max_v(#Blocks >= v - #Hits >= v))``, which
    equals :func:`match_blocks` and is evaluated for every Block roll at once with numpy.

    >>> wounds_distribution({(1, 0, 0, 0, 0): Fraction(1)}, 1)
    {0: Fraction(1, 6), 1: Fraction(5, 6)}
    """
    rolls = counts_ways(max(block_dice, 0))
    total = SIDES ** max(block_dice, 0)
    big = total * len(rolls) >= 2**62
    weights = np.array([w for _, w in rolls], dtype=object if big else np.int64)
    block_at_least = np.array([_at_least(c) for c, _ in rolls], dtype=np.int64)
    out: dict[int, Fraction] = {}
    for hit_counts, p in hits.items():
        n_hits = sum(hit_counts)
        if n_hits == 0:
            out[0] = out.get(0, Fraction(0)) + p
            continue
        deficiency = np.maximum(0, (block_at_least - np.array(_at_least(hit_counts))).max(axis=1))
        wounds = n_hits - (max(block_dice, 0) - deficiency)
        for w in np.unique(wounds):
            ways = int(weights[wounds == w].sum())
            out[int(w)] = out.get(int(w), Fraction(0)) + p * Fraction(ways, total)
    return dict(sorted(out.items()))


def wounds_distribution_dp(
    dice: int, keep: int, block_dice: int, effects: PrimaryEffects = PrimaryEffects()
) -> dict[int, Fraction]:
    """The die-by-die oracle of :func:`attack_wounds_distribution` (exponential in the worst
    case: its states are every Hit multiset and every Block roll); tests compare the two."""
    return wounds_distribution(hits_distribution(dice, keep, effects), block_dice)


def wounds_with_extra_hits(
    dice: int, keep: int, block_dice: int, extra: int, effects: PrimaryEffects = PrimaryEffects()
) -> dict[int, Fraction]:
    """Exact Wounds of a Clash or Volley with ``extra`` Hits from effects, each a fresh die giving
    its value (1 to 6: a 6 is a Hit given, which any Block die cancels), blocked with the kept
    Hits. The kept Hits' multiset (:func:`hits_distribution`) and the extra Hits' are merged, and
    :func:`wounds_distribution` counts what the Block dice leave (Hall's formula covers a Hit
    of 6: every Block die cancels it).

    >>> wounds_with_extra_hits(0, 0, 1, 1)
    {0: Fraction(7, 12), 1: Fraction(5, 12)}
    """
    kept = hits_distribution(dice, keep, effects) if keep > 0 else {_NO_HITS: Fraction(1)}
    more = counts_ways(max(extra, 0))
    total = SIDES ** max(extra, 0)
    merged: dict[Counts, Fraction] = {}
    for counts, p in kept.items():
        for add, ways in more:
            key = tuple(c + a for c, a in zip((*counts, 0), add, strict=True))
            merged[key] = merged.get(key, Fraction(0)) + p * Fraction(ways, total)
    return wounds_distribution(merged, block_dice)


def _multinomial(counts: Sequence[int]) -> int:
    ways = factorial(sum(counts))
    for c in counts:
        ways //= factorial(c)
    return ways


def _pool_start(
    dice: int, effects: PrimaryEffects
) -> tuple[tuple[int, ...], list[int], dict[tuple[tuple[int, ...], int], int], int]:
    """How the final attack pool can look before any face is read: fixed counts on the faces a
    special rule triggers on (``special``), and ``T`` dice uniform over the other faces.

    Returns (special faces, plain faces, {(fixed counts, T): numerator}, denominator). The plain
    dice are spread over the plain faces by the sweep itself, so their ``|plain|**T`` cancels.
    """
    special = tuple(f for f in range(1, SIDES + 1) if effects.reroll[f - 1] or effects.extra[f - 1])
    plain = [f for f in range(1, SIDES + 1) if f not in special]
    fresh = [int(effects.reroll[f - 1]) + effects.extra[f - 1] for f in special]
    keep_face = [not effects.reroll[f - 1] for f in special]
    most_fresh = dice * max(fresh, default=0)
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for primary in _compositions(dice, len(special) + 1):
        *on_special, on_plain = primary
        fresh_dice = sum(c * n for c, n in zip(on_special, fresh, strict=True))
        w_primary = _multinomial(primary)
        for spread in _compositions(fresh_dice, len(special) + 1):
            *landed, on_plain_fresh = spread
            fixed = tuple(
                c * int(k) + u for c, k, u in zip(on_special, keep_face, landed, strict=True)
            )
            key = (fixed, on_plain + on_plain_fresh)
            weight = w_primary * _multinomial(spread) * SIDES ** (most_fresh - fresh_dice)
            out[key] = out.get(key, 0) + weight
    return special, plain, out, SIDES ** (dice + most_fresh)


def _binomial_ways(n: int, k: int, others: int) -> int:
    """Ways ``k`` of ``n`` unread dice show this face, the rest being read at the ``others``
    faces still to come (with none to come, all of them show this face)."""
    if not others:
        return int(k == n)
    return comb(n, k)


def attack_wounds_distribution(
    dice: int, keep: int, block_dice: int, effects: PrimaryEffects = PrimaryEffects()
) -> dict[int, Fraction]:
    """Exact Wounds of one Clash or Volley: ``dice`` rolled, ``keep`` kept, ``block_dice`` blocking.

    A sweep over the faces 1 → 5 instead of a walk over dice: at face v the attack dice showing
    v (a binomial split of the plain dice still unread, or the fixed count a special rule left
    on v) become Hits while fewer than ``keep`` are kept, the Block dice showing v join the
    pending Block dice, and pending Block dice cancel Hits of v (a Block die cancels any Hit of
    its value or more, so matching the smallest Hits first as they come is optimal). The state
    is (plain attack dice unread, Hits kept, Block dice unread, Block dice pending): polynomial
    in the numbers, where the die-by-die walk (:func:`wounds_distribution_dp`, the oracle) is
    exponential. Results are cached by their inputs (a fresh dict is returned each time).

    >>> attack_wounds_distribution(1, 1, 0)
    {0: Fraction(1, 6), 1: Fraction(5, 6)}
    >>> fx = PrimaryEffects((True,) + (False,) * 5, (1,) + (0,) * 5)
    >>> attack_wounds_distribution(3, 2, 2, fx) == wounds_distribution_dp(3, 2, 2, fx)
    True
    """
    return dict(_cached_wounds(dice, keep, block_dice, effects))


def _sweep(
    dice: int, keep: int, block_dice: int, effects: PrimaryEffects
) -> tuple[tuple[int, Fraction], ...]:
    """The sweep of :func:`attack_wounds_distribution`: face by face, Block dice showing the face
    join the pending ones (:func:`_block_face`), attack dice showing it become Hits that pending
    Block dice cancel (:func:`_special_face`, :func:`_plain_face`), and finished states move to
    the Wounds counted (:func:`_collapse`)."""
    dice, keep, m = max(dice, 0), max(keep, 0), max(block_dice, 0)
    special, plain, start, den = _pool_start(dice, effects)
    if keep == 0 or not start:
        return ((0, Fraction(1)),)
    groups = _start_groups(start, keep, m)
    done: dict[int, int] = {}
    for face in range(1, SIDES):
        swept: dict[tuple[int, ...], np.ndarray] = {}
        for fixed, arr in groups.items():
            arr = _block_face(arr, face)
            if face in special:
                key, arr = _special_face(arr, fixed, special.index(face), keep)
            else:
                key, arr = fixed, _plain_face(arr, face, plain, keep)
            _collapse(arr, face, plain, keep, m, done, full_only=True)
            swept[key] = swept[key] + arr if key in swept else arr
        groups = swept
    for arr in groups.values():
        _collapse(arr, SIDES - 1, plain, keep, m, done, full_only=False)
    total = den * SIDES**m
    return tuple((w, Fraction(n, total)) for w, n in sorted(done.items()) if n)


def _start_groups(
    start: dict[tuple[tuple[int, ...], int], int], keep: int, m: int
) -> dict[tuple[int, ...], np.ndarray]:
    """The sweep's first states, one array per fixed count of the special faces, indexed
    (plain attack dice unread, Hits kept, Block dice unread, Block dice pending)."""
    r_dim = max(t for _, t in start) + 1
    groups: dict[tuple[int, ...], np.ndarray] = {}
    for (fixed, t), w in start.items():
        arr = groups.get(fixed)
        if arr is None:
            arr = groups[fixed] = np.zeros((r_dim, keep + 1, m + 1, m + 1), dtype=object)
            arr[...] = 0
        arr[t, 0, m, 0] += w
    return groups


def _block_face(arr: np.ndarray, face: int) -> np.ndarray:
    """Block dice showing ``face`` (of the ones still unread) join the pending Block dice."""
    c_block = SIDES + 1 - face
    live = np.argwhere(np.any(arr != 0, axis=(0, 1)))
    new = np.zeros_like(arr)
    new[...] = 0
    for b, p in live:
        for beta in range(b + 1):
            w = _binomial_ways(b, beta, c_block - 1)
            if w:
                new[:, :, b - beta, p + beta] += arr[:, :, b, p] * w
    return new


def _special_face(
    arr: np.ndarray, fixed: tuple[int, ...], index: int, keep: int
) -> tuple[tuple[int, ...], np.ndarray]:
    """The attack dice a special rule left on this face (``fixed[index]`` of them) become Hits
    while fewer than ``keep`` are kept; pending Block dice cancel them. Returns the group's new
    key (that face read) and its states."""
    live = np.argwhere(np.any(arr != 0, axis=(0, 2)))
    new = np.zeros_like(arr)
    new[...] = 0
    shown = fixed[index]
    for k, p in live:
        h = min(shown, keep - k)
        mt = min(h, p)
        new[:, k + h, :, p - mt] += arr[:, k, :, p]
    rest = list(fixed)
    rest[index] = 0
    return tuple(rest), new


def _plain_face(arr: np.ndarray, face: int, plain: Sequence[int], keep: int) -> np.ndarray:
    """Plain attack dice showing ``face`` (a binomial split of the ones unread) become Hits while
    fewer than ``keep`` are kept; pending Block dice cancel them."""
    r_dim = arr.shape[0]
    c_plain = sum(1 for f in plain if f >= face)
    live = np.argwhere(np.any(arr != 0, axis=(0, 2)))
    new = np.zeros_like(arr)
    new[...] = 0
    for shown in range(r_dim):
        ways = np.array(
            [_binomial_ways(r, shown, c_plain - 1) for r in range(shown, r_dim)],
            dtype=object,
        ).reshape(-1, 1)
        if not ways.any():
            continue
        for k, p in live:
            h = min(shown, keep - k)
            mt = min(h, p)
            piece = arr[shown:, k, :, p]
            if piece.any():
                new[: r_dim - shown, k + h, :, p - mt] += piece * ways
    return new


def _collapse(
    arr: np.ndarray, face: int, plain: Sequence[int], keep: int, m: int, done: dict[int, int],
    *, full_only: bool,
) -> None:
    """Move finished states (``keep`` Hits kept, or every state after the last face read) from
    ``arr`` to ``done`` (Wounds → ways): the dice not read yet can still fall on any face after
    ``face``."""
    r_dim, k_dim, b_dim = arr.shape[0], arr.shape[1], arr.shape[2]
    later_plain = sum(1 for f in plain if f > face)
    unread = np.array([later_plain**r for r in range(r_dim)], dtype=object)
    ks = [keep] if full_only else range(k_dim)
    for k in ks:
        for b in range(b_dim):
            for p in range(b_dim - b):
                total = (arr[:, k, b, p] * unread).sum()
                if total:
                    wounds = k - (m - b - p)  # Hits kept minus Block dice matched
                    done[wounds] = done.get(wounds, 0) + int(total) * (SIDES - face) ** b
        arr[:, k] = 0


@lru_cache(maxsize=256)
def _cached_wounds(
    dice: int, keep: int, block_dice: int, effects: PrimaryEffects
) -> tuple[tuple[int, Fraction], ...]:
    return _sweep(dice, keep, block_dice, effects)
