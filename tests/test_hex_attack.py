"""Attacks on hex boards (issue #21): every ruleset whose rules do not depend on squares plays on
hexes (Close = a neighbour across an open side, ranges in hex steps), the others refuse a hex
map in one line that says why.

Rules through the real rulesets on boards of the real hex grid; dice real (pinned seeds) or
every way they can fall (brute force); the command line through ``game.cli.main`` on real
``.tmx`` files, with exit codes; the bundled ``maps/hex-skirmish.tmx``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from support.brute import enumerate_exact
from support.hex_maps import hex_tmx

from game.cli import main
from game.core.board import Board, Figure
from game.core.dice import SeededDice
from game.core.hex_sight import hex_board
from game.core.hexgrid import HexGrid, HexLayout
from game.rules.arcadia.reactions import walked, walks
from game.rules.base import AttackRequest
from game.rules.exchange import play_exchange
from game.rules.reach import apart, close_reason, range_distance
from game.rules.registry import (
    forget_ruleset,
    get_ruleset,
    grid_refusal,
    register_ruleset,
    ruleset_names,
    rulesets_on,
)

REPO = Path(__file__).resolve().parent.parent
SKIRMISH = REPO / "maps" / "hex-skirmish.tmx"
TOY = Path(__file__).resolve().parent  # tests/toygame
HERO = {"attacks": "Short Bow:ranged:2; Dagger:melee:1", "life": 5, "defense": 1}
GOBLIN = {"attacks": "Rusty Knife:melee:2", "life": 2, "movement": 2}
#: a figure of each game that can attack and be attacked, melee and ranged where the game has both
STATS: dict[str, dict[str, object]] = {
    "arcadia": HERO,
    "folklore": {"valour": 3, "wits": 2, "senses": 2, "hp": 12, "max_hp": 12, "armour": 1,
                 "weapons": "Sword:valour:2:melee; Bow:valour:1:ranged"},
    "conquest": {"attacks": 4, "clash": 2, "barrage": 2, "volley": 1, "range": 6, "defence": 2,
                 "evasion": 1, "wound_limit": 2, "resolve": 3},
}


@pytest.fixture
def duel() -> Iterator[str]:
    """The toy game of ``tests/toygame`` (it says nothing about grids: squares only)."""
    import sys

    sys.path.insert(0, str(TOY))
    register_ruleset("duel", "toygame")
    yield "duel"
    forget_ruleset("duel")
    sys.path.remove(str(TOY))


def _arena(ruleset: str = "arcadia", *, walls: list = (), doors: dict | None = None,  # type: ignore[assignment]
           a: tuple[int, int] = (2, 2), b: tuple[int, int] = (3, 2), stats: dict | None = None,  # type: ignore[type-arg]
           props: dict | None = None) -> Board:  # type: ignore[type-arg]
    """A 7×5 pointy-top hex board: Ann (id 1, red) on ``a``, Bob (id 2, blue) on ``b``."""
    s = dict(stats if stats is not None else STATS.get(ruleset, HERO))
    figures = [Figure(1, "Ann", "red", a, s), Figure(2, "Bob", "blue", b, dict(s))]
    return hex_board(7, 5, walls=walls, doors=doors, figures=figures, ruleset=ruleset, properties=props)


# --- Close and distance through the grid seam ------------------------------------------------


@pytest.mark.parametrize("cell", [(2, 2), (3, 3), (0, 1), (6, 4)])
def test_close_is_the_six_neighbours_across_open_sides(cell: tuple[int, int]) -> None:
    """On pushed and unpushed rows alike: the six neighbours (fewer at the rim) are Close, every
    other hex is not, and the count says hex steps."""
    board = hex_board(7, 5)
    grid = board.grid
    for other in grid.cells():
        why = apart(board, cell, other)
        if other == cell or other in grid.neighbours(cell):
            assert why is None, other
        else:
            assert why is not None and why.steps == grid.distance(cell, other) >= 2 and not why.diagonal
    assert len(grid.neighbours((3, 2))) == 6


def test_a_wall_or_closed_door_on_the_side_is_not_close_an_open_door_is() -> None:
    grid = HexGrid(7, 5)
    side = grid.edge_between((2, 2), (3, 2))
    assert close_reason(_arena(walls=[side]), *_pair(_arena(walls=[side]))) == \
        "not Close: a wall or closed door stands between Ann and Bob"
    arcadia = get_ruleset("arcadia")
    for state, legal in (("closed", False), ("locked", False), ("open", True)):
        board = _arena(doors={side: state})
        verdict = arcadia.check(AttackRequest(board, 1, [2], "Dagger"))
        assert verdict.legal is legal, verdict.reason
        if not legal:
            assert f"{state} door {side} between (2,2) and (3,2)" in verdict.reason


def _pair(board: Board) -> tuple[Figure, Figure]:
    return board.figure(1), board.figure(2)


def test_arcadia_says_how_many_hexes_away() -> None:
    board = _arena(b=(5, 2))
    verdict = get_ruleset("arcadia").check(AttackRequest(board, 1, [2], "Dagger"))
    assert not verdict.legal and "Bob is 3 hexes away" in verdict.reason


def test_range_counts_hex_steps_not_squares() -> None:
    """Hex steps on a hex board (with or without diagonal counting: a hex has no diagonals),
    where Chebyshev on the cell names would say otherwise; squares keep both counts."""
    board = hex_board(7, 5)
    for a, b, steps, names in (((0, 0), (2, 3), 4, 3), ((1, 0), (3, 3), 4, 3), ((1, 0), (2, 3), 3, 3), ((0, 0), (0, 4), 4, 4)):
        assert range_distance(board, a, b) == range_distance(board, a, b, diagonal=True) == steps
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == names
    assert range_distance(Board(7, 5), (0, 0), (3, 1)) == 4 and range_distance(Board(7, 5), (0, 0), (3, 1), diagonal=True) == 3


# --- which rulesets play on hexes --------------------------------------------------------------


def test_the_rulesets_declare_their_grids() -> None:
    assert rulesets_on("hex") == ("arcadia", "mage_knight", "folklore")
    assert rulesets_on("square") == ruleset_names()
    conquest = grid_refusal(get_ruleset("conquest"), "hex")
    assert conquest is not None and "Volley range counts a diagonal step as one" in conquest
    assert all(grid_refusal(get_ruleset(n), "square") is None for n in ruleset_names())


def test_the_toy_ruleset_says_nothing_so_it_plays_on_squares_only(duel: str) -> None:
    why = get_ruleset(duel).grid_refusal("hex")
    assert why == "the Duel (a toy) rules play on square boards only: they do not say that they play on other boards"
    assert "duel" not in rulesets_on("hex")


def test_ruleset_files_play_on_hexes_unless_a_range_counts_diagonals() -> None:
    from game.rules.custom import load_ruleset as load_ruleset_text

    text = (REPO / "maps" / "skirmish.toml").read_text(encoding="utf-8")
    chebyshev = load_ruleset_text(text, "skirmish.toml")
    assert chebyshev.grids == ("square",)
    assert "write distance = \"steps\"" in str(chebyshev.grid_refusal("hex"))
    steps = load_ruleset_text(text.replace('title = "Lantern Skirmish"', 'title = "Lantern Skirmish"\ndistance = "steps"'), "s.toml")
    assert steps.grids == ("square", "hex") and not steps.diagonal_distance
    melee_only = text.replace('range = "attacker.range"\n', "")
    assert load_ruleset_text(melee_only, "m.toml").grids == ("square", "hex")


def test_conquest_refuses_a_hex_board_in_its_verdict() -> None:
    board = _arena("conquest", b=(3, 2))
    verdict = get_ruleset("conquest").check(AttackRequest(board, 1, [2]))
    assert not verdict.legal and "Conquest: First Blood rules play on square boards only" in verdict.reason


# --- playing on hexes ---------------------------------------------------------------------------


def test_folklore_melee_needs_close_and_ranged_line_of_sight_on_hexes() -> None:
    folklore = get_ruleset("folklore")
    near, far = _arena("folklore", b=(2, 3)), _arena("folklore", b=(6, 2))
    assert folklore.check(AttackRequest(near, 1, [2], "Sword")).legal
    refused = folklore.check(AttackRequest(far, 1, [2], "Sword"))
    assert not refused.legal and "Bob is 4 hexes away from Ann" in refused.reason
    assert folklore.check(AttackRequest(far, 1, [2], "Bow")).legal
    walled = _arena("folklore", b=(6, 2), walls=[HexGrid(7, 5).edge_between((4, 2), (5, 2))])
    blind = folklore.check(AttackRequest(walled, 1, [2], "Bow"))
    assert not blind.legal and "line of sight from Ann (2,2) to Bob (6,2)" in blind.reason and "crosses wall" in blind.reason


def test_arcadia_line_of_sight_on_hexes_is_the_maps_hex_rule_and_named() -> None:
    """H5 with figures: Ann shoots along a hexside with rubble on one side — clear under the
    default hexside, blocked under hex-strict, and the refusal names the rule."""
    arcadia = get_ruleset("arcadia")
    figures = [Figure(1, "Ann", "red", (1, 0), HERO), Figure(2, "Bob", "blue", (1, 2), dict(HERO))]
    board = hex_board(3, 3, blocked=[(0, 1)], figures=figures, ruleset="arcadia")
    assert arcadia.check(AttackRequest(board, 1, [2], "Short Bow")).legal
    strict = hex_board(3, 3, blocked=[(0, 1)], figures=figures, ruleset="arcadia",
                       properties={"los_rule": "hex-strict"})
    verdict = arcadia.check(AttackRequest(strict, 1, [2], "Short Bow"))
    assert not verdict.legal and "hex-strict" in verdict.reason and "(0,1)" in verdict.reason


def test_a_payback_walks_hex_steps() -> None:
    """The attacked goblin walks across hex sides (never across the wall) to be Close, then
    strikes back; a walk that jumps two hexes is refused."""
    grid = HexGrid(7, 5)
    figures = [Figure(1, "Ann", "red", (1, 2), HERO), Figure(2, "Gob", "monsters", (4, 2), GOBLIN)]
    wall = grid.edge_between((2, 1), (2, 2))
    board = hex_board(7, 5, figures=figures, ruleset="arcadia", walls=[wall])
    found = dict(walks(board, board.figure(2), 2))
    assert set(found) == {c for c in grid.cells() if grid.distance((4, 2), c) <= 2}  # 19 hexes, not a square's 13
    assert len(found) == 19
    board.place_figure(Figure(3, "Imp", "monsters", (2, 1), {"movement": 1}))
    assert (2, 2) not in dict(walks(board, board.figure(3), 1)) and (1, 1) in dict(walks(board, board.figure(3), 1))
    for end, path in found.items():
        assert all(b in grid.neighbours(a) for a, b in zip(path, path[1:], strict=False))
        assert len(path) - 1 <= 2 and end == path[-1]
    with pytest.raises(Exception, match="cannot step from"):
        walked(board, 2, [(4, 2), (2, 2)])
    done = play_exchange(get_ruleset("arcadia"), AttackRequest(board, 1, [2], "Short Bow"), SeededDice(4))
    (reaction, result), = done.reactions
    assert reaction.kind == "Payback" and result is not None and result.legal
    assert reaction.path == ((4, 2), (3, 2), (2, 2)) and (2, 2) in grid.neighbours((1, 2))
    assert done.board.figure(2).square == reaction.path[-1]


def test_mage_knight_plays_on_a_hex_map_as_on_squares() -> None:
    """Combat is abstract: the same attack, the same tally on both grids."""
    mk = get_ruleset("mage_knight")
    hero = {"armor": 2, "hand_limit": 5}
    enemy = {"attack": 3, "armor": 3, "fame": 2}
    squares = Board(5, 5, ruleset="mage_knight", figures=[Figure(1, "Tovak", "hero", (0, 0), hero),
                                                        Figure(2, "Prowlers", "enemy", (4, 4), enemy)])
    hexes = hex_board(5, 5, ruleset="mage_knight", figures=[Figure(1, "Tovak", "hero", (0, 0), hero),
                                                            Figure(2, "Prowlers", "enemy", (4, 4), enemy)])
    options = {"phase": "ranged", "play": "ranged 3"}
    on_squares = mk.resolve(AttackRequest(squares, 1, [2], None, options), SeededDice(1))
    on_hexes = mk.resolve(AttackRequest(hexes, 1, [2], None, options), SeededDice(1))
    assert on_hexes.legal and on_hexes.steps == on_squares.steps and on_hexes.changes == on_squares.changes


@pytest.mark.parametrize("attack", ["Dagger", "Short Bow"])
def test_hex_odds_equal_every_way_the_dice_fall(attack: str) -> None:
    """The exact odds of an attack on hexes against the resolution over every roll (dice
    without CRITs so the tree ends), and equal to the same attack on squares."""
    props = {"attack_die": "sword,bow,bow", "defense_die": "shield,blank,blank"}
    board = _arena(b=(2, 3), props=props)
    arcadia = get_ruleset("arcadia")
    request = AttackRequest(board, 1, [2], attack)
    odds = arcadia.odds(request)

    def run(dice: object) -> int:
        return int(arcadia.resolve(request, dice).outcome["damage"])  # type: ignore[arg-type, call-overload]

    brute, unknown = enumerate_exact(run, limit=20)
    assert unknown == 0 and {k: p for k, p in odds.distribution.items() if p} == brute
    square = Board(7, 5, ruleset="arcadia", properties=props,
                   figures=[Figure(1, "Ann", "red", (2, 2), HERO), Figure(2, "Bob", "blue", (2, 3), dict(HERO))])
    assert arcadia.odds(AttackRequest(square, 1, [2], attack)) == odds
    assert sum(brute.values(), Fraction(0)) == 1


# --- the command line ---------------------------------------------------------------------------


def _hex_map(tmp: Path, ruleset: str, figures: list[tuple[str, str, tuple[int, int], dict]], *,  # type: ignore[type-arg]
             walls: list = (), props: str = "") -> Path:  # type: ignore[assignment]
    """A real hex .tmx (drawn as in Tiled) with figures carrying their stats."""
    grid, layout = HexGrid(7, 5), HexLayout(32, 37, 18)
    objects = []
    for i, (name, side, cell, stats) in enumerate(figures, start=100):
        cx, cy = grid.centre_px(cell, layout)
        values = "".join(f'<property name="{k}" value="{v}"/>' for k, v in {"side": side, **stats}.items())
        objects.append(f'<object id="{i}" name="{name}" type="figure" x="{cx:g}" y="{cy:g}">'
                       f'<properties>{values}</properties><point/></object>')
    rule = f'<property name="ruleset" value="{ruleset}"/>' if ruleset else ""
    return hex_tmx(tmp, grid, layout, walls=walls, extra="".join(objects), props=rule + props)


def test_attack_on_the_bundled_hex_skirmish_is_seeded_and_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["attack", str(SKIRMISH), "Knight", "Goblin", "--seed", "7", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] and doc["ruleset"] == "arcadia" and doc["los_rule"] == "hexside" and doc["seed"] == 7
    assert doc["outcome"]["damage"] == 2 and doc["outcome"]["killed"] is True  # seed 7: sword, sword, bow
    assert main(["attack", str(SKIRMISH), "Knight", "Orc", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "illegal:" in out and "between (2,3) and (2,2)" in out and "wall" in out


def test_odds_on_the_bundled_hex_skirmish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(SKIRMISH), "Archer", "Imp", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] and doc["exact"]["distribution"] == {"0": "1/4", "1": "5/12", "2": "1/3"}
    assert doc["exchange"] is not None  # the Goblin's Guard and the Imp's Payback follow


def test_a_rule_other_than_the_default_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures = [("Ann", "red", (1, 0), HERO), ("Bob", "blue", (1, 2), HERO)]
    path = _hex_map(tmp_path, "arcadia", figures, props='<property name="los_rule" value="gloomhaven"/>')
    assert main(["odds", str(path), "Ann", "Bob"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Ann may attack Bob with Short Bow") and \
        "line of sight by the map's rule: gloomhaven" in out


def test_folklore_on_a_hex_map_through_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures = [("Aya", "party", (2, 2), STATS["folklore"]), ("Oni", "foes", (4, 2), STATS["folklore"])]
    path = _hex_map(tmp_path, "folklore", figures)
    assert main(["attack", str(path), "Aya", "Oni", "--attack", "Sword", "--seed", "3"]) == 0
    assert "illegal: Sword is a melee weapon: not Close: Oni is 2 hexes away from Aya" in capsys.readouterr().out
    assert main(["odds", str(path), "Aya", "Oni", "--attack", "Bow", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True


def test_a_ruleset_file_counting_steps_plays_range_in_hex_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (REPO / "maps" / "skirmish.toml").read_text(encoding="utf-8")
    (tmp_path / "rules.toml").write_text(text.replace('title = "Lantern Skirmish"',
                                                      'title = "Lantern Skirmish"\ndistance = "steps"'), encoding="utf-8")
    archer = {"shots": 2, "range": 3}
    # (1,0) to (2,3): 3 hex steps, in range 3; to (3,3) 4 hex steps, out of range (Chebyshev says 3)
    figures = [("Lin", "watch", (1, 0), archer), ("Brute", "raiders", (2, 3), {"melee": 2}),
               ("Slinger", "raiders", (3, 3), {"melee": 1})]
    path = _hex_map(tmp_path, "", figures)
    assert main(["odds", str(path), "Lin", "Brute", "--ruleset-file", str(tmp_path / "rules.toml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert main(["attack", str(path), "Lin", "Slinger", "--ruleset-file", str(tmp_path / "rules.toml"), "--seed", "1"]) == 0
    assert "Slinger is out of range: 4 hexes away, the range of Shot is 3" in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", ["arcadia", "mage_knight", "conquest", "folklore", "duel", "file"])
def test_each_ruleset_plays_a_hex_attack_or_refuses_in_one_line(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], request: pytest.FixtureRequest,
) -> None:
    if ruleset == "duel":
        request.getfixturevalue("duel")
    stats = {"duel": {"might": 2, "reach": 2}, "mage_knight": {}, "file": {"melee": 2, "shots": 1, "range": 4}}
    s = stats.get(ruleset, STATS.get(ruleset, {}))
    other = {"attack": 3, "armor": 3, "fame": 2} if ruleset == "mage_knight" else s
    figures = [("Ann", "hero" if ruleset == "mage_knight" else "red", (2, 2), s), ("Bob", "blue", (3, 2), other)]
    extra: list[str] = []
    if ruleset == "file":
        (tmp_path / "skirmish.toml").write_text((REPO / "maps" / "skirmish.toml").read_text(encoding="utf-8"), encoding="utf-8")
        extra = ["--ruleset-file", str(tmp_path / "skirmish.toml")]
    if ruleset == "mage_knight":
        extra = ["--phase", "ranged", "--play", "ranged 3"]
    path = _hex_map(tmp_path, "" if ruleset == "file" else ruleset, figures)
    code = main(["attack", str(path), "Ann", "Bob", "--seed", "5", *extra])
    out, err = capsys.readouterr()
    if ruleset in ("conquest", "duel", "file"):
        assert code == 2 and out == ""
        (line,) = err.strip().splitlines()
        assert line.startswith(f"sightline attack: {path} is a hex map: the ") and "square boards only: " in line
        assert "(rulesets that play on hex boards: arcadia, mage_knight, folklore" in line
        assert main(["odds", str(path), "Ann", "Bob", *extra]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    else:
        assert code == 0 and err == "", err
        assert "illegal" not in out and ("seed 5" in out or "Bob is defeated" in out), out


def test_square_maps_play_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    conquest = str(REPO / "maps" / "conquest.tmx")
    assert main(["odds", conquest, "Longbowman", "Brute Drone", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "conquest"
