"""``sightline balance MAP -o DIR [--json]``: is this map fair? The balance report.

Writes ``DIR/index.html`` with its pictures and ``DIR/balance.json`` (the same numbers for CI);
with ``--json`` the JSON document is printed too (and nothing else). The numbers are
:mod:`game.designer.balance` under every rule profile (the map's own rule first; ``--rules``
picks others); docs/balance.md defines each one. Exit 0 whatever the report finds.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from game.commands._common import add_map_options, map_options, refuse_off_grid
from game.core.errors import UsageError
from game.rules.registry import DEFAULT_RULESET

if TYPE_CHECKING:
    import numpy as np

    from game.designer.balance import Balance, RuleNumbers
    from game.tiled import LoadedMap
    from game.ui.balance_images import BalancePictures


@dataclass
class Written:
    """What :func:`write_balance` wrote and the numbers it showed."""

    index: Path
    data: Path
    report: Balance
    images: list[Path] = field(default_factory=list)


def _whole(text: str, name: str, top: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{name} must be a whole number, not {text!r}") from None
    if not 0 <= value <= top:
        raise UsageError(f"{name} must be 0 to {top}, not {value}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline balance``."""
    parser.add_argument("map", metavar="MAP", help="the map (.tmx)")
    parser.add_argument("-o", "--output", metavar="DIR", required=True,
                        help="folder for index.html, balance.json and the pictures (created if needed; its "
                        "parent folder must exist)")
    parser.add_argument("--json", action="store_true", help="also print the JSON document (and nothing else)")
    parser.add_argument("--rules", metavar="A,B", default=None,
                        help="the line-of-sight rules to report under (default: the map's rule, then every preset)")
    parser.add_argument("--move", metavar="N", default=None,
                        help="every figure moves N steps a turn (default: its move stat, else 4)")
    parser.add_argument("--range", metavar="N", default=None, dest="reach",
                        help="a side without figures attacks within N squares (default: any distance in sight)")
    parser.add_argument("--turns", metavar="N", default="1",
                        help="safe squares: still unseen after the other side moves N turns (default 1)")
    add_map_options(parser, with_classes=True)


def run(args: argparse.Namespace) -> int:
    """Load the map, write the report, say where it is and what it found."""
    from game.core.profiles import split_rules
    from game.core.sight import parse_rule
    from game.play.ruleset_file import load_with_rules
    from game.rules.registry import get_ruleset

    move = None if args.move is None else _whole(args.move, "--move", 10_000)
    reach = None if args.reach is None else _whole(args.reach, "--range", 10_000)
    turns = _whole(args.turns, "--turns", 100)
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a folder: give -o a folder for the report")
    loaded = load_with_rules(args.map, None, **map_options(args))  # with the ruleset file it names
    kind = loaded.board.grid.kind
    refuse_off_grid(loaded.board, get_ruleset(loaded.board.ruleset), args.map)  # a hex map under square rules
    rules = None
    if args.rules is not None:  # read for the map's grid: square rules, or hex ones on a hex map
        try:
            rules = [r.spec() for r in split_rules(args.rules, lambda text: parse_rule(text, kind))]
        except UsageError as error:
            raise UsageError(f"--rules: {error}") from None
    written = write_balance(loaded, out, rules=rules, move=move, reach=reach, turns=turns)
    if args.json:
        print(written.data.read_text(encoding="utf-8"), end="")
        return 0
    from game.core.words import plural

    print(f"wrote {written.index} and {written.data.name} ({plural(len(written.images), 'image')}; "
          f"{plural(len(written.report.rules), 'rule')}, {plural(len(written.report.findings), 'finding')})")
    for line in written.report.findings:
        print(f"  {line}")
    if written.report.symmetry_note and loaded.board.grid.kind == "hex":  # what the stagger rules out
        print(f"  {written.report.symmetry_note}")
    return 0


