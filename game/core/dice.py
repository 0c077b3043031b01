"""Dice as data, seeded and scripted dice sources, the faces of a physical roll, exploding pools.

Pure: no files, no clock. Randomness only comes from a :class:`SeededDice` built from an explicit
seed, whose tiny state (seed + number of draws) is kept in the play state so a game replays exactly
(the boardgame.io habit). :class:`ScriptedDice` plays back the faces a person rolled on real dice.

A ruleset rolls through a :class:`DiceSource`: ``source.roll(die, pool)`` gives one face, ``pool``
being the index of the pool in the ruleset's order (e.g. 0 = attack, 1 = defence). Each rolled
die becomes a :class:`DieRoll` in the resolution's steps.

>>> dice = SeededDice(7)
>>> [dice.roll(D6, 0) for _ in range(5)]
[2, 1, 4, 1, 4]
>>> again = SeededDice.from_state(SeededDice(7).state())
>>> [again.roll(D6, 0) for _ in range(5)]
[2, 1, 4, 1, 4]
>>> scripted = ScriptedDice(parse_faces("3 5 | 6", pools=("attack", "defence"), numeric=True),
...                         ("attack", "defence"))
>>> scripted.roll(D6, 0), scripted.roll(D6, 1), scripted.roll(D6, 0)
(3, 6, 5)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from game.core.errors import FacesError, UsageError
from game.core.words import plural

Face = str | int

_SPLIT_RE = re.compile(r"[\s,]+")


class Rerolled(str):
    """A face of a physical roll that re-rolls the die before it (a physical roll writes it ``old>new``):
    it equals its face name, so it is checked against the die like any face.

    >>> Rerolled("shield") == "shield", type(parse_faces("blank>shield", pools=("defence",),
    ...     names={"blank", "shield"}, rerolls=True)[0][1]).__name__
    (True, 'Rerolled')
    """

    __slots__ = ()


@dataclass(frozen=True)
class Die:
    """A die: a name and its faces, one entry per physical face (repeat a face to weight it).

    >>> Die("defence", ("shield", "crit", "blank", "blank", "blank", "blank")).probability("blank")
    Fraction(2, 3)
    """

    name: str
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError(f"die {self.name!r} has no faces")

    @property
    def sides(self) -> int:
        """How many faces the die has."""
        return len(self.faces)

    def probability(self, face: Face) -> Fraction:
        """The exact chance of rolling ``face``."""
        return Fraction(self.faces.count(face), len(self.faces))

    def distinct(self) -> tuple[Face, ...]:
        """The distinct faces, in table order.

        >>> D6.distinct()[:2], Die("x", ("a", "b", "a")).distinct()
        ((1, 2), ('a', 'b'))
        """
        return tuple(dict.fromkeys(self.faces))

    @staticmethod
    def parse(name: str, text: str, *, allowed: Collection[str] | None = None) -> Die:
        """A die from a comma list of faces (as a map property writes it).

        >>> Die.parse("attack", "sword, sword,sword,bow,bow,crit").faces
        ('sword', 'sword', 'sword', 'bow', 'bow', 'crit')
        """
        faces = [f.strip().lower() for f in str(text).split(",") if f.strip()]
        if not faces:
            raise UsageError(f"the {name} die has no faces: {text!r}")
        if allowed is not None:
            bad = [f for f in faces if f not in allowed]
            if bad:
                raise UsageError(
                    f"the {name} die has unknown faces {', '.join(bad)} "
                    f"(allowed: {', '.join(sorted(allowed))})"
                )
        return Die(name, tuple(faces))


D6 = Die("d6", (1, 2, 3, 4, 5, 6))


class DiceSource(Protocol):
    """Where faces come from: a seeded generator or the faces of a physical roll."""

    def roll(self, die: Die, pool: int) -> Face:
        """One face of ``die``, rolled for pool number ``pool`` (the ruleset's pool order)."""
        ...


class SeededDice:
    """A seeded generator that replays exactly; its state is ``{"seed", "draws"}`` (JSON-friendly).

    Each roll consumes exactly one ``random.Random.random()`` draw, so the state can be restored
    by replaying the number of draws.

    >>> d = SeededDice(1)
    >>> d.roll(D6, 0), d.state()
    (1, {'seed': 1, 'draws': 1})
    """

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.draws = 0
        self._rng = random.Random(self.seed)

    def roll(self, die: Die, pool: int = 0) -> Face:
        """One face of ``die`` (each face equally likely)."""
        self.draws += 1
        return die.faces[int(self._rng.random() * len(die.faces))]

    def roll_many(self, die: Die, count: int) -> list[Face]:
        """``count`` faces of ``die`` (same stream as calling :meth:`roll` ``count`` times)."""
        n = len(die.faces)
        rnd = self._rng.random
        self.draws += count
        return [die.faces[int(rnd() * n)] for _ in range(count)]

    def state(self) -> dict[str, int]:
        """The generator's state as plain data: seed and number of draws so far."""
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_state(cls, state: Mapping[str, object]) -> SeededDice:
        """A generator in the state :meth:`state` returned (replays the draws)."""
        try:
            seed = int(state["seed"])  # type: ignore[call-overload]
            draws = int(state.get("draws", 0))  # type: ignore[call-overload]
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"not a dice state: {dict(state)!r}") from exc
        dice = cls(seed)
        for _ in range(draws):
            dice._rng.random()
        dice.draws = draws
        return dice

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed}, draws={self.draws})"


