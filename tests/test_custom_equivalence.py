"""Proof by re-expression: the ruleset files of ``examples/rulesets/`` against the built-in rulesets.

For Arcadia Quest, Conquest (Clash and Volley) and the folklore 2D6 TRPG, each random stat line is
written twice (the built-in's figure properties and the file's) and both rulesets must give the
same exact odds (as fractions: stronger than 1e-12), roll the same dice in the same order for the
same seeds, resolve the same faces of a physical roll the same way, and leave the target with the
same stats. What the files cannot say is named in :data:`NOT_STATED` and shown to differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.play.ruleset_file import read_ruleset_file
from game.rules.base import AttackRequest, Ruleset, stat_bool, stat_int
from game.rules.custom import CustomRuleset
from game.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rulesets"
LINES = 160  # random stat lines per game (the issue asks for at least 150)
SEEDS = 3  # seeded resolutions per stat line


@dataclass(frozen=True)
class Pair:
    """One stat line written for both rulesets: boards, attack names, the stats to compare."""

    builtin: Board
    custom: Board
    builtin_attack: str
    custom_attack: str
    compared: tuple[tuple[str, str, object], ...]  # (builtin stat, file stat, default)


def _board(ruleset: str | None, attacker: dict, target: dict) -> Board:
    board = Board.from_ascii(["....."], ruleset=ruleset or "arcadia")
    board.place_figure(Figure(1, "Attacker", "red", (1, 0), attacker))
    board.place_figure(Figure(2, "Target", "blue", (2, 0), target))
    return board


def arcadia_line(rng: random.Random) -> Pair:
    kind = rng.choice(["melee", "ranged"])
    dice = rng.randint(1, 7)
    attacker = {"attack_bonus": rng.choice([0, 0, 1, 2, -1])}
    target: dict[str, object] = {"defense": rng.randint(0, 5), "defense_bonus": rng.choice([0, 0, 1, -1])}
    if rng.random() < 0.8:
        target["life"] = rng.randint(1, 8)
        target["wounds"] = rng.randint(0, int(target["life"]) - 1)  # type: ignore[call-overload]
    if rng.random() < 0.2:
        target["dazed"] = True
    return Pair(
        _board("arcadia", {**attacker, "attacks": f"Card:{kind}:{dice}"}, target),
        _board(None, {**attacker, kind: dice}, target),
        "Card", kind.capitalize(),
        (("wounds", "wounds", 0), ("killed", "killed", False)),
    )


def conquest_line(rng: random.Random) -> Pair:
    action = rng.choice(["Clash", "Volley"])
    attacker = {"attacks": rng.randint(1, 7), "clash": rng.randint(1, 4), "barrage": rng.randint(1, 6),
                "volley": rng.randint(1, 4), "range": rng.randint(1, 3)}
    target: dict[str, object] = {"defence": rng.randint(0, 5), "evasion": rng.randint(0, 5)}
    if rng.random() < 0.8:
        target["wound_limit"] = rng.randint(1, 4)
    if rng.random() < 0.8:
        target["resolve"] = rng.randint(-1, 5)
    target["wounds"] = rng.randint(0, 3)
    if rng.random() < 0.2:
        target["broken"] = True
    relentless, parry = rng.random() < 0.4, rng.random() < 0.4
    builtin_a = {**attacker, **({"rules": "Relentless Blows"} if relentless else {})}
    builtin_t = {**target, **({"rules": "Parry"} if parry else {})}
    return Pair(
        _board("conquest", builtin_a, builtin_t),
        _board(None, {**attacker, "relentless_blows": relentless}, {**target, "parry": parry}),
        action, action,
        (("wounds", "wounds", 0), ("slain", "slain", False), ("broken", "broken", False)),
    )


def folklore_line(rng: random.Random) -> Pair:
    kind = rng.choice(["melee", "ranged"])
    attribute = rng.choice(["valour", "wits"])
    bonus = rng.randint(-1, 4)
    maxhp = rng.random() < 0.25
    attacker: dict[str, object] = {"valour": rng.randint(-1, 6), "wits": rng.randint(-1, 6), "hp": 9}
    if rng.random() < 0.7:
        attacker["hit_dice"] = rng.randint(1, 4)
    hp = rng.randint(-2, 12)
    target: dict[str, object] = {"senses": rng.randint(0, 5), "hp": hp, "armour": rng.randint(0, 4),
                                 "valour": rng.randint(0, 6), "max_hp": max(hp, 1) + rng.randint(0, 5)}
    if rng.random() < 0.15:
        target["incapacitated"] = True
    weapon = f"Weapon:{attribute}:{bonus}:{kind}" + (":maxhp" if maxhp else "")
    custom_a = {**attacker, kind: True, f"{kind}_wits": attribute == "wits", f"{kind}_bonus": bonus,
                f"{kind}_maxhp": maxhp}
    return Pair(
        _board("folklore", {**attacker, "weapons": weapon}, target),
        _board(None, custom_a, target),
        "Weapon", kind.capitalize(),
        (("hp", "hp", 0), ("max_hp", "max_hp", None), ("incapacitated", "incapacitated", False),
         ("dead", "dead", False)),
    )


GAMES: dict[str, tuple[str, Callable[[random.Random], Pair]]] = {
    "arcadia": ("arcadia.toml", arcadia_line),
    "conquest": ("conquest.toml", conquest_line),
    "folklore": ("folklore.toml", folklore_line),
}


def _rules(game: str) -> tuple[Ruleset, CustomRuleset]:
    return get_ruleset(game), read_ruleset_file(EXAMPLES / GAMES[game][0])


def _requests(pair: Pair) -> tuple[AttackRequest, AttackRequest]:
    return (AttackRequest(pair.builtin, 1, [2], pair.builtin_attack),
            AttackRequest(pair.custom, 1, [2], pair.custom_attack))


def _lines(game: str) -> list[Pair]:
    rng = random.Random(f"equivalence-{game}")
    return [GAMES[game][1](rng) for _ in range(LINES)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_identical_odds_on_random_stat_lines(game: str) -> None:
    builtin, custom = _rules(game)
    legal = 0
    for pair in _lines(game):
        mine, theirs = _requests(pair)
        verdicts = builtin.check(mine), custom.check(theirs)
        assert verdicts[0].legal == verdicts[1].legal, (pair, verdicts)
        if not verdicts[0].legal:
            continue
        legal += 1
        expected, got = builtin.odds(mine), custom.odds(theirs)
        values = set(expected.distribution) | set(got.distribution)
        for v in values:
            assert expected.distribution.get(v, Fraction(0)) == got.distribution.get(v, Fraction(0)), (pair, v)
        assert expected.expected == got.expected
        assert expected.kill == got.kill
        assert expected.truncated == got.truncated
        assert expected.shown_chances() == got.shown_chances()
        assert expected.kill_label == got.kill_label
        if expected.truncated:
            assert "explosion chains cut below 1e-12 per die" in got.note
    assert legal >= 150


def _stats(board: Board, compared: tuple[tuple[str, str, object], ...], builtin: bool) -> list[object]:
    figure = board.figure(2)
    out: list[object] = []
    for ours, theirs, default in compared:
        key = ours if builtin else theirs
        if isinstance(default, bool):
            out.append(stat_bool(figure, key))
        else:
            out.append(stat_int(figure, key, stat_int(figure, "hp") if default is None else int(default)))  # type: ignore[call-overload]
    return out


def _same_resolution(builtin: Ruleset, custom: CustomRuleset, pair: Pair, make_dice: Callable[[], object]) -> None:
    mine, theirs = _requests(pair)
    first = builtin.resolve(mine, make_dice())  # type: ignore[arg-type]
    second = custom.resolve(theirs, make_dice())  # type: ignore[arg-type]
    assert first.legal and second.legal
    assert [(r.pool, r.face) for r in first.rolls()] == [(r.pool, r.face) for r in second.rolls()], pair
    boards = pair.builtin.copy(), pair.custom.copy()
    builtin.apply(boards[0], first)
    custom.apply(boards[1], second)
    assert _stats(boards[0], pair.compared, True) == _stats(boards[1], pair.compared, False), pair


@pytest.mark.parametrize("game", sorted(GAMES))
def test_identical_resolutions_for_the_same_seeds_and_faces(game: str) -> None:
    builtin, custom = _rules(game)
    # the attack's pools; the built-in Arcadia Quest adds its reactions' (Guard, Payback) after them
    assert custom.pools == builtin.pools[: len(custom.pools)]
    pools = custom.pools  # the attack's own pools (a reaction is rolled after the attack)
    checked = 0
    for index, pair in enumerate(_lines(game)):
        mine, _ = _requests(pair)
        if not builtin.check(mine).legal:
            continue
        for seed in range(index * SEEDS, index * SEEDS + SEEDS):
            _same_resolution(builtin, custom, pair, lambda seed=seed: SeededDice(seed))
            rolled = builtin.resolve(mine, SeededDice(seed)).rolls()
            text = " | ".join(" ".join(str(r.face) for r in rolled if r.pool == pool) for pool in pools)
            names, numeric = builtin.face_names, builtin.face_names is None
            faces = parse_faces(text, pools=pools, names=names, numeric=numeric)
            _same_resolution(builtin, custom, pair, lambda faces=faces: ScriptedDice(faces, pools))
            checked += 1
    assert checked >= 150 * SEEDS


#: rules of the built-ins a file cannot state, each with why (docs/rulesets.md says the same)
NOT_STATED = {
    "arcadia": [
        ("attack cards named per figure, exhausted when used, and Rest",
         "a file's attacks are the game's, not a figure's cards; a resolution changes stats, not menus"),
        ("die faces overridden by the map properties attack_die / defense_die",
         "a file's dice are the file's; the map cannot change them"),
        ("rerolls, a card's effects on a CRIT, and the monsters' Guard and Payback",
         "a file's attack is one roll against one target; it has no cards and no reactions"),
    ],
    "conquest": [
        ("the defender's choice of Defence or Evasion to block with",
         "a file has no choices a player picks: it blocks with the higher, the built-in's default"),
        ("special rules listed by name in the rules property",
         "a file reads stats: Relentless Blows and Parry become true/false stats"),
        ("extra Hits from effects (extra_hits, --extra-hits)",
         "a file's Hits are kept from its own roll"),
    ],
    "folklore": [
        ("a weapons list per figure (name, attribute, bonus, reach, flags)",
         "a file's attacks are the game's: each figure has one melee and one ranged weapon as stats"),
        ("bad statuses a hit inflicts (+Tag) and the end combat / end scene actions",
         "statuses are free-form text tags; a file's values are numbers and true/false"),
        ("skills (attack and reaction) and the effects a map states for bad statuses",
         "a file's attacks are the game's; its values are numbers and true/false, not effect lists"),
    ],
}


def test_what_the_files_cannot_state_really_differs() -> None:
    arcadia, arcadia_file = _rules("arcadia")
    pair = arcadia_line(random.Random(3))
    first = arcadia.resolve(_requests(pair)[0], SeededDice(1))
    second = arcadia_file.resolve(_requests(pair)[1], SeededDice(1))
    assert any(c.figure_id == 1 and "exhausted" in c.stats for c in first.changes)
    assert not any(c.figure_id == 1 for c in second.changes)
    assert arcadia.actions(pair.builtin, "red") == ["rest"] and arcadia_file.actions(pair.custom, "red") == []
    conquest, conquest_file = _rules("conquest")
    assert conquest.choices(pair.builtin, 1, [2]) and not conquest_file.choices(pair.custom, 1, [2])
    folklore, folklore_file = _rules("folklore")
    assert "statuses" in folklore.known_properties and "statuses" not in folklore_file.known_properties
    assert "weapons" in folklore.known_properties and "weapons" not in folklore_file.known_properties
    assert folklore.actions(pair.builtin, "red") and not folklore_file.actions(pair.custom, "red")
    assert all(NOT_STATED[game] for game in GAMES)
