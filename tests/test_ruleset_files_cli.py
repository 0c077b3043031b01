"""Ruleset files on the command line (issue #25, part 2): a map's ``ruleset = "file:..."`` and
``--ruleset-file`` in ``odds``, ``attack``, ``check`` and ``play``, the registry's ``file:`` names,
and every way a ruleset file cannot be used — each one line on stderr, exit 2, no traceback.

Real files, a real FIFO, the bundled map ``maps/skirmish.tmx`` (copied with its tileset) and its
ruleset file ``maps/skirmish.toml``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from support.ruleset_files import (  # noqa: F401
    BRUTE,
    CUTTHROAT,
    HOUND,
    LIN,
    MAPS,
    ODA,
    REN,
    REPO,
    SLINGER,
    skirmish,
)

from game.cli import main
from game.core.board import Board, Figure
from game.core.dice import SeededDice
from game.core.errors import UsageError
from game.play.ruleset_file import (
    MAX_BYTES,
    attach_rules,
    load_with_rules,
    map_ruleset_path,
    read_ruleset_file,
)
from game.rules.base import AttackRequest
from game.rules.registry import (
    counts_diagonals,
    file_ruleset_name,
    forget_ruleset,
    get_ruleset,
    is_file_ruleset,
    register_ruleset,
    ruleset_label,
)
from game.tiled import load_map

EXAMPLES = REPO / "examples" / "rulesets"




def one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``sightline argv``: exit 2 with exactly one line on stderr (returned), no traceback."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err and "Error:" not in captured.err
    return lines[0]


# --- the registry's file: names ------------------------------------------------------------------


def test_a_file_name_is_played_once_registered_and_said_when_not() -> None:
    rules = read_ruleset_file(MAPS / "skirmish.toml")
    name = file_ruleset_name("/nowhere/skirmish.toml")
    assert is_file_ruleset(name) and is_file_ruleset(" FILE:x.toml") and not is_file_ruleset("arcadia")
    with pytest.raises(UsageError, match="the ruleset file '/nowhere/skirmish.toml' was not read"):
        get_ruleset(name)
    assert ruleset_label(name) == name
    register_ruleset(name, rules)
    try:
        assert get_ruleset(name) is rules
        assert ruleset_label(name) == "Lantern Skirmish (skirmish.toml)"
        assert counts_diagonals(name)  # the file's distance: chebyshev (its default)
        register_ruleset(name, read_ruleset_file(MAPS / "skirmish.toml"))  # again: replaced
        assert get_ruleset(name) is not rules
    finally:
        forget_ruleset(name)
    with pytest.raises(UsageError):
        get_ruleset(name)


def test_diagonal_counting_follows_the_files_distance(tmp_path: Path) -> None:
    text = (MAPS / "skirmish.toml").read_text(encoding="utf-8")
    manhattan = tmp_path / "m.toml"
    manhattan.write_text(text.replace('title = "Lantern Skirmish"',
                                      'title = "Lantern Skirmish"\ndistance = "manhattan"'), encoding="utf-8")
    assert read_ruleset_file(MAPS / "skirmish.toml").diagonal_distance is True
    assert read_ruleset_file(manhattan).diagonal_distance is False


def test_the_map_reader_keeps_the_case_of_a_file_path(tmp_path: Path) -> None:
    path = skirmish(tmp_path, "File:Rules/Skirmish.TOML")
    assert load_map(path).board.ruleset == "file:Rules/Skirmish.TOML"
    (tmp_path / "maps" / "Rules").mkdir()
    shutil.copy(MAPS / "skirmish.toml", tmp_path / "maps" / "Rules" / "Skirmish.TOML")
    loaded = load_with_rules(path)
    assert get_ruleset(loaded.board.ruleset).name == "skirmish"
    assert (tmp_path / "maps" / "Rules" / "Skirmish.TOML").resolve() in loaded.dependencies


def test_attaching_gives_the_board_the_files_name_and_a_dependency(tmp_path: Path) -> None:
    path = skirmish(tmp_path)
    plain = load_map(path)
    assert plain.board.ruleset == "file:skirmish.toml"
    loaded = attach_rules(plain)
    toml = (tmp_path / "maps" / "skirmish.toml").resolve()
    assert loaded.board.ruleset == file_ruleset_name(toml.as_posix())
    assert toml in loaded.dependencies and loaded.dependencies[0] == plain.dependencies[0]
    assert attach_rules(loaded) is loaded  # attached already: not read again
    ironclad = attach_rules(load_map(path), EXAMPLES / "ironclad.toml")
    assert get_ruleset(ironclad.board.ruleset).name == "ironclad"
    demo = load_map(MAPS / "demo.tmx")
    assert attach_rules(demo) is demo and demo.board.ruleset == "arcadia"


# --- reading a file: every refusal ---------------------------------------------------------------


def _fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    return fifo


def test_read_refuses_what_is_not_a_ruleset_file_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "latin1.toml").write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    (tmp_path / "huge.toml").write_bytes(b"#" * (MAX_BYTES + 1))
    (tmp_path / "broken.toml").write_text('name = "x"\n[dice]\nd6 = "d0"\n', encoding="utf-8")
    cases = {
        tmp_path / "missing.toml": "missing.toml: no such ruleset file (check the path)",
        tmp_path / "folder.toml": "folder.toml: is a folder, not a ruleset file (name the .toml file)",
        _fifo(tmp_path): "rules.toml: is not a regular file (a pipe or a device); name the .toml file itself",
        tmp_path / "latin1.toml": "latin1.toml: not a text file (save the ruleset as UTF-8 text)",
        tmp_path / "huge.toml": "huge.toml: is larger than 1000 kB, too large for a ruleset file",
        tmp_path / "broken.toml": "broken.toml:3: die 'd6' = 'd0' is not dN",
    }
    for path, words in cases.items():
        with pytest.raises(UsageError) as caught:
            read_ruleset_file(path)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    if Path("/dev/null").exists():
        with pytest.raises(UsageError, match="is not a regular file"):
            read_ruleset_file("/dev/null")


def test_a_maps_file_path_stays_in_the_maps_folder(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    (tmp_path / "outside.toml").write_text("", encoding="utf-8")
    inside = map_ruleset_path("file:rules/x.toml", folder / "m.tmx")
    assert inside == (folder / "rules" / "x.toml").resolve()
    for written in ("file:../outside.toml", f"file:{tmp_path / 'outside.toml'}", "file:rules/../../outside.toml"):
        with pytest.raises(UsageError, match="points outside the map's folder"):
            map_ruleset_path(written, folder / "m.tmx")
    if sys.platform != "win32":
        (folder / "link.toml").symlink_to(tmp_path / "outside.toml")
        with pytest.raises(UsageError, match="points outside the map's folder"):
            map_ruleset_path("file:link.toml", folder / "m.tmx")
    with pytest.raises(UsageError, match="names no file"):
        map_ruleset_path("file: ", folder / "m.tmx")


# --- the commands on a map that names its file -----------------------------------------------------


def test_odds_and_attack_play_the_maps_ruleset_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = skirmish(tmp_path)
    assert main(["odds", str(path), "Crossbow Ren", "Brute", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    loaded = load_with_rules(path)
    rules = get_ruleset(loaded.board.ruleset)
    odds = rules.odds(AttackRequest(loaded.board, REN, [BRUTE], "Shot"))
    assert doc["legal"] is True and doc["label"] == "wounds"
    assert {k: Fraction(v) for k, v in doc["exact"]["distribution"].items()} == {
        str(k): v for k, v in odds.distribution.items()}
    assert set(doc["chances"]) == {"hurt", "shaken", "taken out"}
    assert main(["attack", str(path), "Crossbow Ren", "Brute", "--seed", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    expected = rules.resolve(AttackRequest(loaded.board, REN, [BRUTE], "Shot"), SeededDice(5))
    assert doc["ruleset"] == "skirmish" and doc["steps"] == [s.as_json() for s in expected.steps]
    # faces named by their symbols: strike | ward | nerve
    assert main(["attack", str(path), "Crossbow Ren", "Brute", "--faces",
                 "hit+crit hit+hit blank blank | shield | 2"]) == 0
    out = capsys.readouterr().out
    assert "hit+crit explodes: 1 strike die more: blank." in out
    assert "Brute rolls 1d6 (nerve): 2." in out  # below the Brute's nerve 3: shaken
    assert out.rstrip().endswith("Brute: 2 wounds (wounds 0 → 2; now shaken).")


def test_ruleset_file_overrides_the_maps_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = skirmish(tmp_path, "arcadia")  # the map says arcadia: the file wins where it is given
    assert main(["odds", str(path), "Crossbow Ren", "Brute", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is False  # arcadia: no attack cards
    assert main(["odds", str(path), "Crossbow Ren", "Brute", "--json",
                 "--ruleset-file", str(MAPS / "skirmish.toml")]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main(["attack", str(path), "Crossbow Ren", "Brute", "--seed", "3",
                 "--ruleset-file", str(MAPS / "skirmish.toml")]) == 0
    assert "(Lantern Skirmish)" in capsys.readouterr().out


def test_check_validates_the_file_with_the_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = skirmish(tmp_path)
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("checked 1 map: clean")
    text = path.read_text(encoding="utf-8")
    # a stat outside the file's range, a property the file does not declare, a range of 0
    text = text.replace('<property name="nerve" type="int" value="3"/>',
                        '<property name="nerve" type="int" value="9"/>', 1)
    text = text.replace('<property name="melee" type="int" value="2"/>',
                        '<property name="melee" type="int" value="2"/><property name="fury" type="int" value="1"/>', 1)
    text = text.replace('<property name="range" type="int" value="5"/>',
                        '<property name="range" type="int" value="0"/>', 1)
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)["maps"][0]
    found = {(f["code"], f["object_id"]) for f in doc["errors"] + doc["warnings"]}
    assert ("property-nonsense", ODA) in found  # nerve 9 > max 6
    assert ("property-unknown", HOUND) in found  # fury
    assert ("attack-unreachable", REN) in found  # Shot with range 0
    nonsense = next(f for f in doc["errors"] if f["code"] == "property-nonsense")
    assert "more than the 6 these rules allow" in nonsense["message"]
    unknown = next(f for f in doc["warnings"] if f["code"] == "property-unknown")
    assert "Lantern Skirmish (skirmish.toml)" in unknown["message"]


def test_check_with_ruleset_file_finds_attacks_nobody_can_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = skirmish(tmp_path)
    spell = tmp_path / "spell.toml"  # skirmish plus a Spell no figure of the map has (no magic)
    spell.write_text((MAPS / "skirmish.toml").read_text(encoding="utf-8").replace(
        "[attacks.Blade]", '[attacks.Spell]\nkind = "ranged"\ndice = "attacker.magic"\nrange = 4\n\n'
        "[attacks.Blade]").replace("shaken = false", "shaken = false\nmagic = 0"), encoding="utf-8")
    assert main(["check", str(path), "--json", "--ruleset-file", str(spell)]) == 0  # warnings only
    doc = json.loads(capsys.readouterr().out)["maps"][0]
    assert [(f["code"], f["object_id"], f["message"], f["hint"]) for f in doc["warnings"]] == [(
        "attack-unreachable", None, f"no figure on this map has the attack Spell of {spell}",
        "give a figure the stats it needs (magic), or leave the attack out of the file")]
    assert main(["check", str(path), "--json", "--ruleset-file", str(EXAMPLES / "ironclad.toml")]) == 0
    messages = [f["message"] for f in json.loads(capsys.readouterr().out)["maps"][0]["warnings"]]
    assert "figure Captain Oda has property 'nerve', which the Ironclad Skirmish (ironclad.toml) " \
           "ruleset does not read" in messages  # its stats are not skirmish's (the text groups them)


def test_a_figure_without_enemies_cannot_reach_anyone() -> None:
    rules = read_ruleset_file(MAPS / "skirmish.toml")
    board = Board.from_ascii(["...."], figures=[Figure(1, "Ann", "watch", (0, 0), {"melee": 2}),
                                              Figure(2, "Bo", "watch", (2, 0), {"shots": 1, "range": 3})])
    found = [(u.figure_id, u.message) for u in rules.unreachable_attacks(board)]
    assert (1, "figure Ann has the attack Blade but no enemy on this map") in found
    assert (2, "figure Bo has the attack Shot but no enemy on this map") in found
    board.place_figure(Figure(3, "Cy", "raiders", (3, 0), {"melee": 1, "shots": 1, "range": 2}))
    assert rules.unreachable_attacks(board) == []


# --- every error path: one line, exit 2 --------------------------------------------------------------

Setup = Callable[[Path], tuple[Path, list[str], str]]


def _map_file_missing(tmp_path: Path) -> tuple[Path, list[str], str]:
    return skirmish(tmp_path, "file:nothere.toml"), [], "nothere.toml: no such ruleset file"


def _map_file_broken(tmp_path: Path) -> tuple[Path, list[str], str]:
    path = skirmish(tmp_path)
    toml = tmp_path / "maps" / "skirmish.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('step = "cancel"', 'step = "cancle"'),
                    encoding="utf-8")
    return path, [], "skirmish.toml:63: step 3 has an unknown kind 'cancle' (did you mean 'cancel'?)"


def _map_file_outside(tmp_path: Path) -> tuple[Path, list[str], str]:
    shutil.copy(MAPS / "skirmish.toml", tmp_path / "outside.toml")
    return skirmish(tmp_path, "file:../outside.toml"), [], "points outside the map's folder"


def _map_file_folder(tmp_path: Path) -> tuple[Path, list[str], str]:
    path = skirmish(tmp_path, "file:rules")
    (tmp_path / "maps" / "rules").mkdir()
    return path, [], "rules: is a folder, not a ruleset file"


def _map_file_fifo(tmp_path: Path) -> tuple[Path, list[str], str]:
    path = skirmish(tmp_path, "file:rules.toml")
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    os.mkfifo(tmp_path / "maps" / "rules.toml")
    return path, [], "rules.toml: is not a regular file (a pipe or a device)"


def _option_missing(tmp_path: Path) -> tuple[Path, list[str], str]:
    return skirmish(tmp_path), ["--ruleset-file", str(tmp_path / "nope.toml")], "nope.toml: no such ruleset file"


def _option_broken(tmp_path: Path) -> tuple[Path, list[str], str]:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[stats]\nlife = "lots"\n', encoding="utf-8")
    return skirmish(tmp_path), ["--ruleset-file", str(bad)], "bad.toml:3:"


def _option_folder(tmp_path: Path) -> tuple[Path, list[str], str]:
    return skirmish(tmp_path), ["--ruleset-file", str(tmp_path)], "is a folder, not a ruleset file"


def _option_fifo(tmp_path: Path) -> tuple[Path, list[str], str]:
    return skirmish(tmp_path), ["--ruleset-file", str(_fifo(tmp_path))], "is not a regular file"


ERRORS: dict[str, Setup] = {
    "map-missing": _map_file_missing, "map-broken": _map_file_broken, "map-outside": _map_file_outside,
    "map-folder": _map_file_folder, "map-fifo": _map_file_fifo, "option-missing": _option_missing,
    "option-broken": _option_broken, "option-folder": _option_folder, "option-fifo": _option_fifo,
}


@pytest.mark.parametrize("case", sorted(ERRORS))
@pytest.mark.parametrize("command", ["odds", "attack", "check"])
def test_every_unusable_ruleset_file_is_one_line_exit_2(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, extra, words = ERRORS[case](tmp_path)
    argv = [command, str(path), *([] if command == "check" else ["Crossbow Ren", "Brute"]), *extra]
    line = one_line(capsys, argv)
    assert line.startswith(f"sightline {command}: ") and words in line, line


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_play_refuses_an_unusable_ruleset_file_before_the_window(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path, extra, words = ERRORS[case](tmp_path)
    shot = tmp_path / "shot.png"
    line = one_line(capsys, ["play", str(path), "--frames", "1", "--screenshot", str(shot), *extra])
    assert line.startswith("sightline play: ") and words in line, line
    assert not shot.exists()  # refused before the window ran a frame


def test_play_opens_the_bundled_file_map_and_takes_a_screenshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = skirmish(tmp_path)
    shot = tmp_path / "shot.png"
    assert main(["play", str(path), "--frames", "3", "--screenshot", str(shot),
                 "--ruleset-file", str(MAPS / "skirmish.toml")]) == 0
    assert shot.stat().st_size > 10_000


def test_the_library_face_reads_a_map_with_its_ruleset_file() -> None:
    import game

    board = game.load_with_rules(MAPS / "skirmish.tmx").board
    assert game.get_ruleset(board.ruleset).title == "Lantern Skirmish"
    assert game.read_ruleset_file(MAPS / "skirmish.toml").pools == ("strike", "ward", "nerve")


def test_render_draws_the_files_condition_on_the_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = skirmish(tmp_path)
    out = tmp_path / "board.png"
    assert main(["render", str(path), "-o", str(out)]) == 0
    capsys.readouterr()
    assert out.stat().st_size > 5_000
    from game.commands.render import _title

    assert "ruleset Lantern Skirmish (skirmish.toml)" in _title(load_with_rules(path).board, path)
    broken = skirmish(tmp_path / "b", "file:nothere.toml")
    assert one_line(capsys, ["render", str(broken), "-o", str(tmp_path / "b.png")]).endswith(
        "nothere.toml: no such ruleset file (check the path)")
