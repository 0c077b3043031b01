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
import math
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
from game.play.atomic import write_atomic

#: what a play-state file may say at most: text per line, log lines, dice draws of the seed stream
MAX_TEXT = 500
MAX_LOG = 5000
MAX_DRAWS = 10**6
MAX_STAT_TEXT = 4096

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
                notes.append(f"the door square {fmt_square(sq)} is no longer on the map")
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
        """Read :meth:`to_json` output; raises :class:`PlayStateError` on anything else.

        >>> PlayState.from_json({"format": "other"})
        Traceback (most recent call last):
        ...
        game.play.savestate.PlayStateError: not a Sightline play state (format 'other')
        """
        if not isinstance(data, dict):
            raise PlayStateError("not a Sightline play state (not a JSON object)")
        if data.get("format") != FORMAT:
            raise PlayStateError(f"not a Sightline play state (format {data.get('format')!r})")
        version = data.get("version")
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise PlayStateError(f"written by a newer Sightline (version {version!r})")
        try:
            figures = {
                int(fid): _figure_from_json(value)
                for fid, value in dict(data.get("figures") or {}).items()
            }
            doors = [
                DoorChange(
                    Edge.parse(str(d["edge"])),
                    DoorState(d["state"]),
                    None if d.get("object_id") is None else int(d["object_id"]),
                )
                for d in list(data.get("doors") or [])
            ]
            door_squares = [_door_square_from_json(d) for d in list(data.get("door_squares") or [])]
            log = [_bounded(line) for line in list(data.get("log") or [])][-MAX_LOG:]
            roll_log = [
                _entry_from_json(n, entry)
                for n, entry in enumerate(list(data.get("roll_log") or []), start=1)
            ][-MAX_LOG:]
            seed = data.get("dice_seed")
            selected = data.get("selected")
            stream = data.get("dice")
            dice = None if stream is None else {
                "seed": _whole(dict(stream)["seed"], "dice seed"),
                "draws": _whole(dict(stream).get("draws", 0), "dice draws", 0, MAX_DRAWS)}
            rules = data.get("ruleset_file")
            if rules is not None and (not isinstance(rules, str) or not rules.strip()
                                      or len(rules) > MAX_TEXT or "\0" in rules):
                raise ValueError(f"ruleset_file must be a file name, not {_shown(rules)}")
            return cls(
                figures,
                doors,
                log,
                roll_log,
                None if seed is None else _whole(seed, "dice_seed"),
                None if selected is None else _whole(selected, "selected"),
                dice,
                door_squares,
                rules,
            )
        except (KeyError, TypeError, ValueError, OverflowError, SightlineError) as exc:
            raise PlayStateError(f"malformed play state: {exc}") from exc


_MISSING = object()


