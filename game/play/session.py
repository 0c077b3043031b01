"""One open map in play: the board, its undo history, the autosaved play state, live reload.

The window (``game/ui/app.py``) and anything else that changes the board in play (the attack
panel, the dice tray) go through a :class:`Session`, so every change is undoable, logged and
autosaved in one place::

    session = Session.open("maps/demo.tmx")
    session.move(figure_id, (3, 4))          # None, or why the square refuses the figure
    session.change("Rook takes a wound", lambda board: board.update_figure(7, wounds=1))
    session.undo()

No pygame here: the session is plain Python over ``game.tiled``, ``game.core.board``,
``game.play.history`` and ``game.play.savestate``.

A map whose rules are a ruleset file (``ruleset = "file:..."``, or the ``ruleset_file`` a session
is opened with: ``--ruleset-file``) plays that file (:mod:`game.play.ruleset_file`); the file is
watched and read again with the map, and the play state records it. Which file, in order: the one
the session is opened with; the one the saved play state was played with (read again; one it
cannot read is said, and the map's own ruleset plays); the map's own.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.board import Board, BoardState, DoorState, Edge, Square, fmt_square
from game.core.dice import SeededDice
from game.core.errors import MapError, PlacementError, SightlineError
from game.core.findings import Finding, Severity
from game.designer import lint as lint_module
from game.designer.lint import lint
from game.play.atomic import clean_leftovers
from game.play.history import History
from game.play.roll_log import dice_state, next_attack_seed
from game.play.ruleset_file import attach_file, attach_rules, attached_file, saved_name, saved_path
from game.play.savestate import Loaded, PlayState, load_state, save_state, state_path

#: how a map is read: ``load_map`` keyword arguments (``classes``, ``tiles``, ``properties``,
#: ``preset``; :func:`game.commands._common.map_options` builds them from the command line)
MapOptions = Mapping[str, Any]


def _load_map(path: Path, options: MapOptions | None = None) -> Any:
    from game.tiled import load_map  # helper B's loader

    return load_map(path, **dict(options or {}))


def _merged(classes: Mapping[str, Sequence[str]] | None, options: MapOptions | None) -> dict[str, Any]:
    """The map options with ``classes`` given on its own laid over them."""
    out = dict(options or {})
    if classes is not None:
        out["classes"] = classes
    return out


def lint_findings(loaded: Any) -> list[Finding]:
    """The map check's findings (:func:`game.designer.lint.lint`); a linter bug becomes a warning
    beside the loader's own findings instead of closing the window."""
    try:
        return list(lint(loaded))
    except Exception as exc:  # noqa: BLE001 - a linter bug must not close the window
        return [
            *getattr(loaded, "findings", []),
            Finding(
                "lint-failed",
                Severity.WARNING,
                f"the map check failed: {type(exc).__name__}: {exc}",
                hint="this is a Sightline bug; please report it",
            ),
        ]


class LintRun:
    """The map check one step at a time, so a window can draw its first frame before it ends.

    The steps are the board-level checks of ``game.designer.lint.lint_board``
    (``game.designer.lint.board_checks``, the one list both run);
    :meth:`step` runs one and returns True once everything ran (then :attr:`findings` holds
    exactly what :func:`lint_findings` returns). ``tests/test_window_lint.py`` checks that the
    two agree on every bundled map.
    """

    def __init__(self, loaded: Any) -> None:
        self.loaded = loaded
        self.findings: list[Finding] | None = None
        self._found: list[Finding] = list(getattr(loaded, "findings", []))
        self._lint: Any = lint_module
        objects = list(getattr(loaded, "objects", {}).values())
        self._steps: list[Callable[[], list[Finding]]] = self._lint.board_checks(loaded.board, objects)
        self.done = 0

    @property
    def total(self) -> int:
        """How many steps the whole check has."""
        return len(self._steps)

    def step(self) -> bool:
        """Run the next check; True when the map check is complete."""
        if self.findings is not None:
            return True
        try:
            self._found += self._steps[self.done]()
        except Exception as exc:  # noqa: BLE001 - a linter bug must not close the window
            self.findings = [
                *getattr(self.loaded, "findings", []),
                Finding(
                    "lint-failed",
                    Severity.WARNING,
                    f"the map check failed: {type(exc).__name__}: {exc}",
                    hint="this is a Sightline bug; please report it",
                ),
            ]
            return True
        self.done += 1
        if self.done == len(self._steps):
            ignored = self._lint.ignored_codes(self.loaded.board)
            self.findings = self._lint.finish(f for f in self._found if f.code not in ignored)
            return True
        return False


