"""One exact engine for any file: the odds of ruleset files against every way their dice can fall.

An enumerating dice source walks every sequence of faces the *resolution* can draw (depth first,
each path weighted by its faces' chances), so the resolution code itself is the oracle: the
distribution of its outcome, its take-out chance and its chances must equal the odds engine's,
exactly, for files that use every step kind (dynamic counts and targets, ``when`` on values,
rerolls, extra dice, keep lowest and highest, block dice both ways, opposed totals with
criticals and fumbles, cancel with armour) on random stat lines.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from game.core.board import Board, Figure
from game.core.dice import Die, Face
from game.rules.base import AttackRequest, Resolution
from game.rules.custom import CustomRuleset, load_ruleset


class PathDice:
    """Faces from a path of face indexes; past its end, the first face (recorded as a new branch)."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.used = 0
        self.sizes: list[int] = []
        self.weight = Fraction(1)

    def roll(self, die: Die, pool: int) -> Face:
        if self.used == len(self.path):
            self.path.append(0)
        index = self.path[self.used]
        self.used += 1
        self.sizes.append(len(die.faces))
        self.weight /= len(die.faces)
        return die.faces[index]


def every_resolution(resolve: Callable[[PathDice], Resolution]) -> list[tuple[Resolution, Fraction]]:
    """Every resolution with its chance (the paths of face indexes, as an odometer)."""
    out = []
    path: list[int] = []
    while True:
        dice = PathDice(path)
        out.append((resolve(dice), dice.weight))
        del path[dice.used:]
        while path and path[-1] + 1 >= dice.sizes[len(path) - 1]:
            path.pop()
        if not path:
            return out
        path[-1] += 1


CHAIN = '''
name = "chain"
[stats]
n = 1
skill = 3
tough = 2
save = 3
life = 2
taken = 0
[dice]
d3 = "d3"
[attacks.Hit]
kind = "melee"
dice = "attacker.n"
[[resolution.steps]]
step = "successes"
die = "d3"
dice = "attack.dice"
at_least = "attacker.skill"
always_fail = [1]
reroll = "failures"
into = "hits"
[[resolution.steps]]
step = "successes"
die = "d3"
pool = "wound"
dice = "hits"
at_least = "target.tough"
when = "hits > 0"
into = "wounds"
[[resolution.steps]]
step = "successes"
die = "d3"
pool = "save"
dice = "wounds"
at_most = "target.save - 1"
count = "failures"
into = "lost"
[[resolution.steps]]
step = "compute"
when = "lost > 1"
set = { lost = "lost + 1" }
[resolution.outcome]
value = "lost"
cap = "target.life - target.taken"
down = "target.taken + lost >= target.life"
chances = [{ label = "some", when = "lost > 0" }, { label = "many", when = "lost >= 2" }]
'''

OPPOSED = '''
name = "opposed"
[stats]
aim = 0
dodge = 0
dazed = false
armour = 0
hp = 3
[dice]
d3 = "d3"
[attacks.Shot]
kind = "melee"
[[resolution.steps]]
step = "total"
pool = "hit"
die = "d3"
dice = 2
modifier = "attacker.aim"
critical = { face = 3, at_least = 2 }
fumble = { face = 1, all = true }
into = "hit"
[[resolution.steps]]
step = "total"
pool = "dodge"
die = "d3"
dice = 1
when = "not target.dazed"
modifier = "target.dodge"
critical = { face = 3 }
fumble = { face = 2, at_least = 1 }
into = "dodge"
[[resolution.steps]]
step = "opposed"
attack = "hit"
defence = "dodge"
ties = "attack"
into = "hits"
[[resolution.steps]]
step = "total"
pool = "damage"
die = "d3"
when = "hits"
dice = "1 + hit_critical_dice"
into = "damage"
[[resolution.steps]]
step = "cancel"
value = "damage"
armour = "target.armour"
into = "real"
[resolution.outcome]
value = "real"
down = "real >= target.hp"
chances = [{ label = "hit", when = "hits" }]
'''

KEEP = '''
name = "keep"
[stats]
dice = 2
keep = 2
blocks = 1
parry = false
fury = false
resolve = 2
[dice]
k3 = "d3"
d3 = [1, 2, 2]
[attacks.Clash]
kind = "melee"
dice = "attacker.dice"
[[resolution.steps]]
step = "keep"
die = "k3"
dice = "attack.dice"
lowest = "attacker.keep"
never = [3]
reroll = { faces = [1], when = "target.parry" }
extra = [{ faces = [2], dice = 1, when = "attacker.fury" }, { faces = [1], dice = 1, when = "attacker.fury" }]
into = "hits"
[[resolution.steps]]
step = "block"
die = "d3"
pool = "block"
dice = "target.blocks"
hits = "hits"
into = "left"
[[resolution.steps]]
step = "successes"
die = "k3"
pool = "resolve"
dice = 1
when = "left > 0 and target.resolve - left > 0"
at_most = "target.resolve - left"
into = "held"
[[resolution.steps]]
step = "compute"
set = { gone = "left > 0 and held == 0" }
[resolution.outcome]
value = "left"
down = "gone"
chances = [{ label = "kept", when = "hits >= 2" }]
'''

