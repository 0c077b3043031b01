"""``sightline attack MAP ATTACKER TARGET``: resolve one attack, seeded or with physical dice.

Every die and every step is printed, then the ruleset's one-sentence summary (or given as JSON:
``{"legal", "reason", "steps", "outcome", "ruleset", "los_rule", "reactions"}``). The reactions the
attack calls for (Arcadia Quest's Guard and Payback) follow as its next steps, each resolved with
the same dice (seeded, or the ``reaction attack | reaction defence`` pools of ``--faces``). An
illegal attack is an answer, not an error: ``legal: false`` with the reason, exit 0. Line of sight
is judged by the map's rule (its ``los_rule``): ``los_rule`` in the JSON, and a line saying so
under a rule other than the default. Too few ``--faces`` for the dice the rules require is an
error (one line, exit 2). The map file is never modified.
"""

from __future__ import annotations

import argparse
import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from game.commands._common import (
    add_map_options,
    add_ruleset_file_option,
    map_options,
    refuse_off_grid,
)
from game.commands.wording import cli_reason, flag_of
from game.core.board import Board
from game.core.dice import DiceSource, ScriptedDice, SeededDice, parse_faces
from game.core.errors import UsageError
from game.rules.base import PLAY_OPTION, AttackRequest, Resolution, Ruleset
from game.rules.exchange import play_exchange
from game.rules.registry import get_ruleset

#: spellings the command line accepts for a choice's values
_VALUE_SPELLINGS: dict[str, str] = {"defense": "defence"}


@dataclass(frozen=True)
class Asked:
    """What the command line names: the ruleset of the map and the attack request for it."""

    ruleset: Ruleset
    request: AttackRequest

    @property
    def board(self) -> Board:
        """The board the request is on."""
        return self.request.board


def add_attack_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments ``attack`` and ``odds`` share."""
    parser.add_argument("map", metavar="MAP", help="the map: Tiled (.tmx, .tmj), Universal VTT (.dd2vtt, .uvtt, .df2vtt) or a Foundry scene (.json)")
    parser.add_argument("attacker", metavar="ATTACKER", help="the attacking figure: name or object id")
    parser.add_argument(
        "target", metavar="TARGET", help="the target figure: name or object id; a comma list for several"
    )
    parser.add_argument("--attack", metavar="NAME", help="the attack (card, weapon) to use; default: the first one legal on the target")
    parser.add_argument("--phase", metavar="PHASE", help="combat phase (Mage Knight: ranged, block, attack ...)")
    parser.add_argument("--play", metavar="TEXT", help='what is played (Mage Knight: "ranged 3 fire, siege 2")')
    parser.add_argument(
        "--block-stat", metavar="STAT", choices=("defence", "defense", "evasion"),
        help="Conquest: the stat the defender blocks with (defence or evasion)",
    )
    parser.add_argument(
        "--extra-hits", metavar="N", type=_count,
        help="Conquest: N extra Hits from an effect (each rolled for its value, then blocked)",
    )
    parser.add_argument(
        "--dodge-skill", metavar="NAME",
        help="2D6 TRPG: the defender's reaction skill in the dodge check (none: no skill)",
    )
    parser.add_argument("--classes", metavar="MAPPING", help="map class names onto ours, e.g. wall=collision-line")
    add_map_options(parser)
    add_ruleset_file_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def _count(text: str) -> int:
    """A whole number of 0 or more (``--extra-hits``); argparse reports anything else."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 0 <= value <= 30:
        raise argparse.ArgumentTypeError(f"must be 0 to 30, not {value}")
    return value


def options_from(
    args: argparse.Namespace, ruleset: Ruleset, board: Board, attacker: int, targets: Sequence[int]
) -> dict[str, object]:
    """The rules' inputs given on the command line: ``--phase`` and ``--play`` (the typed play,
    :data:`~game.rules.base.PLAY_OPTION`), and each of the rules' choices
    (:meth:`Ruleset.choices`) given by its flag (:func:`~game.commands.wording.flag_of`: the
    choice ``block_stat`` is ``--block-stat``)."""
    options: dict[str, object] = {}
    if getattr(args, "phase", None):
        options["phase"] = args.phase
    if getattr(args, "play", None):
        options[PLAY_OPTION] = args.play
    if getattr(args, "extra_hits", None):
        options["extra_hits"] = args.extra_hits
    for choice in ruleset.choices(board, attacker, targets):
        given = getattr(args, choice.key, None)
        if given is None:
            continue
        value = _VALUE_SPELLINGS.get(str(given).lower(), str(given).lower())
        known = [v for v, _ in choice.values if v is not None]
        value = next((v for v in known if v.casefold() == value), value)
        if value not in known:
            raise UsageError(f"{flag_of(choice.key)} must be {' or '.join(known)}, not {given!r}")
        options[choice.key] = value
    return options


