"""The bundled maps of ``maps/``: they load cleanly, the lessons teach what they say, the demo is rich.

Every lesson board restates one LOS vector of docs/line-of-sight.md (L1-L30). Three independent things must
agree for each: the board built from the TMX (walls, doors, void, squares blocked by two enemies),
the lesson's ``expected`` property, and the engine's verdict through both ``game.core.los`` and
``sightline los --json``.
"""

from __future__ import annotations

import importlib.util
import json
import struct
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.core.board import Board, DoorState, Edge, Square, is_enemy, parse_square
from game.core.findings import Severity
from game.core.los import is_close, line_of_sight
from game.play.ruleset_file import load_with_rules
from game.rules.base import AttackRequest
from game.tiled import LoadedMap

REPO = Path(__file__).resolve().parent.parent
MAPS = REPO / "maps"
ALL_MAPS = sorted(MAPS.rglob("*.tmx"))
LESSONS = sorted((MAPS / "lessons").glob("*.tmx"))
SAMPLES = {"mage_knight": MAPS / "mage_knight.tmx", "conquest": MAPS / "conquest.tmx",
           "folklore": MAPS / "folklore.tmx", "skirmish": MAPS / "skirmish.tmx"}


def _rel(path: Path) -> str:
    return str(path.relative_to(MAPS))


@cache
def _load(path: Path) -> LoadedMap:
    return load_with_rules(path)  # with its ruleset file (skirmish.tmx's skirmish.toml)


def _board(path: Path) -> Board:
    """A fresh copy: tests that open doors must not change the cached one."""
    return _load(path).board.copy()


# --- every map --------------------------------------------------------------------------------


def test_the_bundled_maps_are_all_there() -> None:
    names = {_rel(p) for p in ALL_MAPS}
    assert {"demo.tmx", "mage_knight.tmx", "conquest.tmx", "folklore.tmx", "skirmish.tmx"} <= names
    assert (MAPS / "skirmish.toml").is_file()  # the rules skirmish.tmx names (file:skirmish.toml)
    assert len(LESSONS) == 37


@pytest.mark.parametrize("path", ALL_MAPS, ids=_rel)
def test_map_loads_with_no_error_findings_and_with_its_tile_art(path: Path) -> None:
    loaded = _load(path)
    errors = [f.as_json() for f in loaded.findings if f.severity is Severity.ERROR]
    assert errors == []
    assert loaded.art is not None, [f.as_json() for f in loaded.findings]
    hexes = loaded.board.grid.kind == "hex"  # the hex demo's tiles are Tiled's 56x64 hexes (#21)
    assert (loaded.art.tile_width, loaded.art.tile_height) == ((56, 64) if hexes else (32, 32))
    assert isinstance(loaded.board.properties.get("caption"), str)
    assert loaded.board.properties["caption"].strip()


@pytest.mark.parametrize("path", ALL_MAPS, ids=_rel)
def test_every_figure_stands_on_a_usable_square_within_capacity(path: Path) -> None:
    board = _board(path)
    assert board.figures
    for figure in board.figures.values():
        assert board.on_board(figure.square), figure
        assert not board.is_blocked_terrain(figure.square), figure
        assert len(board.figures_at(figure.square)) <= board.capacity, figure


@pytest.mark.parametrize("path", ALL_MAPS, ids=_rel)
def test_figure_stats_are_properties_the_maps_ruleset_reads(path: Path) -> None:
    from game.rules.registry import get_ruleset

    board = _board(path)
    known = get_ruleset(board.ruleset).known_properties
    unknown = sorted((f.name, key) for f in board.figures.values() for key in f.stats
                     if key not in known)
    assert unknown == []


# --- the tileset ------------------------------------------------------------------------------


def test_tileset_marks_roofs_blocked_and_water_void_and_its_image_matches() -> None:
    tsx = ET.parse(MAPS / "tiles" / "street.tsx").getroot()
    flags: dict[str, set[str]] = {}
    for tile in tsx.iter("tile"):
        props = {p.get("name"): p.get("value") for p in tile.iter("property")}
        flags[str(props["terrain"])] = {k for k in ("blocked", "void") if props.get(k) == "true"}
    assert flags["roof-red"] == flags["roof-slate"] == flags["crates"] == {"blocked"}
    assert flags["water"] == flags["chasm"] == {"void"}
    assert flags["cobble"] == flags["wood-floor"] == set()
    assert len(flags) == int(tsx.get("tilecount", "0"))
    image = tsx.find("image")
    assert image is not None
    png = (MAPS / "tiles" / str(image.get("source"))).resolve()
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (int(image.get("width", 0)),
                                                int(image.get("height", 0)))