HIGHEST = '''
name = "highest"
[stats]
dice = 2
keep = 1
blocks = 2
[dice]
d4 = "d4"
[attacks.Clash]
kind = "melee"
dice = "attacker.dice"
[[resolution.steps]]
step = "keep"
die = "d4"
dice = "attack.dice"
highest = "attacker.keep"
never = [1]
extra = { faces = [4], dice = 1 }
into = "hits"
[[resolution.steps]]
step = "block"
die = "d4"
pool = "block"
dice = "target.blocks"
hits = "hits"
cancels = "hit <= block"
into = "left"
[resolution.outcome]
value = "left"
'''

SYMBOLS = '''
name = "symbols"
[stats]
dice = 2
shields = 1
[dice]
attack = ["hit+hit", "hit+crit", "blank"]
defence = { shield = 1, blank = 2 }
[attacks.Swing]
kind = "melee"
dice = "attacker.dice"
[[resolution.steps]]
step = "count"
die = "attack"
dice = "attack.dice"
symbols = ["hit"]
into = "hits"
[[resolution.steps]]
step = "count"
die = "defence"
dice = "target.shields + (1 if hits > 2 else 0)"
symbols = ["shield"]
into = "saves"
[[resolution.steps]]
step = "cancel"
value = "hits"
by = "saves"
into = "damage"
[resolution.outcome]
value = "damage"
down = "damage >= 3"
'''

FILES: dict[str, tuple[str, Callable[[random.Random], tuple[dict, dict]]]] = {
    "chain": (CHAIN, lambda r: ({"n": r.randint(1, 2), "skill": r.randint(2, 3)},
                                {"tough": r.randint(1, 3), "save": r.randint(1, 4), "life": r.randint(1, 3),
                                 "taken": r.randint(0, 1) if r.random() < 0.5 else 0})),
    "opposed": (OPPOSED, lambda r: ({"aim": r.randint(-1, 2)},
                                    {"dodge": r.randint(-1, 3), "dazed": r.random() < 0.3,
                                     "armour": r.randint(0, 2), "hp": r.randint(1, 5)})),
    "keep": (KEEP, lambda r: ({"dice": r.randint(1, 2), "keep": r.randint(1, 3), "fury": r.random() < 0.5},
                              {"blocks": r.randint(0, 2), "parry": r.random() < 0.5, "resolve": r.randint(0, 4)})),
    "highest": (HIGHEST, lambda r: ({"dice": r.randint(1, 2), "keep": r.randint(1, 3)},
                                    {"blocks": r.randint(0, 2)})),
    "symbols": (SYMBOLS, lambda r: ({"dice": r.randint(1, 3)}, {"shields": r.randint(0, 2)})),
}


def _odds_of_every_resolution(rules: CustomRuleset, request: AttackRequest):  # type: ignore[no-untyped-def]
    dist: dict[int, Fraction] = {}
    down = Fraction(0)
    chances: dict[str, Fraction] = {}
    res_spec = rules.spec.resolutions["default"]
    cap_expr = res_spec.outcome.cap
    cap = None
    if cap_expr is not None:
        target = request.board.figure(request.targets[0])
        cap = int(cap_expr.evaluate(rules.stats_of(target, "target"), {}))  # type: ignore[call-overload]
    for res, p in every_resolution(lambda dice: rules.resolve(request, dice)):
        value = int(res.outcome["value"])  # type: ignore[call-overload]
        value = value if cap is None else min(value, cap)
        dist[value] = dist.get(value, Fraction(0)) + p
        if res.outcome["down"]:
            down += p
        for chance in res_spec.outcome.chances:
            if chance.when.evaluate({}, res.outcome):
                chances[chance.label] = chances.get(chance.label, Fraction(0)) + p
    return dist, down, chances


@pytest.mark.parametrize("name", sorted(FILES))
def test_odds_equal_the_weighted_resolutions(name: str) -> None:
    text, stat_line = FILES[name]
    rules = load_ruleset(text, f"{name}.toml")
    rng = random.Random(f"oracle-{name}")
    for _ in range(8):
        attacker, target = stat_line(rng)
        board = Board(3, 1, figures=[Figure(1, "A", "red", (0, 0), attacker),
                                     Figure(2, "B", "blue", (1, 0), target)])
        request = AttackRequest(board, 1, [2], None)
        odds = rules.odds(request)
        dist, down, chances = _odds_of_every_resolution(rules, request)
        assert {k: v for k, v in odds.distribution.items() if v} == {k: v for k, v in dist.items() if v}, (attacker, target)
        if odds.kill is not None:
            assert odds.kill == down
        for label, p in odds.chances:
            assert p == chances.get(label, Fraction(0)), (label, attacker, target)
        assert sum(odds.distribution.values()) == 1
        assert odds.expected == sum((k * v for k, v in dist.items()), Fraction(0))


def test_the_enumeration_itself_covers_every_path() -> None:
    rules = load_ruleset(SYMBOLS, "symbols.toml")
    board = Board(3, 1, figures=[Figure(1, "A", "red", (0, 0), {"dice": 2}),
                                 Figure(2, "B", "blue", (1, 0), {"shields": 1})])
    paths = every_resolution(lambda dice: rules.resolve(AttackRequest(board, 1, [2], None), dice))
    assert sum(p for _, p in paths) == 1
    # 2 attack dice (9 ways), then 1 or 2 defence dice (2 when hits > 2: hit+hit with hit+hit or hit+crit)
    assert len(paths) == 9 * 3 + 3 * 3 * 2
