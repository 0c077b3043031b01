"""The autosaved play state: what play changed on a map, in a JSON file beside it.

``maps/demo.tmx`` keeps its play state in ``maps/demo.sightline.json``. The file records only
what play changed relative to the map as loaded: figures moved, stats changed (wounds,
exhausted cards, ...), figures taken off the board, door states (edge doors and door squares), plus the action log, the roll
log, the dice seed and the ruleset file in play (when a file gives the rules: its path relative to
the map's folder, else absolute; the session reads it again on restore and says so when it cannot). Storing changes rather than a snapshot means a map edited in Tiled between
two sessions still opens with its new figures and doors, with play's changes laid over it where
the objects (ids) still exist.

Writes are atomic (:mod:`game.play.atomic`: a temporary file in the same folder, then
``os.replace``). A file that cannot be read is never a crash: it is renamed
``MAP.sightline.json.corrupt-<n>`` and the map opens as drawn, with a message saying so.

>>> from game.core.board import Board, Figure
>>> board = Board.from_ascii(["....", "...."], doors={"V(2,0)": "closed"})
>>> board.place_figure(Figure(7, "Rook", "red", (0, 0)))
>>> original = board.state()
>>> board.move_figure(7, (3, 1)); board.cycle_door(Edge.parse("V(2,0)"))
<DoorState.OPEN: 'open'>
>>> play = PlayState.capture(original, board.state())
>>> fresh = Board.from_ascii(["....", "...."], doors={"V(2,0)": "closed"})
>>> fresh.place_figure(Figure(7, "Rook", "red", (0, 0)))
>>> PlayState.from_json(play.to_json()).apply(fresh)
[]
>>> fresh.figure(7).square, fresh.doors[Edge.parse("V(2,0)")].state.value
((3, 1), 'open')
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.core import safe_json
from game.core.board import (
    Board,
    BoardState,
    Door,
    DoorState,
    Edge,
    Figure,
    Square,
    Stat,
    fmt_square,
)
from game.core.errors import SightlineError
from game.core.safe_json import MISSING, Field, JsonError, describe
from game.play.atomic import write_atomic
from game.rules.figure_stats import STAT_LIMIT
from game.tiled.files import FileRefused, read_regular_file, system_words

#: what a play-state file may say at most: text per line, log lines, dice draws of the seed stream
MAX_TEXT = 500
MAX_LOG = 5000
MAX_DRAWS = 10**6
MAX_STAT_TEXT = 4096
#: the most figures, doors and door squares a play state may say play changed
MAX_CHANGES = 100_000

FORMAT = "sightline-play-state"
FORMAT_VERSION = 1
SUFFIX = ".sightline.json"


class PlayStateError(SightlineError, ValueError):
    """A play-state file exists but cannot be used (bad JSON, wrong shape, newer format)."""


def state_path(map_path: str | Path) -> Path:
    """Where the play state of a map lives: beside it, ``NAME.sightline.json``.

    >>> state_path("maps/demo.tmx").as_posix()
    'maps/demo.sightline.json'
    """
    path = Path(map_path)
    return path.with_name(path.stem + SUFFIX)


@dataclass
class FigureChange:
    """What play changed on one figure: its square, some stats (None = stat deleted), removal."""

    square: Square | None = None
    stats: dict[str, Stat | None] = field(default_factory=dict)
    removed: bool = False


@dataclass(frozen=True)
class DoorChange:
    """A door whose state play changed; found again by object id, else by edge."""

    edge: Edge
    state: DoorState
    object_id: int | None = None


@dataclass(frozen=True)
class DoorSquareChange:
    """A door square (a door tile, docs/maps.md) whose state play changed; found again by square."""

    square: Square
    state: DoorState


@dataclass
class PlayState:
    """Everything play changed on a map, ready to save, load and lay over a freshly loaded board."""

    figures: dict[int, FigureChange] = field(default_factory=dict)
    doors: list[DoorChange] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    roll_log: list[dict[str, Any]] = field(default_factory=list)
    dice_seed: int | None = None
    selected: int | None = None
    #: the dice-seed stream's state (``SeededDice.state()``: master seed and draws so far), the
    #: game's PRNG state; None: derived from the roll log (play states written before it)
    dice: dict[str, int] | None = None
    #: door squares whose state play changed (files written before them have none)
    door_squares: list[DoorSquareChange] = field(default_factory=list)
    #: the ruleset file play used (``game.play.ruleset_file.saved_name``), None: the map's game
    ruleset_file: str | None = None

    # --- from boards ---------------------------------------------------------------------

    @classmethod
    def capture(
        cls,
        original: BoardState,
        current: BoardState,
        *,
        log: list[str] | None = None,
        roll_log: list[dict[str, Any]] | None = None,
        dice_seed: int | None = None,
        selected: int | None = None,
        dice: Mapping[str, int] | None = None,
        ruleset_file: str | None = None,
    ) -> PlayState:
        """The differences between the map as loaded (``original``) and the board now (and the
        ruleset file in play, as :attr:`ruleset_file` records it)."""
        before = {f.id: f for f in original.figures}
        now = {f.id: f for f in current.figures}
        figures: dict[int, FigureChange] = {}
        for fid, figure in now.items():
            old = before.get(fid)
            change = FigureChange()
            if old is None or old.square != figure.square:
                change.square = figure.square
            base = old.stats if old is not None else {}
            for key, value in figure.stats.items():
                if base.get(key, _MISSING) != value:
                    change.stats[key] = value
            for key in base:
                if key not in figure.stats:
                    change.stats[key] = None
            if change.square is not None or change.stats:
                figures[fid] = change
        for fid in before.keys() - now.keys():
            figures[fid] = FigureChange(removed=True)
        old_doors = {d.edge: d for d in original.doors}
        doors = [
            DoorChange(d.edge, d.state, d.object_id)
            for d in current.doors
            if d.edge not in old_doors or old_doors[d.edge].state is not d.state
        ]
        old_squares = dict(original.door_squares)
        door_squares = [
            DoorSquareChange(sq, state)
            for sq, state in current.door_squares
            if old_squares.get(sq) is not state
        ]
        return cls(figures, doors, list(log or []), list(roll_log or []), dice_seed, selected,
                   None if dice is None else dict(dice), door_squares, ruleset_file)

    @property
    def changes_board(self) -> bool:
        """Whether laying this state over a board would change any figure or door."""
        return bool(self.figures or self.doors or self.door_squares)

    def apply(self, board: Board) -> list[str]:
        """Lay the changes over ``board`` (freshly loaded); returns what could not be applied.

        Figures and doors that no longer exist are skipped, and so is a move onto a square that
        is no longer on the board; every skip is one line in the returned list.
        """
        notes: list[str] = []
        # door squares first: a figure moved through an opened door square stands on it
        squares: list[tuple[Square, DoorState]] = []
        for square_change in self.door_squares:
            sq = square_change.square
            if sq not in board.door_squares:
                notes.append(f"the door {board.grid.noun} {fmt_square(sq)} is no longer on the map")
                continue
            board.set_door_square(sq, square_change.state)
            squares.append((sq, square_change.state))
        figures: list[Figure] = []
        moved = {fid for fid, c in self.figures.items() if c.square is not None and not c.removed}
        # figures that stay where the map put them count first; moves are then checked like moves
        occupied = Counter(
            f.square for f in board.state().figures
            if f.id not in moved and not (f.id in self.figures and self.figures[f.id].removed)
        )
        for figure in board.state().figures:
            change = self.figures.get(figure.id)
            if change is None:
                figures.append(figure)
                continue
            if change.removed:
                continue
            if change.square is not None:
                if not board.on_board(change.square) or board.is_blocked_terrain(change.square):
                    notes.append(
                        f"{figure.label} stays on {fmt_square(figure.square)}: "
                        f"{fmt_square(change.square)} is no longer on the board"
                    )
                    occupied[figure.square] += 1
                elif occupied[change.square] >= board.capacity:
                    notes.append(
                        f"{figure.label} stays on {fmt_square(figure.square)}: "
                        f"{fmt_square(change.square)} already holds {occupied[change.square]} "
                        f"figures (capacity {board.capacity})"
                    )
                    occupied[figure.square] += 1
                else:
                    figure = replace(figure, square=change.square)
                    occupied[change.square] += 1
            if change.stats:
                stats = dict(figure.stats)
                for key, value in change.stats.items():
                    if value is None:
                        stats.pop(key, None)
                    else:
                        stats[key] = value
                figure = replace(figure, stats=stats)
            figures.append(figure)
        present = {f.id for f in board.state().figures}
        for fid in sorted(self.figures.keys() - present):
            if not self.figures[fid].removed:
                notes.append(f"figure {fid} is no longer on the map")
        by_id = {d.object_id: d for d in board.doors.values() if d.object_id is not None}
        doors: list[Door] = []
        for door in self.doors:
            target = by_id.get(door.object_id) if door.object_id is not None else None
            if target is None:
                target = board.doors.get(door.edge)
            if target is None:
                notes.append(f"the door on {door.edge} is no longer on the map")
                continue
            doors.append(replace(target, state=door.state))
        if self.changes_board:
            board.restore(BoardState(tuple(figures), tuple(doors), tuple(squares)))
        return notes

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON document written beside the map."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "figures": {
                str(fid): _figure_json(change) for fid, change in sorted(self.figures.items())
            },
            "doors": [
                {"edge": str(d.edge), "object_id": d.object_id, "state": d.state.value}
                for d in self.doors
            ],
            "door_squares": [
                {"square": list(d.square), "state": d.state.value} for d in self.door_squares
            ],
            "selected": self.selected,
            "log": self.log,
            "roll_log": self.roll_log,
            "dice_seed": self.dice_seed,
            "dice": self.dice,
            "ruleset_file": self.ruleset_file,
        }

    @classmethod
    def from_json(cls, data: Any) -> PlayState:
        """Read :meth:`to_json` output; raises :class:`PlayStateError` on anything else, saying
        in the file's terms which field is wrong (``figures.15.square[0]``) and how.

        >>> PlayState.from_json({"format": "other"})
        Traceback (most recent call last):
        ...
        game.play.savestate.PlayStateError: not a Sightline play state (format "other")
        >>> PlayState.from_json({"format": FORMAT, "version": 1, "figures": {"15": {"square": [3.7, 2.2]}}})
        Traceback (most recent call last):
        ...
        game.play.savestate.PlayStateError: expected a whole number from 0 to 1000000 at figures.15.square[0], found 3.7
        """
        doc = Field(data)
        if not isinstance(data, dict):
            raise PlayStateError("not a Sightline play state (not a JSON object)")
        if data.get("format") != FORMAT:
            raise PlayStateError(f"not a Sightline play state (format {describe(data.get('format', MISSING))})")
        version = doc.key("version")
        if isinstance(version.value, int) and not isinstance(version.value, bool) and version.value > FORMAT_VERSION:
            raise PlayStateError(f"written by a newer Sightline (version {describe(version.value)})")
        try:
            version.whole(low=1, high=FORMAT_VERSION)
            figures = {_figure_id(fid): _figure_from_json(value)
                       for fid, value in doc.key("figures").entries(default={}, limit=MAX_CHANGES)}
            doors = [_door_from_json(d) for d in doc.key("doors").items(default=(), limit=MAX_CHANGES)]
            door_squares = [_door_square_from_json(d)
                            for d in doc.key("door_squares").items(default=(), limit=MAX_CHANGES)]
            log = [_bounded(line.text()) for line in doc.key("log").items(default=(), tail=MAX_LOG)]
            roll_log = [_entry_from_json(entry) for entry in doc.key("roll_log").items(default=(), tail=MAX_LOG)]
            stream = doc.key("dice")
            dice = None if not stream.present else {
                "seed": stream.key("seed").whole(low=-SEED_LIMIT, high=SEED_LIMIT),
                "draws": stream.key("draws").whole(default=0, low=0, high=MAX_DRAWS)}
            rules_field = doc.key("ruleset_file")
            rules = rules_field.value if rules_field.present else None
            if rules is not None and (not isinstance(rules, str) or not rules.strip()
                                      or len(rules) > MAX_TEXT or "\0" in rules):
                raise rules_field.fail("a ruleset file's name")
            return cls(
                figures,
                doors,
                log,
                roll_log,
                doc.key("dice_seed").whole(default=None, low=-SEED_LIMIT, high=SEED_LIMIT),
                doc.key("selected").whole(default=None, low=0, high=ID_LIMIT),
                dice,
                door_squares,
                rules,
            )
        except JsonError as exc:
            raise PlayStateError(str(exc)) from None


_MISSING = object()
#: the largest dice seed, object id and board coordinate a play state may hold
SEED_LIMIT = 2**63
ID_LIMIT = 2**31
SQUARE_LIMIT = 10**6
#: the largest magnitude of a number stat (the rules refuse larger ones: game/rules/base.py)
MAX_STAT = STAT_LIMIT
#: nesting and size of the free-form part of a roll-log entry
ENTRY_DEPTH = 6
ENTRY_ITEMS = 500
ENTRY_KEYS = 200


def _bounded(value: str, limit: int = MAX_TEXT) -> str:
    """Text as the window may draw it: at most ``limit`` characters (cut with "…")."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _figure_id(key: str) -> int:
    """A key of ``figures``: a figure's object id, written as digits."""
    if not key.isascii() or not key.isdigit() or len(key) > 10 or int(key) > ID_LIMIT:
        raise JsonError(f"expected a figure's object id (a whole number) as a name in figures, "
                        f"found {describe(key)}")
    return int(key)


