"""Conquest: First Blood extra Hits from effects (vectors FB-10 … FB-12 of docs/conquest.md),
Parry against a Volley (FB-13), the not-applied notes, against every way the dice fall."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from support.brute import enumerate_exact

from game.cli import main
from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, parse_faces
from game.core.errors import UsageError
from game.rules.base import AttackRequest
from game.rules.conquest import dice as cd
from game.rules.conquest.ruleset import RULESET

ATK, DEF = 1, 2


def warriors(attacker: dict[str, object], defender: dict[str, object], *, apart: bool = False) -> Board:
    base = {"wound_limit": 9, "resolve": 3}
    where = (5, 1) if apart else (2, 1)
    return Board.from_ascii(["......"] * 3, ruleset="conquest", figures=[
        Figure(ATK, "Knight", "Hundred Kingdoms", (1, 1), {**base, **attacker}),
        Figure(DEF, "Drone", "Spires", where, {**base, **defender}),
    ])


def resolve(board: Board, attack: str, faces: str, **options: object):
    dice = ScriptedDice(parse_faces(faces, pools=RULESET.pools, numeric=True), RULESET.pools)
    res = RULESET.resolve(AttackRequest(board, ATK, [DEF], attack, options), dice)
    dice.check_used()
    return res


def test_fb10_extra_hits_are_rolled_for_their_values_then_blocked() -> None:
    board = warriors({"attacks": 2, "clash": 1}, {"defence": 2})
    res = resolve(board, "Clash", "2 5 4 6 | 3 5", extra_hits=2)
    # kept Hit 2; extra Hits 4 and 6; Block 3 cancels 4, Block 5 cancels 6; the 2 stays
    assert res.outcome["hits"] == [2, 4, 6]
    assert res.outcome["wounds"] == 1
    step = next(s for s in res.steps if s.stage == "extra hits")
    assert step.text == "2 extra Hits from effects, rolled for their values: 4 6; Hits [2, 4, 6]."


def test_fb11_extra_hits_from_the_figure_and_the_flag_add_up() -> None:
    board = warriors({"attacks": 1, "clash": 1, "extra_hits": 1}, {"defence": 0})
    res = resolve(board, "Clash", "6 3 1", extra_hits=1)
    assert res.outcome["hits"] == [1, 3] and res.outcome["wounds"] == 2


def test_fb12_pure_hits_without_an_attack_roll() -> None:
    board = warriors({"attacks": 1, "clash": 1}, {"defence": 1})
    res = resolve(board, "Clash", "6 5 | 1", extra_hits=1)
    assert res.outcome["hits"] == [5] and res.outcome["wounds"] == 0


def test_fb13_parry_rerolls_a_volleys_ones_with_its_reason() -> None:
    board = warriors({"barrage": 3, "volley": 2, "range": 9}, {"defence": 0, "rules": "Parry"}, apart=True)
    res = resolve(board, "Volley", "1 4 5 2")
    assert sorted(res.outcome["dice"]) == [2, 4, 5] and res.outcome["hits"] == [2, 4]
    assert any("re-rolled (Parry)" in s.text for s in res.steps)
    assert any(s.text.startswith("Parry re-rolls the attack dice of 1 in a Volley too: the seed resolves")
               for s in res.steps)  # the decision's reason, where it acts
    clash = resolve(warriors({"attacks": 3, "clash": 2}, {"defence": 0, "rules": "Parry"}), "Clash", "1 4 5 2")
    assert not any(s.text.startswith("Parry re-rolls") for s in clash.steps)
    assert any("Parry re-rolls the attack dice of 1 in a Volley too" in a for a in RULESET.assumptions)


def test_bad_extra_hits_are_refused_with_one_line() -> None:
    board = warriors({"attacks": 1, "clash": 1}, {"defence": 0})
    with pytest.raises(UsageError, match="extra_hits must be 0 or more"):
        RULESET.odds(AttackRequest(board, ATK, [DEF], "Clash", {"extra_hits": -1}))
    board.update_figure(ATK, extra_hits=-2)
    with pytest.raises(UsageError, match="Knight: property 'extra_hits' must be 0 or more, not -2"):
        RULESET.check(AttackRequest(board, ATK, [DEF], "Clash", {}))


@pytest.mark.parametrize(
    ("attacker", "defender", "extra"),
    [
        ({"attacks": 2, "clash": 1}, {"defence": 2}, 1),
        ({"attacks": 1, "clash": 1, "rules": "Relentless Blows"}, {"defence": 1, "rules": "Parry"}, 1),
        ({"attacks": 1, "clash": 1}, {"defence": 2}, 2),
        ({"attacks": 2, "clash": 2, "extra_hits": 1}, {"evasion": 1}, 1),
    ],
)
def test_odds_with_extra_hits_equal_every_way_the_dice_fall(attacker: dict[str, object],
                                                           defender: dict[str, object], extra: int) -> None:
    board = warriors({"attacks": 1, "clash": 1, **attacker}, defender)
    request = AttackRequest(board, ATK, [DEF], "Clash", {"extra_hits": extra})

    def run(dice: object) -> int:
        return int(RULESET.resolve(request, dice).outcome["wounds"])  # type: ignore[arg-type, call-overload]

    brute, unknown = enumerate_exact(run, limit=20)
    assert unknown == 0
    odds = RULESET.odds(request)
    assert {k: p for k, p in odds.distribution.items() if p} == brute


def test_fb14_extra_hits_formula_on_its_own() -> None:
    # one extra Hit against one Block die: the Block die cancels it when block <= hit
    assert cd.wounds_with_extra_hits(0, 0, 1, 1) == {0: Fraction(21, 36), 1: Fraction(15, 36)}
    assert cd.wounds_with_extra_hits(2, 1, 0, 0) == cd.attack_wounds_distribution(2, 1, 0)


def test_cli_extra_hits_flag(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    conquest = str(Path(__file__).resolve().parent.parent / "maps" / "conquest.tmx")
    board_doc = json.loads(_run(capsys, ["odds", conquest, "Longbowman", "Brute Drone", "--json"]))
    more_doc = json.loads(_run(capsys, ["odds", conquest, "Longbowman", "Brute Drone", "--extra-hits", "2",
                                        "--json"]))
    assert more_doc["expected"] > board_doc["expected"]
    assert "2 extra Hits from effects" in more_doc["note"]
    assert main(["odds", conquest, "Longbowman", "Brute Drone", "--extra-hits", "x"]) == 2
    assert "--extra-hits: must be a whole number" in capsys.readouterr().err


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out