def load_request(args: argparse.Namespace) -> Asked:
    """Load the map (with its ruleset file, or ``--ruleset-file``), find its ruleset and the
    figures named on the command line."""
    from game.play.ruleset_file import load_with_rules

    options = map_options(args)  # checked before any file is read
    board = load_with_rules(args.map, getattr(args, "ruleset_file", None), **options).board
    ruleset = get_ruleset(board.ruleset)
    refuse_off_grid(board, ruleset, args.map)
    attacker = board.find_figure(args.attacker).id
    names = [t for t in (p.strip() for p in args.target.split(",")) if t]
    if not names:
        raise UsageError("no target given (name a figure or its id)")
    targets: list[int] = []
    for name in names:
        figure = board.find_figure(name)
        if figure.id in targets:
            raise UsageError(f"target {figure.label} is named twice (name each target once)")
        targets.append(figure.id)
    options = options_from(args, ruleset, board, attacker, targets)
    return Asked(ruleset, AttackRequest(board, attacker, targets, args.attack, options))


@contextmanager
def figures_named(args: argparse.Namespace, asked: Asked) -> Iterator[None]:
    """A figure's property the rules cannot read while they judge the attack, said with the map
    and the figure (the rules' own words name the value, not whose it is); any other refusal as
    it is."""
    try:
        yield
    except UsageError as exc:
        board = asked.request.board
        for figure_id in (asked.request.attacker, *asked.request.targets):
            figure = board.find_figure(str(figure_id))
            said = str(exc).removeprefix(f"{figure.label}: ")  # the rules may name the figure already
            if any(said in problem or problem in said for problem in asked.ruleset.figure_problems(figure)):
                raise UsageError(f"{args.map}: figure {figure.label}: {said} "
                                 "(fix the property; sightline check lists every one)") from None
        raise


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline attack``."""
    add_attack_arguments(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="seed of the dice (replays exactly); default: a fresh one")
    parser.add_argument(
        "--faces", metavar="F",
        help='the faces of a physical roll: pools separated by "|" (Arcadia: attack | defence | '
        'reaction attack | reaction defence), faces by spaces or commas, extra dice appended, a '
        'reroll written old>new, e.g. "crit bow blank>bow sword | shield"',
    )


def sight_rule_line(board: Board) -> str | None:
    """The line ``attack`` and ``odds`` print under a sight rule other than the default (the
    attack judged line of sight by it), None under the default."""
    from game.core import sight

    rule = sight.rule_of(board)
    if rule == sight.default_rule(board.grid.kind):
        return None
    return f"line of sight by the map's rule: {rule.spec()}"


def sight_rule_spec(board: Board) -> str:
    """The map's sight rule as text (``los_rule`` in the JSON of ``attack`` and ``odds``)."""
    from game.core import sight

    return sight.rule_of(board).spec()


def dice_source(args: argparse.Namespace, ruleset: Ruleset) -> DiceSource:
    """Scripted dice from ``--faces``, else seeded dice from ``--seed`` (or a fresh seed)."""
    if args.faces is not None and args.seed is not None:
        raise UsageError("give --seed or --faces, not both")
    if args.faces is not None:
        if not ruleset.pools:
            raise UsageError(f"--faces: the {ruleset.title or ruleset.name} rules roll no dice")
        faces = parse_faces(
            args.faces, pools=ruleset.pools, names=ruleset.face_names, numeric=ruleset.face_names is None,
            rerolls=ruleset.face_rerolls,
        )
        return ScriptedDice(faces, ruleset.pools)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    return SeededDice(seed)


def run(args: argparse.Namespace) -> int:
    """Resolve the attack once, then the reactions it calls for, and print them; the map file
    is not changed."""
    asked = load_request(args)
    ruleset, request = asked.ruleset, asked.request
    dice = dice_source(args, ruleset)
    with figures_named(args, asked):
        exchange = play_exchange(ruleset, request, dice)
    resolution = exchange.attack
    if resolution.legal and isinstance(dice, ScriptedDice):
        dice.check_used()  # faces the rules never asked for are a typo in --faces
    if args.json:
        doc = resolution.as_json()
        doc["reason"] = cli_reason(resolution.reason, resolution.problem)
        doc["ruleset"] = ruleset.name
        doc["los_rule"] = sight_rule_spec(request.board)
        doc["reactions"] = [{"reaction": r.as_json(), **(res.as_json() if res is not None else {"rolled": False})}
                            for r, res in exchange.reactions]
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    board = request.board
    who = board.figure(request.attacker).label
    whom = ", ".join(board.figure(t).label for t in request.targets)
    print(f"{who} attacks {whom} ({ruleset.title or ruleset.name})")
    if (named := sight_rule_line(board)) is not None:
        print(named)
    if not resolution.legal:
        print(f"illegal: {cli_reason(resolution.reason, resolution.problem)}")
        return 0
    if resolution.seed is not None:
        print(f"seed {resolution.seed}")
    _print_steps(resolution)
    for reaction, result in exchange.reactions:
        print(f"Next: {reaction.why}")
        if result is None:
            print("  (not rolled: give its faces as the reaction pools of --faces, or use --seed)")
        elif result.legal:
            _print_steps(result)
        elif reaction.attack is not None:
            print(f"  no {reaction.kind}: {result.reason}")
    return 0


def _print_steps(resolution: Resolution) -> None:
    """Each step of a resolution, indented, then its one-sentence summary."""
    for step in resolution.steps:
        print(f"  {step.text}")
    if resolution.sentence():
        print(resolution.sentence())