class NotEnoughFaces(FacesError):
    """A scripted pool ran out: ``pool`` is its name, ``given`` how many faces it had; ``problem``
    says how many more it needs, as far as is known."""

    def __init__(self, pool: str, given: int, problem: str | None = None) -> None:
        self.given = given
        super().__init__(problem or f"not enough faces for the {pool} pool: at least 1 more needed",
                         pool=pool)


class ScriptedDice:
    """Faces a person rolled on real dice: one list per pool, in the order rolled.

    >>> s = ScriptedDice([["sword"], []], ["attack", "defence"])
    >>> s.roll(Die("attack", ("sword", "bow")), 0)
    'sword'
    >>> s.roll(Die("defence", ("shield", "blank")), 1)
    Traceback (most recent call last):
    ...
    game.core.dice.NotEnoughFaces: not enough faces for the defence pool: at least 1 more needed
    """

    def __init__(self, pools: Sequence[Sequence[Face]], pool_names: Sequence[str]) -> None:
        if len(pools) > len(pool_names):
            raise FacesError(
                f"{len(pools)} pools given, but this ruleset rolls only "
                f"{len(pool_names)} ({' | '.join(pool_names)})"
            )
        self.pool_names = tuple(pool_names)
        self.pools = [list(p) for p in pools] + [[] for _ in range(len(pool_names) - len(pools))]
        self.used = [0] * len(pool_names)

    def roll(self, die: Die, pool: int) -> Face:
        """The next scripted face of pool ``pool``; it must be a face of ``die``."""
        faces = self.pools[pool]
        name = self.pool_names[pool]
        if self.used[pool] >= len(faces):
            raise NotEnoughFaces(name, len(faces))
        face = faces[self.used[pool]]
        self.used[pool] += 1
        if face not in die.faces:
            shown = ", ".join(str(f) for f in die.distinct())
            raise FacesError(f"{face!r} is not a face of the {die.name} die (faces: {shown})", pool=name)
        return face

    def leftover(self) -> dict[str, list[Face]]:
        """The faces not used, by pool name (pools with none left are omitted)."""
        return {
            name: faces[used:]
            for name, faces, used in zip(self.pool_names, self.pools, self.used, strict=True)
            if used < len(faces)
        }

    def next_is_reroll(self, pool: int) -> bool:
        """Whether the next face of pool ``pool`` re-rolls the die before it (``old>new``)."""
        faces = self.pools[pool]
        return self.used[pool] < len(faces) and isinstance(faces[self.used[pool]], Rerolled)

    def check_used(self, pools: Collection[str] | None = None) -> None:
        """Raise FacesError if some pool (of ``pools``, by name; None: every pool) has faces the
        rules never asked for."""
        extra = {name: faces for name, faces in self.leftover().items() if pools is None or name in pools}
        if extra:
            parts = [
                f"the {name} pool has {plural(len(faces), 'extra face')} "
                f"({' '.join(str(f) for f in faces)})"
                for name, faces in extra.items()
            ]
            raise FacesError("; ".join(parts), pool=next(iter(extra)))


