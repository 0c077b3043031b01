"""The attack flow without a window (``game/play/attack.py``) and the session's dice-seed stream:
real maps, real rules, real seeded dice, an :class:`InstantReveal` instead of the tray."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from game.core.board import Board, Figure
from game.core.errors import PlayError
from game.play.attack import AttackController
from game.play.reveal import InstantReveal
from game.play.roll_log import dice_state, next_attack_seed
from game.play.session import Session
from game.rules.base import AttackRequest
from game.rules.registry import get_ruleset

REPO = Path(__file__).resolve().parent.parent
EMBER, CINDER = 30, 42
TOVAK, PROWLERS = 15, 16


def session_on(tmp_path: Path, name: str, seed: int = 7) -> Session:
    target = tmp_path / f"{name}.tmx"
    shutil.copy(REPO / "maps" / f"{name}.tmx", target)
    for folder in ("tiles",):
        if (REPO / "maps" / folder).exists():
            shutil.copytree(REPO / "maps" / folder, tmp_path / folder, dirs_exist_ok=True)
    session = Session.open(target)
    session.seed_source = lambda: seed
    return session


def test_the_flow_asks_the_rules_one_request_and_records_one_undoable_attack(tmp_path: Path) -> None:
    session = session_on(tmp_path, "demo")
    session.selected = EMBER
    flow = AttackController(lambda: session)
    assert isinstance(flow.tray, InstantReveal)
    rules = get_ruleset(session.board.ruleset)
    assert flow.candidates() == rules.targets(session.board, EMBER)  # the rules decide who
    flow.set_target(CINDER)
    request = flow.request()
    assert request == AttackRequest(session.board, EMBER, (CINDER,), "Short Bow", {})
    assert flow.verdict() == rules.check(request)
    assert flow.odds() == rules.odds(request)
    before = session.board.state()
    result = flow.roll()
    assert result is not None and result.seed == next_attack_seed({"seed": 7, "draws": 0})[0]
    entry = session.roll_log[-1]
    assert entry["summary"] == result.sentence() == result.summary  # one sentence everywhere
    assert session.dice == entry["dice"] == next_attack_seed({"seed": 7, "draws": 0})[1]
    session.undo()
    assert session.board.state() == before and session.roll_log == []
    assert session.dice == {"seed": 7, "draws": 0} and session.repeats_undone


def test_the_seed_stream_is_saved_in_the_play_state_and_survives_a_fresh_roll(tmp_path: Path) -> None:
    session = session_on(tmp_path, "demo")
    session.selected = EMBER
    flow = AttackController(lambda: session)
    flow.set_target(CINDER)
    first = flow.roll()
    session.undo()
    skipped = session.fresh_dice()
    assert first is not None and skipped == first.seed and not session.repeats_undone
    saved = json.loads(session.state_file.read_text(encoding="utf-8"))
    assert saved["dice"] == session.dice and saved["dice"]["draws"] == 9
    reopened = Session.open(session.path)
    assert reopened.dice == session.dice and reopened.dice_seed == 7
    again = AttackController(lambda: reopened)
    reopened.selected = EMBER
    again.set_target(CINDER)
    second = again.roll()
    assert second is not None and second.seed == next_attack_seed(session.dice)[0] != first.seed


def test_a_play_state_saved_before_the_stream_was_continues_from_its_log(tmp_path: Path) -> None:
    session = session_on(tmp_path, "demo")
    session.selected = EMBER
    flow = AttackController(lambda: session)
    flow.set_target(CINDER)
    flow.roll()
    data = json.loads(session.state_file.read_text(encoding="utf-8"))
    del data["dice"]  # the format of 0.1.0
    session.state_file.write_text(json.dumps(data), encoding="utf-8")
    reopened = Session.open(session.path)
    assert reopened.dice == dice_state(7, reopened.roll_log) == session.dice


def test_a_rules_error_is_phrased_by_whoever_drives_the_flow(tmp_path: Path) -> None:
    session = session_on(tmp_path, "mage_knight")
    session.selected = TOVAK
    said: list[tuple[str, str]] = []
    flow = AttackController(lambda: session, on_message=lambda text, kind: said.append((kind, text)),
                            phrase=lambda error: f"[{type(error).__name__}: {getattr(error, 'item', '')}]")
    flow.set_attack("Ranged/Siege")
    flow.set_target(PROWLERS)
    flow.play = "ranged fire"
    verdict = flow.verdict()
    assert verdict is not None and verdict.reason == "[PlayError: ranged fire]"
    with pytest.raises(PlayError) as raised:
        get_ruleset("mage_knight").check(flow.request())  # type: ignore[arg-type]
    assert raised.value.item == "ranged fire" and raised.value.problem is None
    assert flow.roll() is None and said[-1] == ("blocked", "[PlayError: ranged fire]")


class _OnlyGoblins(type(get_ruleset("arcadia"))):  # type: ignore[misc]
    """Arcadia, but only goblins may be targeted."""

    def targets(self, board: Board, attacker: int) -> list[int]:
        return [f.id for f in board.figures.values() if f.name == "Goblin"]


class _Loaded:
    path = "x.tmx"

    def __init__(self, board: Board) -> None:
        self.board = board


class _FlowWith(AttackController):
    """The flow on a given ruleset (the registry's is the map's)."""

    rules = _OnlyGoblins()

    @property
    def ruleset(self):  # noqa: ANN201 - a Ruleset
        return self.rules


def test_targets_are_the_rules_answer_not_the_windows() -> None:
    board = Board(3, 1, figures=[Figure(1, "Mark", "red", (0, 0), {"attacks": "Blade:melee:1"}),
                                 Figure(2, "Goblin", "monsters", (1, 0), {"life": 2}),
                                 Figure(3, "Orc", "monsters", (2, 0), {"life": 2})])
    session = Session(_Loaded(board), autosave=False)
    session.selected = 1
    assert AttackController(lambda: session).candidates() == [2, 3]  # the default: every enemy
    flow = _FlowWith(lambda: session)
    assert flow.candidates() == [2]
    flow.cycle_target()
    flow.cycle_target()
    assert flow.targets == [2]  # T never offers a figure the rules do not
