"""The roll log: one JSON-friendly entry per attack, with its seed, every face and the outcome.

The session keeps the entries in the play state (``Session.roll_log``), so a reopened game shows
them. The dice-seed stream is the session's too (``Session.dice``, saved with the play state as
boardgame.io keeps its PRNG state in the game state): :func:`next_attack_seed` draws the next
attack's seed from the stream's state, and each entry records the state after its attack
(``entry["dice"]``). Undoing an attack rewinds the stream: the same attack rolled again gives the
same dice, unless the player asks for fresh ones (``Session.fresh_dice``).

Every attack rolls with its own :class:`~game.core.dice.SeededDice`, whose seed the log shows, so
``sightline attack MAP ATTACKER TARGET --attack NAME --seed N`` replays it on the same board, and
:func:`faces_argument` gives the ``--faces`` text of the same roll.

No pygame here: plain data in, plain data out.

>>> seed, state = next_attack_seed({"seed": 7, "draws": 0})
>>> seed, state
(316053050, {'seed': 7, 'draws': 9})
>>> next_attack_seed({"seed": 7, "draws": 0})[0] == seed
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.core.dice import Die, SeededDice
from game.rules.base import Resolution

#: the die the seed stream rolls: nine rolls of it make one attack's seed
SEED_DIE = Die("seed digit", (0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
SEED_DIGITS = 9


def dice_state(master_seed: int, roll_log: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The seed stream's state (``SeededDice.state()``) after the attacks in ``roll_log`` (for
    play states saved before the stream's state was: the last entry's ``dice``).

    >>> dice_state(7, [])
    {'seed': 7, 'draws': 0}
    >>> dice_state(7, [{"dice": {"seed": 7, "draws": 9}}])
    {'seed': 7, 'draws': 9}
    """
    for entry in reversed(roll_log):
        state = entry.get("dice")
        if isinstance(state, Mapping) and state.get("seed") == master_seed:
            return {"seed": int(master_seed), "draws": int(state.get("draws", 0))}
    return {"seed": int(master_seed), "draws": 0}


def next_attack_seed(state: Mapping[str, object]) -> tuple[int, dict[str, int]]:
    """The next attack's seed drawn from the stream in ``state``, and the stream's new state.

    The seed is nine rolls of a ten-sided die (:data:`SEED_DIE`) of the master stream, so the
    stream is an ordinary :class:`~game.core.dice.SeededDice` whose ``state()`` is saved.
    """
    master = SeededDice.from_state(state)
    digits = [master.roll(SEED_DIE, 0) for _ in range(SEED_DIGITS)]
    seed = int("".join(str(d) for d in digits))
    return seed, master.state()


def faces_by_pool(resolution: Resolution, pools: Sequence[str]) -> dict[str, list[str]]:
    """Every face rolled, by pool, in the order rolled (extra and re-rolled dice included).

    Pools the ruleset names come first, in its order; an empty pool is kept (as ``[]``).
    """
    out: dict[str, list[str]] = {pool: [] for pool in pools}
    for roll in resolution.rolls():
        out.setdefault(roll.pool, []).append(str(roll.face))
    return out


def faces_argument(resolution: Resolution, pools: Sequence[str]) -> str:
    """The ``--faces`` text that replays this roll exactly (empty when nothing was rolled).

    Trailing empty pools are left out; an empty pool in the middle stays as ``|  |``.
    """
    groups = [" ".join(faces) for faces in faces_by_pool(resolution, pools).values()]
    while groups and not groups[-1]:
        groups.pop()
    return " | ".join(groups)


def make_entry(
    resolution: Resolution,
    *,
    number: int,
    ruleset: str,
    pools: Sequence[str],
    attacker: tuple[int, str],
    targets: Sequence[tuple[int, str]],
    attack: str | None,
    options: Mapping[str, object],
    dice: Mapping[str, int] | None,
) -> dict[str, Any]:
    """One roll-log entry (JSON-friendly) for a resolved, legal attack.

    ``dice`` is the seed stream's state after this attack (None for deterministic rules).
    """
    data = resolution.as_json()
    entry: dict[str, Any] = {
        "n": number,
        "ruleset": ruleset,
        "attacker": attacker[0],
        "attacker_name": attacker[1],
        "targets": [t[0] for t in targets],
        "target_names": [t[1] for t in targets],
        "attack": attack,
        "options": {k: v for k, v in options.items() if v not in (None, "")},
        "seed": resolution.seed,
        "faces": {k: v for k, v in faces_by_pool(resolution, pools).items() if v},
        "replay_faces": faces_argument(resolution, pools),
        "steps": [step.text for step in resolution.steps],
        "outcome": data["outcome"],
        "summary": resolution.sentence(),
    }
    if dice is not None:
        entry["dice"] = dict(dice)
    return entry


#: characters the bundled fonts lack, and what to show instead
_PLAIN = str.maketrans({"→": "->", "←": "<-", "✕": "x"})


def plain_text(text: str) -> str:
    """Text with the characters the window's fonts cannot draw replaced (``→`` becomes ``->``).

    >>> plain_text("halved once, rounded down → 1")
    'halved once, rounded down -> 1'
    """
    return text.translate(_PLAIN)


def roll_line(entry: Mapping[str, Any]) -> str:
    """The dice and the result of an entry in one log line (the window's log shows it).

    >>> roll_line({"faces": {"attack": ["crit", "bow"], "defence": ["blank"]},
    ...            "summary": "2 hits − 0 saves: 2 wounds."})
    '  dice: attack crit bow | defence blank. 2 hits − 0 saves: 2 wounds.'
    """
    faces = " | ".join(f"{pool} {' '.join(str(f) for f in fs)}" for pool, fs in (entry.get("faces") or {}).items())
    parts = [f"dice: {faces}." if faces else ""]
    if entry.get("summary"):
        parts.append(str(entry["summary"]))
    return plain_text("  " + " ".join(p for p in parts if p))