def parse_faces(
    text: str,
    *,
    pools: Sequence[str],
    names: Collection[str] | None = None,
    numeric: bool = False,
    rerolls: bool = False,
) -> list[list[Face]]:
    """Read the faces of a physical roll: pools separated by ``|``, faces by spaces or commas.

    Fewer pools than the ruleset rolls is fine (the rest are empty); names are case-insensitive.
    With ``rerolls``, ``old>new`` is a die that showed ``old`` and was re-rolled to ``new``
    (:class:`Rerolled`; ``a>b>c`` re-rolls twice); without, ``>`` is refused.

    >>> parse_faces("crit, bow bow | Shield", pools=("attack", "defence"),
    ...             names={"sword", "bow", "crit", "shield", "blank"})
    [['crit', 'bow', 'bow'], ['shield']]
    >>> parse_faces("6 6 1", pools=("attack", "defence"), numeric=True)
    [[6, 6, 1], []]
    >>> parse_faces("sword | axe", pools=("attack", "defence"), names={"sword"})
    Traceback (most recent call last):
    ...
    game.core.errors.FacesError: unknown face 'axe' in the defence pool (faces: sword)
    """
    groups = text.split("|")
    if len(groups) > len(pools):
        raise FacesError(
            f"{len(groups)} pools given, but this ruleset rolls {len(pools)} "
            f"({' | '.join(pools)})"
        )
    allowed = None if names is None else {n.lower() for n in names}
    result: list[list[Face]] = []
    for pool, group in zip(pools, groups + [""] * (len(pools) - len(groups)), strict=True):
        faces: list[Face] = []
        for token in _SPLIT_RE.split(group.strip()):
            if not token:
                continue
            if ">" in token:
                faces.extend(_rerolled(token, pool, allowed, rerolls))
                continue
            if numeric:
                if not token.lstrip("-").isdigit():
                    raise FacesError(f"{token!r} in the {pool} pool is not a number", pool=pool)
                faces.append(int(token))
                continue
            word = token.lower()
            if allowed is not None and word not in allowed:
                raise FacesError(
                    f"unknown face {token!r} in the {pool} pool "
                    f"(faces: {', '.join(sorted(allowed))})",
                    pool=pool,
                )
            faces.append(word)
        result.append(faces)
    return result


def _rerolled(token: str, pool: str, allowed: set[str] | None, rerolls: bool) -> list[Face]:
    """``old>new>...``: the first face, then each re-roll as a :class:`Rerolled` face."""
    if not rerolls:
        raise FacesError(f"{token!r} in the {pool} pool: these rules have no rerolls (write one face per die)",
                         pool=pool)
    words = [w.lower() for w in token.split(">")]
    if any(not w for w in words):
        raise FacesError(f"{token!r} in the {pool} pool: write a reroll as old>new, e.g. blank>shield", pool=pool)
    for word in words:
        if allowed is not None and word not in allowed:
            raise FacesError(f"unknown face {word!r} in the {pool} pool (faces: {', '.join(sorted(allowed))})",
                             pool=pool)
    return [words[0], *(Rerolled(w) for w in words[1:])]


@dataclass(frozen=True)
class DieRoll:
    """One die as rolled: its pool, its die, the face, and why it was rolled.

    ``reason`` is ``"rolled"``, ``"explosion of die 3"``, ``"reroll of die 2"`` ...
    """

    pool: str
    die: str
    face: Face
    reason: str = "rolled"

    def as_json(self) -> dict[str, object]:
        """``{"pool", "die", "face", "reason"}``."""
        return {"pool": self.pool, "die": self.die, "face": self.face, "reason": self.reason}


def roll_pool(
    source: DiceSource,
    die: Die,
    count: int,
    *,
    pool: int,
    pool_name: str,
    explodes: Callable[[Face], bool] = lambda face: False,
) -> list[DieRoll]:
    """Roll ``count`` dice, then one extra die per exploding face, recursively (no cap).

    Dice are numbered from 1 in the order rolled; an extra die says which die it explodes.
    With scripted dice that run out, the error says how many faces are missing at least:
    ``the attack pool needs 2 more faces (3 dice + 1 explosion)``.

    >>> atk = Die("attack", ("sword", "crit"))
    >>> s = ScriptedDice([["crit", "crit", "sword"]], ["attack"])
    >>> [(r.face, r.reason) for r in roll_pool(s, atk, 1, pool=0, pool_name="attack",
    ...                                          explodes=lambda f: f == "crit")]
    [('crit', 'rolled'), ('crit', 'explosion of die 1'), ('sword', 'explosion of die 2')]
    """
    rolls: list[DieRoll] = []
    pending: list[str] = ["rolled"] * count
    explosions = 0
    while pending:
        reason = pending.pop(0)
        try:
            face = source.roll(die, pool)
        except NotEnoughFaces as exc:
            needed = count + explosions
            missing = needed - len(rolls)
            expl = f" + {plural(explosions, 'explosion')}" if explosions else ""
            raise NotEnoughFaces(
                pool_name,
                exc.given,
                f"the {pool_name} pool needs {plural(missing, 'more face')} "
                f"({plural(count, 'die', 'dice')}{expl})",
            ) from None
        rolls.append(DieRoll(pool_name, die.name, face, reason))
        if explodes(face):
            explosions += 1
            pending.append(f"explosion of die {len(rolls)}")
    return rolls
