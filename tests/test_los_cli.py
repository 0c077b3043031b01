"""``sightline los`` on tiny real TMX files (tests/data/los/), through game.cli.main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main

DATA = Path(__file__).resolve().parent / "data" / "los"
ROOM = str(DATA / "room.tmx")
COLLISION = str(DATA / "collision.tmx")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["los", *args, "--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def test_verdict_json_walls_and_doors(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ROOM, "0,2", "4,2")
    assert {"clear", "blockers", "crossings"} <= set(data)
    assert data["clear"] is False
    assert data["viewer"] == "red"  # Rook stands on (0,2)
    assert [(b["kind"], b["edge"], b["reason"]) for b in data["blockers"]] == [
        ("edge", "V(2,2)", "wall V(2,2)"),
        ("edge", "V(3,2)", "closed door on V(3,2)"),
    ]
    assert [c["kind"] for c in data["crossings"]] == ["edge", "square"] * 3 + ["edge"]
    assert data["crossings"][0]["point"] == ["1", "5/2"]
    assert data["explanation"].startswith("Blocked: wall V(2,2) between (1,2) and (2,2).")


def test_viewer_defaults_to_figure_side_and_can_be_overridden(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ROOM, "0,0", "4,0")
    assert data["viewer"] == "red" and data["clear"] is False
    assert data["blockers"][0]["square"] == [2, 0]
    assert "2 enemies of red (Gob1 and Gob2)" in data["blockers"][0]["reason"]
    data = run_json(capsys, ROOM, "0,0", "4,0", "--viewer", "monsters")
    assert data["viewer"] == "monsters" and data["clear"] is True and data["blockers"] == []


def test_no_figure_means_no_viewer(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ROOM, "1,0", "3,0")
    assert data["viewer"] is None and data["clear"] is False


def test_visible_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ROOM, "0,2")
    assert data["from"] == [0, 2]
    visible = {tuple(sq) for sq in data["visible"]}
    assert (0, 2) in visible and (1, 2) in visible
    assert (2, 2) not in visible  # behind the wall V(2,2)
    assert (3, 0) not in visible  # behind the two goblins, for red
    assert (4, 0) in visible
    assert (4, 4) not in visible  # void
    assert data["visible"] == sorted(data["visible"], key=lambda sq: (sq[1], sq[0]))


def test_text_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", ROOM, "0,2", "4,2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "(0,2) -> (4,2) (viewer: red): Blocked: wall V(2,2) between (1,2) and (2,2). "
        "(1 more blocker further on.)"
    )
    assert len(lines) == 8 and lines[3].lstrip().startswith("x  3. Blocked: wall V(2,2)")
    assert main(["los", ROOM, "0,2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "18 squares visible from (0,2) (viewer: red):"
    assert lines[1:6] == ["ooo.o", "oooo.", "@o...", "oooo.", "oooo~"]


def test_classes_mapping(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, COLLISION, "0,0", "2,0")["clear"] is True
    data = run_json(capsys, COLLISION, "0,0", "2,0", "--classes", "wall=collision-line")
    assert data["clear"] is False and data["blockers"][0]["edge"] == "V(1,0)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([ROOM, "9,9", "0,0"], "outside the 5x5 board"),
        ([ROOM, "0,0", "0,5"], "outside the 5x5 board"),
        ([ROOM, "4,4"], "void"),
        ([ROOM, "0,0", "4,4", "--json"], "void"),
        ([ROOM, "1,a"], "not a square"),
        ([str(DATA / "missing.tmx"), "0,0"], "missing.tmx"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["los", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sightline los: ") and message in lines[0]


def test_viewer_matches_a_side_ignoring_case(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ROOM, "0,0", "4,0", "--viewer", " MONSTERS ")
    assert data["viewer"] == "monsters" and data["clear"] is True


@pytest.mark.parametrize(
    ("viewer", "message"),
    [
        ("Nobody", "--viewer 'Nobody' is not a side on this map (sides: monsters, red)"),
        ("red guild", "--viewer 'red guild' is not a side on this map (sides: monsters, red)"),
        ("", "--viewer is empty: name a side (sides: monsters, red)"),
    ],
)
@pytest.mark.parametrize("target", [["4,0"], []])
def test_unknown_viewer_is_refused_listing_the_sides(
    capsys: pytest.CaptureFixture[str], viewer: str, message: str, target: list[str]
) -> None:
    assert main(["los", ROOM, "0,0", *target, "--viewer", viewer]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [f"sightline los: {message}"]