def _whole(value: Any, what: str, low: int = -(2**63), high: int = 2**63) -> int:
    """A whole number the file gives, within bounds (bools and text are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _bounded(value: Any, limit: int = MAX_TEXT) -> str:
    """Text as the window may draw it: at most ``limit`` characters (cut with "…")."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bounded_json(value: Any, depth: int = 0) -> Any:
    """A roll-log value with every text bounded, nesting at most 6 deep."""
    if depth > 6:
        raise ValueError("nested too deep")
    if isinstance(value, str):
        return _bounded(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("a number is not finite")
    if isinstance(value, dict):
        return {_bounded(k, 80): _bounded_json(v, depth + 1) for k, v in list(value.items())[:200]}
    if isinstance(value, list):
        return [_bounded_json(v, depth + 1) for v in value[:500]]
    return value


def _entry_from_json(n: int, entry: Any) -> dict[str, Any]:
    """One roll-log entry, checked: an object; its ``dice`` state a seed and a bounded count of
    draws (replaying them costs time); its texts bounded."""
    if not isinstance(entry, dict):
        raise ValueError(f"roll log entry {n} is not an object")
    try:
        out = _bounded_json(entry)
        dice = entry.get("dice")
        if dice is not None:
            if not isinstance(dice, dict):
                raise ValueError("dice must be {seed, draws}")
            out["dice"] = {
                "seed": _whole(dice.get("seed"), "seed"),
                "draws": _whole(dice.get("draws", 0), "draws", 0, MAX_DRAWS),
            }
        if entry.get("seed") is not None:
            _whole(entry["seed"], "seed")
    except ValueError as exc:
        raise ValueError(f"roll log entry {n}: {exc}") from None
    return out


def _door_square_from_json(value: Any) -> DoorSquareChange:
    """One saved door square: ``{"square": [x, y], "state": "open"}``, checked."""
    value = dict(value)
    square = list(value["square"])
    if len(square) != 2:
        raise ValueError(f"a door square must be [x, y], not {_shown(square)}")
    x, y = (_whole(v, "door square coordinate", 0, 10**6) for v in square)
    return DoorSquareChange((x, y), DoorState(value["state"]))


def _figure_json(change: FigureChange) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if change.removed:
        out["removed"] = True
    if change.square is not None:
        out["square"] = list(change.square)
    if change.stats:
        out["stats"] = dict(change.stats)
    return out


def _figure_from_json(value: Any) -> FigureChange:
    value = dict(value)
    square = value.get("square")
    if square is not None:
        x, y = (int(v) for v in square)
        square = (x, y)
    stats = dict(value.get("stats") or {})
    for key, stat in stats.items():
        if stat is not None and not isinstance(stat, str | int | float | bool):
            raise ValueError(f"stat {key!r} is not a number, text or true/false")
        if isinstance(stat, float) and not math.isfinite(stat):
            raise ValueError(f"stat {key!r} is {stat}, not a finite number")
        if isinstance(stat, str) and len(stat) > MAX_STAT_TEXT:
            raise ValueError(f"stat {key!r} is {len(stat)} characters long (at most {MAX_STAT_TEXT})")
    return FigureChange(square, stats, bool(value.get("removed", False)))


@dataclass(frozen=True)
class Loaded:
    """What :func:`load_state` found: a state (or None) and a message for the person (or None)."""

    state: PlayState | None
    message: str | None = None


def load_state(path: str | Path) -> Loaded:
    """Read a play-state file. Missing: nothing. Unreadable: set aside, with a message.

    The unreadable file is renamed ``<name>.corrupt-<n>`` (the first free n), so nothing is
    lost and the next autosave does not overwrite it.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Loaded(None)
    except (OSError, UnicodeDecodeError) as exc:
        return Loaded(None, _set_aside(path, f"cannot read it: {exc}"))
    try:
        return Loaded(PlayState.from_json(json.loads(text, parse_constant=_no_constant)))
    except _NotANumber as exc:
        return Loaded(None, _set_aside(path, f"not JSON: {exc} is not a number"))
    except json.JSONDecodeError as exc:
        return Loaded(None, _set_aside(path, f"not JSON: {exc.msg} at line {exc.lineno}"))
    except PlayStateError as exc:
        return Loaded(None, _set_aside(path, str(exc)))


class _NotANumber(ValueError):
    """JSON's ``NaN`` / ``Infinity`` / ``-Infinity``: Python reads them, JSON does not have them."""


def _no_constant(name: str) -> Any:
    raise _NotANumber(name)


def _set_aside(path: Path, reason: str) -> str:
    n = 1
    while path.with_name(f"{path.name}.corrupt-{n}").exists():
        n += 1
    aside = path.with_name(f"{path.name}.corrupt-{n}")
    try:
        os.replace(path, aside)
    except OSError as exc:
        return f"saved play state {path.name} is unusable ({reason}) and could not be moved: {exc}"
    return f"saved play state {path.name} was unusable ({reason}); kept as {aside.name}, starting fresh"


def save_state(path: str | Path, state: PlayState) -> None:
    """Write the play state atomically (:func:`game.play.atomic.write_atomic`).

    Raises :class:`game.play.atomic.OutputError` (an ``OSError``) when the file cannot be written.
    """
    text = json.dumps(state.to_json(), indent=1, ensure_ascii=False) + "\n"
    write_atomic(path, text)