#: how many changes an undo/redo log line spells out before "…"
OUTCOME_LIMIT = 3


def outcome(left: BoardState, now: BoardState, how: str) -> str:
    """What an undo (``how="back to"``) or redo (``how="now"``) did to the board, in words:
    doors whose state changed, figures moved, wounded, added or removed.

    >>> from game.core.board import Door, Figure
    >>> edge = Edge.parse("V(7,3)")
    >>> locked = BoardState((), (Door(edge, DoorState.LOCKED),))
    >>> closed = BoardState((), (Door(edge, DoorState.CLOSED),))
    >>> outcome(closed, locked, "back to")
    'door V(7,3) back to locked'
    >>> rook = Figure(1, "Rook", "red", (1, 1), {"life": 3})
    >>> moved = Figure(1, "Rook", "red", (2, 1), {"life": 2})
    >>> outcome(BoardState((moved,), ()), BoardState((rook,), ()), "back to")
    'Rook back on (1,1); Rook life back to 3'
    """
    parts: list[str] = []
    doors = {door.edge: door.state for door in left.doors}
    for door in now.doors:
        if doors.get(door.edge, door.state) != door.state:
            parts.append(f"door {door.edge} {how} {door.state.value}")
    before = {figure.id: figure for figure in left.figures}
    after = {figure.id: figure for figure in now.figures}
    on = "back on" if how == "back to" else "now on"
    for fid, figure in after.items():
        old = before.get(fid)
        if old is None:
            parts.append(f"{figure.label} {on} the board")
            continue
        if old.square != figure.square:
            parts.append(f"{figure.label} {on} {fmt_square(figure.square)}")
        for key, value in figure.stats.items():
            if old.stats.get(key) != value:
                parts.append(f"{figure.label} {key} {how} {value}")
    for fid, figure in before.items():
        if fid not in after:
            parts.append(f"{figure.label} off the board")
    if len(parts) > OUTCOME_LIMIT:
        parts = [*parts[:OUTCOME_LIMIT], "…"]
    return "; ".join(parts)


@dataclass(frozen=True)
class Snapshot:
    """What undo and redo restore: the board, the roll log and the dice-seed stream's state.

    Restoring the stream rewinds the dice too: an attack undone and rolled again rolls the same
    (unless the player asks for fresh dice, :meth:`Session.fresh_dice`).
    """

    board: BoardState
    rolls: tuple[dict[str, Any], ...] = ()
    dice: tuple[tuple[str, int], ...] | None = None