def _square(field: Field) -> Square:
    x, y = field.numbers(length=2, whole=True, low=0, high=SQUARE_LIMIT)
    return x, y


def _door_state(field: Field) -> DoorState:
    return DoorState(field.choice([state.value for state in DoorState]))


def _door_from_json(field: Field) -> DoorChange:
    """One saved door: ``{"edge": "V(2,0)", "state": "open", "object_id": 5}``, checked."""
    edge_field = field.key("edge")
    text = edge_field.text(max_len=40)
    hexside = _HEX_EDGE_TEXT.fullmatch(text)
    if hexside is not None:  # a hex side: its two lattice corners, as HexEdge prints it
        from game.core.hexgrid import HexEdge

        ends = [int(v) for v in hexside.groups()]
        if max(map(abs, ends)) > 4 * SQUARE_LIMIT:
            raise edge_field.fail(f"an edge with coordinates from 0 to {SQUARE_LIMIT}")
        return DoorChange(HexEdge.of((ends[0], ends[1]), (ends[2], ends[3])),  # type: ignore[arg-type]
                          _door_state(field.key("state")),
                          field.key("object_id").whole(default=None, low=0, high=ID_LIMIT))
    match = _EDGE_TEXT.fullmatch(text)
    if match is None:
        raise edge_field.fail("an edge written V(x,y) or H(x,y)")
    x, y = int(match.group(2)), int(match.group(3))
    if x > SQUARE_LIMIT or y > SQUARE_LIMIT:
        raise edge_field.fail(f"an edge with coordinates from 0 to {SQUARE_LIMIT}")
    return DoorChange(Edge("V" if match.group(1) == "V" else "H", x, y), _door_state(field.key("state")),
                      field.key("object_id").whole(default=None, low=0, high=ID_LIMIT))