def _script(name: str, path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the script runs
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _tiled_files(folder: Path) -> list[Path]:
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.suffix in (".tmx", ".tsx"))


def test_committed_maps_are_what_the_generator_writes(tmp_path: Path) -> None:
    make_maps = _script("make_maps_under_test", MAPS / "make_maps.py")
    make_maps.main(tmp_path / "maps", tmp_path / "lessons.md")
    assert (tmp_path / "lessons.md").read_bytes() == (REPO / "docs" / "lessons.md").read_bytes()
    written = _tiled_files(tmp_path / "maps")
    committed = _tiled_files(MAPS)
    assert written == committed
    stale = [str(rel) for rel in written
             if (tmp_path / "maps" / rel).read_bytes() != (MAPS / rel).read_bytes()]
    assert stale == [], "run: python maps/make_maps.py"


def test_committed_tileset_png_is_what_the_art_script_draws() -> None:
    import pygame

    make_art = _script("make_art_under_test", REPO / "assets" / "make_art.py")
    drawn = make_art.draw_sheet()
    committed = pygame.image.load(str(make_art.OUT))
    assert committed.get_size() == drawn.get_size() == make_art.sheet_size()
    shape = (*drawn.get_size(), 4)
    old = np.frombuffer(pygame.image.tobytes(committed, "RGBA"), np.uint8).reshape(shape)
    new = np.frombuffer(pygame.image.tobytes(drawn, "RGBA"), np.uint8).reshape(shape)
    # a few pixels may differ if another pygame-ce rasterises a circle differently; a changed or
    # moved tile differs in far more
    changed = np.any(old != new, axis=2).mean()
    assert changed < 0.02, f"{changed:.1%} of the pixels changed: run python assets/make_art.py"


# --- the lessons ------------------------------------------------------------------------------

#: The Arcadia Quest vector table A (docs/line-of-sight.md), restated independently of the generator:
#: file -> (width x height, walls, doors, squares blocked by two enemies of the shooter, off-board).
VECTORS: dict[str, tuple[str, str, str, str, str]] = {
    "L01": ("5x5", "", "", "", ""),
    "L02": ("5x5", "V(2,2)", "", "", ""),
    "L03a": ("5x5", "V(2,1) V(2,3)", "V(2,2)=closed", "", ""),
    "L03b": ("5x5", "V(2,1) V(2,3)", "V(2,2)=open", "", ""),
    "L04a": ("5x5", "", "", "2,2", ""),
    "L04b": ("5x5", "", "", "", ""),
    "L04c": ("5x5", "", "", "", ""),
    "L04d": ("5x5", "", "", "", ""),
    "L05": ("5x5", "", "", "", ""),
    "L06": ("5x5", "", "", "2,1", ""),
    "L07": ("5x5", "", "", "2,1 1,2", ""),
    "L08": ("5x5", "V(2,1)", "", "", ""),
    "L09": ("5x5", "V(2,1) H(1,2)", "", "", ""),
    "L10": ("5x5", "H(1,2) H(2,2)", "", "", ""),
    "L11": ("5x5", "H(2,2)", "", "", ""),
    "L12": ("5x5", "V(2,2)", "", "2,1", ""),
    "L13": ("5x5", "H(2,2)", "", "2,1", ""),
    "L14": ("5x5", "", "", "1,1", ""),
    "L15": ("5x5", "", "", "1,1 0,2", ""),
    "L16": ("5x5", "", "", "0,1", ""),
    "L17": ("5x5", "V(1,0)", "", "", ""),
    "L18": ("5x5", "H(1,1)", "", "", ""),
    "L19a": ("5x5", "H(0,1)", "", "", ""),
    "L19b": ("5x5", "", "", "0,1", ""),
    "L20": ("5x5", "", "", "1,1", ""),
    "L21": ("5x5", "", "", "", "1,1"),
    "L22": ("3x3", "", "", "", "1,0"),
    "L23": ("3x3", "", "", "", "1,0 0,1"),
    "L24": ("1x10", "", "", "", ""),
    "L25": ("5x5", "", "", "1,1", ""),
    "L26": ("5x5", "", "", "1,0 0,1", ""),
    "L27": ("5x5", "", "", "1,0 2,1", ""),
    "L28": ("5x5", "", "", "1,0 1,2", ""),
    "L29a": ("5x5", "", "", "", ""),
    "L29b": ("5x5", "", "", "", ""),
    "L30a": ("5x5", "", "", "", ""),
    "L30b": ("5x5", "", "", "2,2", ""),
}