class Session:
    """A map open for play: board + history + play state + reload, with autosave after changes.

    ``autosave=False`` (the lessons) never reads or writes a state file; ``fresh=True`` ignores
    the saved state on open (it is overwritten by the next change).
    """

    def __init__(
        self,
        loaded: Any,
        *,
        classes: Mapping[str, Sequence[str]] | None = None,
        options: MapOptions | None = None,
        autosave: bool = True,
        fresh: bool = False,
        loader: Callable[[Path, MapOptions], Any] = _load_map,
        defer_lint: bool = False,
        ruleset_file: str | Path | None = None,
    ) -> None:
        self.loaded = loaded
        self.path = Path(loaded.path)
        #: how the map is read (``load_map`` keyword arguments), kept for live reload
        self.options: dict[str, Any] = _merged(classes, options)
        self.classes = self.options.get("classes")
        self.autosave = autosave
        self._loader = loader
        self.board: Board = loaded.board
        #: the map as drawn, before play changed anything: what the play state is relative to
        self.original: BoardState = self.board.state()
        self.history: History[Snapshot] = History()
        self.roll_log: list[dict[str, Any]] = []
        #: the dice-seed stream's state (``{"seed": master, "draws": n}``), saved with the play
        #: state like a game's PRNG state; None until the first roll draws the master seed
        self.dice: dict[str, int] | None = None
        #: draws the master seed the first time this map rolls (tests pin it)
        self.seed_source: Callable[[], int] = lambda: secrets.randbelow(2**31)
        #: the seeds of attacks undone since the last roll: rolling again repeats them (the same
        #: attack rolls the same dice) unless the player asks for fresh dice
        self.undone_seeds: list[int] = []
        self._peeked: tuple[object, int] | None = None
        self.selected: int | None = None
        #: lines for the person (status line / log): restore notes, save errors, reload errors
        self.messages: list[str] = []
        #: the last reload error (the board shown is the last good one), None when fine
        self.reload_error: str | None = None
        self.save_error: str | None = None
        #: ``defer_lint``: the map check runs step by step (:meth:`lint_step`, the window calls
        #: it once a frame after the first); until it ends, ``findings`` holds the loader's own
        self.defer_lint = defer_lint
        self.lint_run: LintRun | None = None
        self.findings: list[Finding] = []
        self.state_file = state_path(self.path)
        if autosave:
            clean_leftovers(self.state_file)  # temporary files of a process killed mid-save
        found = load_state(self.state_file) if autosave and not fresh else Loaded(None)
        #: the ruleset file chosen for this session (opened with, or the saved play state's),
        #: read again on reload; None: the map's own ruleset (a file or a game)
        self.ruleset_choice: Path | None = None if ruleset_file is None else Path(ruleset_file)
        notes = self._choose_rules(found.state.ruleset_file if found.state is not None else None)
        self._start_lint(self.loaded)
        self._restore(found)
        for note in notes:
            self._say(note)

    @classmethod
    def open(
        cls,
        map_path: str | Path,
        *,
        classes: Mapping[str, Sequence[str]] | None = None,
        options: MapOptions | None = None,
        autosave: bool = True,
        fresh: bool = False,
        defer_lint: bool = False,
        ruleset_file: str | Path | None = None,
    ) -> Session:
        """Load a map (raises :class:`MapError`) and restore its play state unless ``fresh``.

        ``options`` are ``load_map`` keyword arguments (``classes``, ``tiles``, ``properties``,
        ``preset``); a ``classes`` given on its own wins over the one in ``options``. Live reload
        reads the map with the same options. ``ruleset_file`` plays that ruleset file instead of
        the map's ruleset (a file that cannot be used raises a one-line UsageError).
        """
        merged = _merged(classes, options)
        loaded = _load_map(Path(map_path), merged)
        return cls(loaded, options=merged, autosave=autosave, fresh=fresh, defer_lint=defer_lint,
                   ruleset_file=ruleset_file)

    # --- the ruleset file ------------------------------------------------------------------

    @property
    def ruleset_file(self) -> Path | None:
        """The ruleset file the board plays (None: a built-in game)."""
        return attached_file(self.board.ruleset)

    def _choose_rules(self, saved: str | None) -> list[str]:
        """Give the board its rules: the session's file, else the saved play state's, else the
        map's own (see the module); a file that cannot be used raises UsageError, except the saved
        state's, which is said and replaced by the map's own. Returns the lines to say."""
        choice, notes = self.ruleset_choice, []
        if choice is not None:
            self.loaded = attach_rules(self.loaded, choice)
            if saved is not None and saved_path(saved, self.path) != choice.resolve():
                notes.append(f"the saved play state was played with the ruleset file {saved}; "
                             f"now playing {choice}")
        elif saved is not None:
            path, own = saved_path(saved, self.path), self._own_rules()
            try:
                self.loaded = attach_file(self.loaded, path, saved)
            except SightlineError as exc:
                notes.append(f"the saved play state was played with the ruleset file {saved}, "
                             f"which cannot be used now ({exc}); playing the map's own ruleset")
            else:
                if path != own:
                    self.ruleset_choice = path
                    notes.append(f"playing the ruleset file {saved}, as the saved play state did "
                                 "(--fresh plays the map's own ruleset)")
        self.loaded = attach_rules(self.loaded)
        self.board = self.loaded.board
        return notes

    def _own_rules(self) -> Path | None:
        """The ruleset file the map itself names, resolved (None: a game, or a bad name)."""
        from game.play.ruleset_file import map_ruleset_path
        from game.rules.registry import is_file_ruleset

        written = self.loaded.board.ruleset
        if not is_file_ruleset(written) or attached_file(written) is not None:
            return None
        try:
            return map_ruleset_path(written, self.path)
        except SightlineError:
            return None

    def _start_lint(self, loaded: Any) -> None:
        if self.defer_lint:
            self.lint_run = LintRun(loaded)
            self.findings = list(getattr(loaded, "findings", []))
        else:
            self.lint_run = None
            self.findings = lint_findings(loaded)

    def lint_step(self) -> bool:
        """Advance a deferred map check by one check; True when nothing is left to run."""
        run = self.lint_run
        if run is None:
            return True
        if run.step():
            assert run.findings is not None
            self.findings = run.findings
            self.lint_run = None
            return True
        return False

    @property
    def lint_progress(self) -> tuple[int, int] | None:
        """``(checks done, checks in all)`` while a deferred map check runs, else None."""
        run = self.lint_run
        return None if run is None else (run.done, run.total)

    # --- the play state on disk -----------------------------------------------------------

    def _restore(self, found: Loaded) -> None:
        if found.message:
            self._say(found.message)
        play = found.state
        if play is None:
            return
        for note in play.apply(self.board):
            self._say(note)
        self.history = History(log=play.log)
        self.roll_log = play.roll_log
        if play.dice is not None:
            self.dice = dict(play.dice)
        elif play.dice_seed is not None:  # written before the stream was saved: the log has it
            self.dice = dice_state(play.dice_seed, self.roll_log)
        if play.selected is not None and play.selected in self.board.figures:
            self.selected = play.selected
        if play.changes_board:
            self.history.note(f"restored play state from {self.state_file.name}")

    def play_state(self) -> PlayState:
        """What play changed so far, relative to the map as drawn."""
        return PlayState.capture(
            self.original,
            self.board.state(),
            log=self.history.log,
            roll_log=self.roll_log,
            dice_seed=self.dice_seed,
            selected=self.selected,
            dice=self.dice,
            ruleset_file=None if self.ruleset_file is None else saved_name(self.ruleset_file, self.path),
        )

    # --- the dice-seed stream ------------------------------------------------------------------

    @property
    def dice_seed(self) -> int | None:
        """The master seed of the dice stream (None until the first roll)."""
        return None if self.dice is None else int(self.dice["seed"])

    def next_dice(self) -> tuple[SeededDice, dict[str, int]]:
        """The next attack's dice, seeded from the stream, and the stream's state after it.

        The stream advances only when the attack is recorded (:meth:`record_attack` with that
        state): an attack that is not made draws the same seed next time.
        """
        if self.dice is None:
            self.dice = {"seed": int(self.seed_source()), "draws": 0}
        seed, after = next_attack_seed(self.dice)
        return SeededDice(seed), after

    @property
    def repeats_undone(self) -> bool:
        """Whether the next roll repeats an undone attack's seed (the same dice again)."""
        if self.dice is None or not self.undone_seeds:
            return False
        key = self._dice_key()
        if self._peeked is None or self._peeked[0] != key:  # (the window asks every frame)
            self._peeked = (key, next_attack_seed(self.dice)[0])
        return self._peeked[1] in self.undone_seeds

    def fresh_dice(self) -> int | None:
        """Skip the stream's next seed so the next attack rolls new dice (logged, saved); returns
        the seed set aside, None when the stream has not started."""
        if self.dice is None:
            return None
        seed, after = next_attack_seed(self.dice)
        self.dice = after
        self.undone_seeds = [s for s in self.undone_seeds if s != seed]
        self._say(f"fresh dice: seed {seed} set aside, the next attack rolls new dice")
        self.save()
        return seed

    def save(self) -> bool:
        """Write the play state now (atomically); False (and a message) if the disk refuses."""
        if not self.autosave:
            return True
        try:
            save_state(self.state_file, self.play_state())
        except OSError as exc:
            if self.save_error is None:
                self._say(f"cannot autosave to {self.state_file}: {exc.strerror or exc}")
            self.save_error = str(exc)
            return False
        self.save_error = None
        return True

    def _say(self, line: str) -> None:
        self.messages.append(line)
        self.history.note(line)

    # --- changes ---------------------------------------------------------------------------

    def change(self, label: str, mutate: Callable[[Board], object]) -> bool:
        """Apply ``mutate(board)`` as one undoable, logged, autosaved action.

        Returns False (recording nothing) when the board did not change. This is the hook for
        later panels (attacks, wounds): ``session.change("Rook: 1 wound", lambda b: ...)``.
        """
        before_version = self.board.version
        before = self.board.state()
        mutate(self.board)
        if self.board.version == before_version:
            return False
        self.record(label, before)
        return True

    def record(
        self, label: str, before: BoardState, rolls_before: Sequence[dict[str, Any]] | None = None
    ) -> None:
        """Record a change already made to the board (e.g. a drag that moved a figure live).

        ``rolls_before`` is the roll log before the change when the change added to it (an
        attack); by default the log did not change.
        """
        rolls = tuple(self.roll_log if rolls_before is None else rolls_before)
        self.history.record(label, Snapshot(before, rolls, self._dice_key()), self._snapshot())
        self.save()

    def record_attack(
        self,
        label: str,
        mutate: Callable[[Board], object],
        entry: dict[str, Any],
        note: str | None = None,
    ) -> None:
        """Apply an attack's changes and append its roll-log ``entry`` as ONE undoable action.

        Undo takes back the wounds, exhausted cards and kills, the log entry and with it the
        dice stream's advance (``entry["dice"]``, the stream's state after the attack, from
        :meth:`next_dice`). ``note`` (the dice and the result) goes into the log with it.
        """
        before, rolls_before = self.board.state(), tuple(self.roll_log)
        dice_before = self._dice_key()
        mutate(self.board)
        self.roll_log.append(entry)
        if isinstance(entry.get("dice"), Mapping):
            self.dice = {"seed": int(entry["dice"]["seed"]), "draws": int(entry["dice"]["draws"])}
        rolls = tuple(rolls_before)
        self.history.record(label, Snapshot(before, rolls, dice_before), self._snapshot())
        if note:  # after the roll it belongs to: the log reads in the order things happened
            self.history.note(note)
        self.undone_seeds = []
        self.save()

    def _dice_key(self) -> tuple[tuple[str, int], ...] | None:
        return None if self.dice is None else tuple(sorted(self.dice.items()))

    def _snapshot(self) -> Snapshot:
        return Snapshot(self.board.state(), tuple(self.roll_log), self._dice_key())

    def _restore_snapshot(self, snapshot: Snapshot) -> None:
        self.board.restore(snapshot.board)
        self.roll_log = list(snapshot.rolls)
        if snapshot.dice is not None:  # (a change made before the first roll keeps the master)
            self.dice = dict(snapshot.dice)

    def move(self, figure_id: int, square: Square) -> str | None:
        """Move a figure (one undoable action); returns why the square refuses it, or None."""
        figure = self.board.figure(figure_id)
        if figure.square == square:
            return None
        reason = self.board.can_enter(figure_id, square)
        if reason is not None:
            return reason
        label = f"move {figure.label} {fmt_square(figure.square)} -> {fmt_square(square)}"
        try:
            self.change(label, lambda board: board.move_figure(figure_id, square))
        except PlacementError as exc:  # can_enter said yes; keep the board's word anyway
            return str(exc)
        return None

    def cycle_door(self, edge: Edge) -> DoorState:
        """Cycle a door closed → open → locked (one undoable action); returns the new state."""
        new = self.board.doors[edge].state.next()
        self.change(f"door {edge}: {new.value}", lambda board: board.set_door(edge, new))
        return new

    def close_all_doors(self) -> bool:
        """Close every open door (one undoable action); False when none was open."""
        return self.change("close all doors", lambda board: board.close_all_doors())

    def undo(self) -> str | None:
        """Take back the last action; returns its label, or None when there is nothing to undo."""
        action = self.history.undo(lambda left, now: outcome(left.board, now.board, "back to"))
        if action is None:
            return None
        undone = {int(e["seed"]) for e in action.after.rolls if e.get("seed") is not None}
        kept = {int(e["seed"]) for e in action.before.rolls if e.get("seed") is not None}
        self._restore_snapshot(action.before)
        self.undone_seeds = sorted({*self.undone_seeds, *(undone - kept)})
        self.save()
        return action.label

    def redo(self) -> str | None:
        """Re-apply the last undone action; returns its label, or None."""
        action = self.history.redo(lambda left, now: outcome(left.board, now.board, "now"))
        if action is None:
            return None
        self._restore_snapshot(action.after)
        self.save()
        return action.label

    # --- live reload -----------------------------------------------------------------------

    @property
    def dependencies(self) -> tuple[Path, ...]:
        """Files whose change means the map must be reloaded (the map itself first)."""
        deps = tuple(Path(p) for p in getattr(self.loaded, "dependencies", ()) or ())
        return deps if self.path in deps else (self.path, *deps)

    def reload(self) -> bool:
        """Read the map again, keeping play's changes where the objects still exist.

        On a broken file (:class:`MapError`) the last good board stays, the error is kept in
        :attr:`reload_error` and False is returned. Undo history is cleared by a reload (its
        states belong to the old map); the log says so.
        """
        try:
            loaded = self._loader(self.path, self.options)
        except MapError as exc:
            self.reload_error = exc.one_line()
            self.history.note(f"reload failed: {self.reload_error}")
            return False
        except (SightlineError, ValueError, ArithmeticError) as exc:
            # a map the loader or linter cannot take (a stat it cannot read ...): keep the last
            # good board, in the map's terms where the error has them
            what = str(exc) if isinstance(exc, SightlineError) else "a value in it cannot be read"
            self.reload_error = f"{self.path.name}: {what}; the last good board stays"
            self.history.note(f"reload failed: {self.reload_error}")
            return False
        try:
            loaded = attach_rules(loaded, self.ruleset_choice)
        except SightlineError as exc:  # the ruleset file: its own line names it
            self.reload_error = f"{exc}; the last good board and rules stay"
            self.history.note(f"reload failed: {self.reload_error}")
            return False
        play = self.play_state()
        self.loaded = loaded
        self.board = loaded.board
        self.original = self.board.state()
        for note in play.apply(self.board):
            self._say(note)
        if self.selected is not None and self.selected not in self.board.figures:
            self.selected = None
        self._start_lint(loaded)
        self.reload_error = None
        self.history.clear()
        self.history.note(f"reloaded {self.path.name} (undo history starts here)")
        self.save()
        return True