_EDGE_TEXT = re.compile(r"\s*([VH])\s*\(\s*([0-9]{1,7})\s*,\s*([0-9]{1,7})\s*\)\s*")
#: a hex side ``(x1,y1)-(x2,y2)``: its lattice corners (docs/hex.md)
_HEX_EDGE_TEXT = re.compile(r"\((-?[0-9]{1,8}),(-?[0-9]{1,8})\)-\((-?[0-9]{1,8}),(-?[0-9]{1,8})\)")


def _bounded_json(field: Field, depth: int = 0) -> Any:
    """The free-form part of a roll-log entry: every text bounded, at most
    :data:`ENTRY_DEPTH` levels of lists and objects (longer lists and objects are cut)."""
    value = field.value
    if isinstance(value, str):
        return _bounded(value)
    if isinstance(value, dict | list) and depth >= ENTRY_DEPTH:
        raise field.fail(f"a plain value (a roll-log entry nests at most {ENTRY_DEPTH} levels)")
    if isinstance(value, dict):
        return {_bounded(name, 80): _bounded_json(member, depth + 1)
                for name, member in field.entries()[:ENTRY_KEYS]}
    if isinstance(value, list):
        return [_bounded_json(item, depth + 1) for item in field.items()[:ENTRY_ITEMS]]
    return value