def write_balance(loaded: LoadedMap, out_dir: str | Path, *, rules: list[str] | None = None,
                  move: int | None = None, reach: int | None = None, turns: int = 1) -> Written:
    """Work out the balance numbers of a loaded map and write the report into ``out_dir``
    (created if missing; its parent must exist): index.html, balance.json and the pictures."""
    from game.designer.balance import balance
    from game.designer.balance_report import PICTURES, render_html
    from game.play.atomic import cannot_write, write_atomic

    out = Path(out_dir)
    try:
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise cannot_write(out, exc) from exc
    board = loaded.board
    report = balance(board, loaded.objects, rules=rules, move=move, reach=reach, turns=turns)
    name = board.name or loaded.path.stem
    doc = {"map": str(loaded.path), "name": name, "width": board.width, "height": board.height,
           "ruleset": board.ruleset or DEFAULT_RULESET, **report.as_json()}
    written = Written(out / "index.html", out / "balance.json", report)
    write_atomic(written.data, json.dumps(doc, ensure_ascii=False) + "\n")
    pictures = _pictures(loaded, report)
    images: dict[str, str] = {}

    def keep(key: str, path: Path) -> None:
        written.images.append(path)
        images[key] = path.name

    keep("zones", pictures.zones_png(out / PICTURES["zones"]))
    one = "hex" if report.cells == "hexes" else "square"
    first = report.rules[0]
    zones_mask = report.zones[0].mask(board) | report.zones[1].mask(board)
    chokes = (report.chokes * 100).round()
    keep("chokes", pictures.heat_png(chokes, (chokes > 0) & ~zones_mask, out / PICTURES["chokes"],
                                     f"% of shortest zone-to-zone paths through this {one}"))
    keep("exposure", _exposure_png(pictures, first, zones_mask, out / PICTURES["exposure"].format(i=1)))
    keep("vantage", pictures.heat_png(first.zone_eyes * first.vantage, first.vantage,
                                      out / PICTURES["vantage"].format(i=1),
                                      f"zone {report.cells} that see this {one} (it sees into both zones)"))
    keep("strikes", pictures.strikes_png(first, out / PICTURES["strikes"].format(i=1)))
    for j, zone in enumerate(report.zones[:2], 1):
        keep(f"safe{j}", pictures.safe_png(first, zone.side, out / PICTURES["safe"].format(i=1, side=j), turns))
    for check in first.symmetry[:1]:
        if check.broken:
            keep("symmetry", pictures.heat_png(check.per_square, check.per_square > 0,
                                               out / PICTURES["symmetry"].format(i=1),
                                               f"broken pairs per {one} ({check.transform})"))
    others: dict[str, str] = {}
    for i, numbers in enumerate(report.rules[1:], 2):
        path = _exposure_png(pictures, numbers, zones_mask, out / PICTURES["exposure"].format(i=i))
        written.images.append(path)
        others[numbers.rule.spec()] = path.name
    write_atomic(written.index, render_html(name, board, report, images, others))
    return written


def _pictures(loaded: LoadedMap, report: Balance) -> BalancePictures:
    """The report's pictures of the map: on squares at the coverage report's cell size, on hexes
    drawn where Tiled draws them (:mod:`game.ui.hex_balance`)."""
    from game.core.hexgrid import HexGrid
    from game.designer.report import cell_size
    from game.ui.balance_images import BalancePictures

    board = loaded.board
    if isinstance(board.grid, HexGrid):
        from game.ui.hex_balance import HexBalancePictures

        return HexBalancePictures(board, loaded.art, HexBalancePictures.scale_for(board.grid), report.zones)
    return BalancePictures(board, loaded.art, cell_size(board), report.zones)


def _exposure_png(pictures: BalancePictures, numbers: RuleNumbers, zones: np.ndarray, out: Path) -> Path:
    """Each zone square shaded by how many squares of the other zone see it (the first two zones)."""
    import numpy as np

    first, second = pictures.zones[0].side, pictures.zones[1].side
    values = np.zeros(zones.shape, dtype=np.int64)
    for s in numbers.sides:
        if (s.side, s.other) in ((first, second), (second, first)):
            values += s.watched
    return pictures.exposure_png(values, zones, out, f"rule {numbers.rule.spec()}")