def _squares(text: str) -> set[Square]:
    return {parse_square(s) for s in text.split()}


def _lesson(path: Path) -> tuple[Board, Square, Square, str, str]:
    """The board, from, to, expected verdict and the shooter's side of a lesson."""
    board = _board(path)
    props = board.properties
    frm, to = parse_square(str(props["from"])), parse_square(str(props["to"]))
    shooter = board.figures_at(frm)[0]
    return board, frm, to, str(props["expected"]), shooter.side


def test_every_vector_has_its_lesson() -> None:
    assert sorted(p.stem for p in LESSONS) == sorted(VECTORS)
    vectors = {str(_board(p).properties["vector"]) for p in LESSONS}
    assert vectors == {f"L{n:02d}" for n in range(1, 31)}


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_properties_and_figures(path: Path) -> None:
    board, frm, to, expected, side = _lesson(path)
    props = board.properties
    assert props["vector"] == path.stem[:3]
    assert board.ruleset == "arcadia" and board.capacity == 2
    assert expected in ("clear", "blocked")
    assert 20 <= len(str(props["caption"])) <= 220 and "\n" not in str(props["caption"])
    shooter = board.figures_at(frm)[0]
    assert shooter.name in ("Archer", "Troll")
    if path.stem == "L29b":  # A -> A: one figure, no target
        assert frm == to and len(board.figures_at(frm)) == 1
    else:
        targets = [f for f in board.figures_at(to) if f.id != shooter.id and is_enemy(f, side)]
        assert targets, "an enemy target stands on `to`"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_board_is_the_vector_setup(path: Path) -> None:
    size, walls, doors, blk, off = VECTORS[path.stem]
    board, frm, to, _, side = _lesson(path)
    assert f"{board.width}x{board.height}" == size
    assert board.walls == {Edge.parse(w) for w in walls.split()}
    assert {str(e): d.state.value for e, d in board.doors.items()} == dict(
        d.split("=") for d in doors.split())
    assert board.void == _squares(off)
    assert board.blocked == frozenset()
    crowded = {sq for sq in board.squares() if sq not in (frm, to)
               and board.enemy_count(sq, side) >= board.capacity}
    assert crowded == _squares(blk)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_expected_verdict_matches_the_engine(path: Path) -> None:
    board, frm, to, expected, side = _lesson(path)
    result = line_of_sight(board, frm, to, viewer=side)
    if path.stem == "L29b":
        # A -> A: the square-level verdict is "same square: clear" (docs/line-of-sight.md, rule 1); that a
        # figure never targets itself is the ruleset's business, so the lesson's "blocked" is
        # checked there.
        from game.rules.registry import get_ruleset

        shooter = board.figures_at(frm)[0]
        assert result.clear
        legality = get_ruleset("arcadia").check(AttackRequest(board, shooter.id, [shooter.id], None, {}))
        assert not legality.legal and "itself" in legality.reason
        assert expected == "blocked"
        return
    assert result.clear == (expected == "clear"), result.explain()


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_expected_verdict_matches_sightline_los_json(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, _, expected, _ = _lesson(path)
    props = _load(path).board.properties
    code = main(["los", str(path), str(props["from"]), str(props["to"]), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    verdict = json.loads(out)["clear"]
    if path.stem == "L29b":  # see test_lesson_expected_verdict_matches_the_engine
        assert verdict is True
        return
    assert verdict == (expected == "clear")


# --- the demo map -----------------------------------------------------------------------------

DEMO = MAPS / "demo.tmx"


def test_demo_is_a_rich_board() -> None:
    board = _board(DEMO)
    assert board.width >= 12 and board.height >= 12
    assert board.ruleset == "arcadia" and board.capacity == 2
    assert {d.state for d in board.doors.values()} == set(DoorState)
    assert len(board.doors) >= 6 and len(board.windows) >= 2 and len(board.walls) >= 40
    assert len(board.void) >= 6 and len(board.blocked) >= 6
    sides = board.sides()
    assert "monsters" in sides
    guilds = [s for s in sides if s != "monsters"]
    assert len(guilds) >= 2
    for guild in guilds:
        assert 3 <= sum(f.side == guild for f in board.figures.values()) <= 4
    for figure in board.figures.values():
        assert isinstance(figure.stats["life"], int) and isinstance(figure.stats["defense"], int)
        assert ":" in str(figure.stats["attacks"])
    stacks = [sq for sq in board.squares()
              if sum(f.side == "monsters" for f in board.figures_at(sq)) == 2]
    assert stacks


def test_demo_goblin_pair_blocks_the_alley_for_heroes_only() -> None:
    board = _board(DEMO)
    assert {f.name for f in board.figures_at((7, 4))} == {"Snarl", "Grub"}
    assert not line_of_sight(board, (7, 2), (7, 6), viewer="Red Guild").clear
    assert line_of_sight(board, (7, 2), (7, 6), viewer="monsters").clear


def test_demo_tavern_door_blocks_until_opened() -> None:
    board = _board(DEMO)
    door = Edge.parse("V(7,3)")
    assert board.doors[door].state is DoorState.CLOSED
    assert not line_of_sight(board, (3, 3), (7, 3), viewer="Red Guild").clear
    board.set_door(door, DoorState.OPEN)
    assert line_of_sight(board, (3, 3), (7, 3), viewer="Red Guild").clear


def test_demo_windows_let_sight_through_but_not_figures() -> None:
    board = _board(DEMO)
    assert Edge.parse("H(3,2)") in board.windows
    assert line_of_sight(board, (3, 2), (3, 0)).clear
    assert not is_close(board, (3, 2), (3, 1))


def test_demo_locked_strong_room_and_a_skimmed_wall_end() -> None:
    board = _board(DEMO)
    assert board.doors[Edge.parse("H(12,4)")].state is DoorState.LOCKED
    assert not line_of_sight(board, (12, 3), (12, 5)).clear
    # the plaza's low wall V(5,7)-V(5,9) ends at corner (5,10): a 45-degree ray skims it
    assert line_of_sight(board, (4, 9), (5, 10)).clear
    assert not line_of_sight(board, (4, 8), (5, 9)).clear


# --- the sample maps of the other rulesets ----------------------------------------------------


def _figures(name: str, side: str) -> list:  # type: ignore[type-arg]
    return [f for f in _board(SAMPLES[name]).figures.values() if f.side == side]


def test_mage_knight_sample() -> None:
    board = _board(SAMPLES["mage_knight"])
    assert board.ruleset == "mage_knight" and board.properties["site_fortified"] is False
    (hero,) = _figures("mage_knight", "hero")
    assert hero.stats["armor"] == 2 and hero.stats["hand_limit"] == 5
    enemies = _figures("mage_knight", "enemies")
    assert 4 <= len(enemies) <= 6
    by_name = {f.name: f.stats for f in enemies}
    assert by_name["Prowlers"]["attack"] == 4 and by_name["Prowlers"]["armor"] == 3
    assert by_name["Fire Mages"]["element"] == "fire"
    assert by_name["Ironclads"]["resistances"] == "physical"
    assert "brutal" in str(by_name["Ironclads"]["abilities"])
    assert by_name["Shocktroops"]["elusive_armor"] == 6
    for stats in by_name.values():
        assert stats["element"] in ("physical", "fire", "ice", "coldfire")
        assert {"armor", "attack", "fame", "abilities", "resistances"} <= set(stats)


def test_conquest_sample() -> None:
    board = _board(SAMPLES["conquest"])
    assert board.ruleset == "conquest"
    keys = {"attacks", "clash", "barrage", "volley", "defence", "evasion", "wound_limit",
            "resolve", "range", "rules"}
    sides = [s for s in board.sides()]
    assert len(sides) == 2
    for side in sides:
        warriors = _figures("conquest", side)
        assert 3 <= len(warriors) <= 4
        for w in warriors:
            assert keys <= set(w.stats)
            assert all(isinstance(w.stats[k], int) for k in keys - {"rules"})


def test_folklore_sample() -> None:
    board = _board(SAMPLES["folklore"])
    assert board.ruleset == "folklore"
    assert len(_figures("folklore", "party")) == 3
    assert 3 <= len(_figures("folklore", "foes")) <= 4
    for f in board.figures.values():
        assert {"valour", "wits", "senses", "hp", "max_hp", "armour", "weapons"} <= set(f.stats)
        assert 0 < f.stats["hp"] <= f.stats["max_hp"]
        for weapon in str(f.stats["weapons"]).split(";"):
            _, stat, bonus, kind = (part.strip() for part in weapon.split(":"))
            assert stat in ("valour", "wits") and kind in ("melee", "ranged")
            int(bonus)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_maps_have_walls_and_doors(name: str) -> None:
    board = _board(SAMPLES[name])
    assert 10 <= board.width <= 12 and 10 <= board.height <= 12
    assert board.walls and len(board.doors) >= 3 and board.void