def _entry_from_json(field: Field) -> dict[str, Any]:
    """One roll-log entry, checked: an object; its ``dice`` state a seed and a bounded count of
    draws (replaying them costs time); its texts bounded."""
    field.object()
    out: dict[str, Any] = _bounded_json(field)
    dice = field.key("dice")
    if dice.present:
        out["dice"] = {
            "seed": dice.key("seed").whole(low=-SEED_LIMIT, high=SEED_LIMIT),
            "draws": dice.key("draws").whole(default=0, low=0, high=MAX_DRAWS),
        }
    field.key("seed").whole(default=None, low=-SEED_LIMIT, high=SEED_LIMIT)
    return out


def _door_square_from_json(field: Field) -> DoorSquareChange:
    """One saved door square: ``{"square": [x, y], "state": "open"}``, checked."""
    return DoorSquareChange(_square(field.key("square")), _door_state(field.key("state")))


def _figure_json(change: FigureChange) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if change.removed:
        out["removed"] = True
    if change.square is not None:
        out["square"] = list(change.square)
    if change.stats:
        out["stats"] = dict(change.stats)
    return out


def _figure_from_json(field: Field) -> FigureChange:
    """One saved figure change: ``{"square": [x, y], "stats": {...}, "removed": true}``, checked."""
    field.object()
    square_field = field.key("square")
    square = _square(square_field) if square_field.present else None
    stats: dict[str, Stat | None] = {}
    for name, member in field.key("stats").entries(default={}):
        value = member.value
        if value is None or isinstance(value, bool):
            stats[name] = value
        elif isinstance(value, str):
            stats[name] = member.text(max_len=MAX_STAT_TEXT)
        elif isinstance(value, int | float):
            number = member.number(low=-MAX_STAT, high=MAX_STAT)
            stats[name] = number if isinstance(number, int | float) else float(number)
        else:
            raise member.fail("a number, text, true, false or null")
    return FigureChange(square, stats, field.key("removed").flag(default=False))


