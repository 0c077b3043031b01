"""``sightline threats MAP [--side S] [--move N] [--json]``: who can attack whom, with what chance.

For every figure and every enemy it may target: whether it can attack now (the ruleset's own
legality, as ``sightline attack``), with its best attack's exact chance to hit, expected damage
and chance to take the target out (as ``sightline odds --attack NAME``), and whether it can by
next turn: a square within its move (``--move N``, else its ``move`` / ``speed`` / ``movement``
stat, else 4; counted like ``sightline reach``) from which an attack is legal. The numbers are
:mod:`game.designer.threats`; docs/threats.md says how each is defined.

Text: a matrix (rows attack, columns are attacked: ``69/25`` = hit 69 %, take-out 25 % now;
``+2`` = after 2 steps next turn; ``·`` = neither), then each figure's lines. ``--json``:
``{"map", "ruleset", "rule", "move", "side", "figures": [...], "threats": [...]}``, one entry per
attacker and target, with ``reason`` (the ruleset's sentence) when it cannot attack now.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from game.commands._common import add_map_options, map_options, refuse_off_grid, resolve_viewer
from game.core.board import Board, fmt_square
from game.core.errors import UsageError

if TYPE_CHECKING:
    from game.designer.threats import Chance, Threat, ThreatSolver

#: the widest name a matrix row or column shows
NAME_WIDTH = 12


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline threats``."""
    parser.add_argument("map", metavar="MAP", help="a Tiled map (.tmx)")
    parser.add_argument("--side", metavar="S", help="only the figures of this side, attacking and attacked")
    parser.add_argument("--move", metavar="N", type=int, default=None,
                        help="every figure moves N steps a turn (default: its move stat, else 4)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_map_options(parser, with_classes=True)


def run(args: argparse.Namespace) -> int:
    """Load the map and print who threatens whom."""
    from game.designer.threats import ThreatSolver, map_rule, move_of
    from game.rules.registry import get_ruleset
    from game.tiled import load_map

    if args.move is not None and not 0 <= args.move <= 10_000:
        raise UsageError(f"--move must be 0 to 10000 steps, not {args.move}")
    board = load_map(args.map, **map_options(args)).board
    ruleset = get_ruleset(board.ruleset)
    refuse_off_grid(board, ruleset, args.map)  # a hex map under rules that need squares
    side = named_side(board, args.side)
    solver = ThreatSolver()
    threats = [t for t in all_threats(solver, board, args.move)
               if side is None or side in (board.figure(t.attacker).side, board.figure(t.target).side)]
    if args.json:
        doc = {
            "map": str(args.map), "ruleset": ruleset.name, "rule": map_rule(board).spec(), "move": args.move,
            "side": side,
            "figures": [{"id": f.id, "name": f.name, "side": f.side, "square": list(f.square),
                         "move": move_of(f, args.move)} for f in sorted(board.figures.values(), key=lambda f: f.id)],
            "threats": [_threat_json(solver, board, t) for t in threats],
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    title = ruleset.title or ruleset.name
    moves = f"every figure moves {args.move}" if args.move is not None else "each figure's move stat, else 4"
    print(f"Threats on {args.map} ({title}; sight: {map_rule(board).spec()}; next turn: {moves})")
    for line in matrix(board, threats):
        print(line)
    for line in details(board, threats):
        print(line)
    return 0


def named_side(board: Board, text: str | None) -> str | None:
    """The side ``--side`` names, spelt as on the map (None when not given); a side the map does
    not have is one line listing those it has."""
    try:
        return resolve_viewer(board, text)
    except UsageError as error:
        raise UsageError(str(error).replace("--viewer", "--side")) from None


def all_threats(solver: ThreatSolver, board: Board, move: int | None) -> list[Threat]:
    """Every figure on every figure it may target, now and next turn, by attacker then target id."""
    out = []
    for attacker in sorted(board.figures):
        for target in sorted(solver.enemies(board, attacker)):
            out.append(solver.threat(board, attacker, target, move))
    return out


def _threat_json(solver: ThreatSolver, board: Board, threat: Threat) -> dict[str, object]:
    from game.commands.wording import cli_reason
    from game.rules.registry import get_ruleset

    doc = threat.as_json()
    doc["attacker_name"] = board.figure(threat.attacker).name
    doc["target_name"] = board.figure(threat.target).name
    if threat.now is None:
        ruleset = get_ruleset(board.ruleset)
        _, why = ruleset.first_legal_attack(board, threat.attacker, [threat.target], {})
        doc["reason"] = cli_reason(why or "no usable attack", None)
    return doc


def chance_words(chance: Chance) -> str:
    """``Short Bow: hit 69.4%, expected 0.845 wounds, kill 24.8%``."""
    text = f"{chance.attack}: hit {float(chance.hit) * 100:.1f}%, expected {float(chance.expected):.3f} {chance.unit}"
    if chance.take_out is not None:
        text += f", {chance.take_out_word} {float(chance.take_out) * 100:.1f}%"
    return text


def cell(threat: Threat | None) -> str:
    """A matrix cell: ``69/25`` now, ``+2`` next turn after 2 steps, ``·`` neither, blank: not an enemy."""
    if threat is None:
        return ""
    now = threat.now
    if now is not None:
        out = f"{float(now.hit) * 100:.0f}"
        return out + (f"/{float(now.take_out) * 100:.0f}" if now.take_out is not None else "")
    if threat.next_turn is not None:
        return f"+{threat.next_turn.steps}"
    return "·"


def matrix(board: Board, threats: list[Threat]) -> list[str]:
    """The who-can-attack-whom matrix as text lines (see the module)."""
    rows = sorted({t.attacker for t in threats})
    cols = sorted({t.target for t in threats})
    if not rows:
        return ["No figure can target another (one side only, or no figures)."]
    found = {(t.attacker, t.target): t for t in threats}
    names = {i: board.figure(i).name[:NAME_WIDTH] for i in {*rows, *cols}}
    width = max(7, *(len(names[c]) for c in cols))
    head = " " * (NAME_WIDTH + 2) + " ".join(names[c].rjust(width) for c in cols)
    lines = ["", "attacks ↓ / is attacked →   (hit%/take-out% now; +N: after N steps next turn; ·: neither)", head]
    for r in rows:
        lines.append(names[r].ljust(NAME_WIDTH + 2) + " ".join(cell(found.get((r, c))).rjust(width) for c in cols))
    return lines


def details(board: Board, threats: list[Threat]) -> list[str]:
    """Each attacker's targets now and next turn, one line each."""
    lines = []
    for attacker in sorted({t.attacker for t in threats}):
        a = board.figure(attacker)
        lines += ["", f"{a.label} ({a.side}, {fmt_square(a.square)})"]
        mine = [t for t in threats if t.attacker == attacker]
        now = [t for t in mine if t.now is not None]
        later = [t for t in mine if t.now is None and t.next_turn is not None]
        for t in now:
            assert t.now is not None
            target = board.figure(t.target)
            lines.append(f"  now:       {target.label} {fmt_square(target.square)}: {chance_words(t.now)}")
        for t in later:
            assert t.next_turn is not None
            target = board.figure(t.target)
            lines.append(f"  next turn: {target.label} {fmt_square(target.square)}: {t.next_turn.words()}")
        if not now and not later:
            lines.append("  no enemy now or next turn")
    return lines