@dataclass(frozen=True)
class Loaded:
    """What :func:`load_state` found: a state (or None) and a message for the person (or None)."""

    state: PlayState | None
    message: str | None = None


def load_state(path: str | Path) -> Loaded:
    """Read a play-state file. Missing: nothing. Unusable: set aside, with a one-line message.

    Unusable is anything but a regular file of at most :data:`MAX_STATE_BYTES` holding a play
    state: a folder, a named pipe or a device (even through a link; never opened, so never a
    hang), a file too large, text that is not JSON or JSON that is not a play state. The file
    (or the link, pipe or folder itself) is renamed ``<name>.corrupt-<n>`` (the first free n),
    so nothing is lost, the next autosave does not overwrite it and the map opens as drawn.
    """
    path = Path(path)
    try:
        data = _read_state_file(path)
    except FileNotFoundError:
        return Loaded(None)
    except _Unreadable as exc:
        return Loaded(None, _set_aside(path, str(exc)))
    try:
        return Loaded(PlayState.from_json(safe_json.loads(data, max_chars=MAX_STATE_BYTES)))
    except JsonError as exc:
        return Loaded(None, _set_aside(path, f"not JSON: {exc}"))
    except PlayStateError as exc:
        return Loaded(None, _set_aside(path, str(exc)))


#: the largest play-state file read (a full log and roll log take a few MB)
MAX_STATE_BYTES = 32 * 1024 * 1024


class _Unreadable(Exception):
    """A play-state file that is there but cannot be read; the message is the reason in our words."""


def _read_state_file(path: Path, limit: int = MAX_STATE_BYTES) -> bytes:
    """The bytes of a play-state file: a regular file (links followed) of at most ``limit``
    bytes (:func:`game.tiled.files.read_regular_file`: a pipe or a device is never opened).
    Anything else is :class:`_Unreadable`; ``FileNotFoundError`` when there is no file."""
    try:
        return read_regular_file(path, limit)
    except FileRefused as exc:
        if exc.size is None:
            raise _Unreadable(str(exc)) from None
        raise _Unreadable(f"it is {_mib(exc.size)}, over the {_mib(limit)} a play state may have") from None


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB" if size < 100 * 1024 * 1024 else f"{size // (1024 * 1024):,} MiB"


def _set_aside(path: Path, reason: str) -> str:
    """Rename an unusable play-state file ``<name>.corrupt-<n>``; the one-line message saying so."""
    n = 1
    while os.path.lexists(path.with_name(f"{path.name}.corrupt-{n}")):
        n += 1
    aside = path.with_name(f"{path.name}.corrupt-{n}")
    try:
        os.replace(path, aside)
    except OSError as exc:
        return (f"saved play state {path.name} is unusable ({reason}) and could not be renamed "
                f"({system_words(exc)}): move it away, or play on without saving")
    return f"saved play state {path.name} was unusable ({reason}); kept as {aside.name}, starting fresh"


def save_state(path: str | Path, state: PlayState) -> None:
    """Write the play state atomically (:func:`game.play.atomic.write_atomic`).

    Raises :class:`game.play.atomic.OutputError` (an ``OSError``) when the file cannot be written.
    """
    text = json.dumps(state.to_json(), indent=1, ensure_ascii=False) + "\n"
    write_atomic(path, text)
