"""Ruleset files (``docs/rulesets.md``) on disk: read one, and make a map play it.

The rules themselves are pure (:mod:`game.rules.custom` takes the TOML text as a string); this is
the one place that opens the file (:func:`game.tiled.files.read_regular_file`). A map names its file with the map property
``ruleset = "file:skirmish.toml"`` (a path relative to the map, which must stay in the map's
folder or below it: a shared map cannot make Sightline read files elsewhere); the command line's
``--ruleset-file PATH`` names any file and wins over the map's ruleset. :func:`attach_rules`
reads the file, registers what it read in the ruleset registry under the file's ``file:`` name
(:func:`game.rules.registry.file_ruleset_name`: its resolved path, so one file is one name) and
gives the board that name, so everything that asks the registry for the board's ruleset plays
the file. The file becomes one of the map's dependencies: the window reloads when it is saved.

Every problem is one :class:`~game.core.errors.UsageError` line: a missing file, a folder, a pipe
or device, a file too large or not UTF-8 text, a path outside the map's folder, and anything
wrong inside the file (the file and the line; a TOML syntax error in our words,
:mod:`game.core.safe_toml`).

>>> from game.resources import bundled_maps
>>> folder = bundled_maps()
>>> read_ruleset_file(folder / "skirmish.toml").title
'Lantern Skirmish'
>>> map_ruleset_path("file:skirmish.toml", folder / "skirmish.tmx") == folder.resolve() / "skirmish.toml"
True
>>> map_ruleset_path("file:../skirmish.toml", folder / "lessons" / "L01.tmx")
Traceback (most recent call last):
...
game.core.errors.UsageError: the map property ruleset = 'file:../skirmish.toml' points outside the map's folder (put the ruleset file beside the map, or in a folder below it)
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from game.core import safe_toml
from game.core.board import Board
from game.core.errors import UsageError
from game.rules.base import Ruleset
from game.rules.registry import (
    FILE_PREFIX,
    file_ruleset_name,
    get_ruleset,
    is_file_ruleset,
    register_ruleset,
)
from game.tiled.files import FileRefused, read_regular_file

if TYPE_CHECKING:
    from game.rules.custom import CustomRuleset
    from game.tiled import LoadedMap

#: the largest ruleset file read (a real one is a few kilobytes)
MAX_BYTES = 1_000_000


def read_ruleset_file(path: str | Path, shown: str | None = None) -> CustomRuleset:
    """The ruleset written in the file at ``path``; errors name it as ``shown`` (default: the
    path as given).

    Only a regular file is read: a folder, a pipe (which would wait for a writer for ever) or a
    device is refused before anything is read, and so is a file over :data:`MAX_BYTES`.
    """
    shown = str(path) if shown is None else shown
    try:
        data = read_regular_file(Path(path), MAX_BYTES)
    except FileNotFoundError:
        raise UsageError(f"{shown}: no such ruleset file (check the path)") from None
    except FileRefused as exc:
        if exc.kind == "a folder":
            raise UsageError(f"{shown}: is a folder, not a ruleset file (name the .toml file)") from None
        if exc.kind:  # a pipe would wait for a writer for ever; a device never ends
            raise UsageError(f"{shown}: is not a regular file (a pipe or a device); name the .toml "
                             "file itself") from None
        if exc.size is not None:
            raise UsageError(f"{shown}: is larger than {MAX_BYTES // 1000} kB, too large for a "
                             "ruleset file (name the .toml file)") from None
        raise UsageError(f"{shown}: cannot be read ({exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not a text file (save the ruleset as UTF-8 text)") from None
    try:  # TOML's own faults in our words first (tomllib's texts, 4,300-digit numbers, deep lists)
        safe_toml.loads(text)
    except safe_toml.TomlError as exc:
        line = f":{exc.line}" if exc.line is not None else ""
        raise UsageError(f"{shown}{line}: not valid TOML: {exc.problem}"
                         + (f" (fix the syntax at column {exc.column})" if exc.column else "")) from None
    from game.rules.custom import (
        load_ruleset,  # the format's engine: loaded by the first ruleset file
    )

    return load_ruleset(text, shown)


def map_ruleset_path(written: str, map_path: str | Path) -> Path:
    """The file a map's ``ruleset = "file:..."`` names: relative to the map's folder, and
    inside it (or a folder below it) once links are followed; UsageError otherwise."""
    relative = written.strip()[len(FILE_PREFIX):].strip()
    if not relative:
        raise UsageError(f"the map property ruleset = {written!r} names no file (write "
                         "file:NAME.toml, the ruleset file beside the map)")
    folder = Path(map_path).parent.resolve()
    target = (folder / relative).resolve()
    if not target.is_relative_to(folder):
        raise UsageError(f"the map property ruleset = {written!r} points outside the map's folder "
                         "(put the ruleset file beside the map, or in a folder below it)")
    return target


def saved_name(path: Path, map_path: str | Path) -> str:
    """How the play state records the ruleset file ``path``: relative to the map's folder
    (``/``-separated) when inside it, else absolute.

    >>> saved_name(Path("/maps/rules/skirmish.toml"), "/maps/m.tmx")
    'rules/skirmish.toml'
    """
    folder = Path(map_path).parent.resolve()
    try:
        return path.resolve().relative_to(folder).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def saved_path(name: str, map_path: str | Path) -> Path:
    """The file a play state's ``ruleset_file`` names (:func:`saved_name` the other way)."""
    return (Path(map_path).parent / name).resolve()


def attached_file(board_ruleset: str) -> Path | None:
    """The ruleset file a board plays once :func:`attach_rules` gave it a file (else None)."""
    if not is_file_ruleset(board_ruleset):
        return None
    try:
        get_ruleset(board_ruleset)
    except UsageError:
        return None
    return Path(board_ruleset.strip()[len(FILE_PREFIX):])


def attach_rules(loaded: LoadedMap, ruleset_file: str | Path | None = None) -> LoadedMap:
    """Make the loaded map play a ruleset file: ``ruleset_file`` when given (``--ruleset-file``),
    else the file its ``ruleset`` property names; a map that names a built-in ruleset comes back
    as it is. The file is read (errors: one UsageError line), registered, given to the board,
    and added to the map's dependencies (returned as a new :class:`LoadedMap`).
    """
    board = loaded.board
    if ruleset_file is not None:
        path, shown = Path(ruleset_file), str(ruleset_file)
    elif attached_file(board.ruleset) is not None:
        return loaded  # read already (a session handed a map opened with its rules)
    elif is_file_ruleset(board.ruleset):
        path = map_ruleset_path(board.ruleset, loaded.path)
        shown = str(Path(loaded.path).parent / board.ruleset.strip()[len(FILE_PREFIX):].strip())
    else:
        return loaded
    return attach_file(loaded, path, shown)


def attach_file(loaded: LoadedMap, path: Path, shown: str) -> LoadedMap:
    """Read the ruleset file ``path`` (errors name it ``shown``) and make the loaded map play it
    (see :func:`attach_rules`)."""
    rules = read_ruleset_file(path, shown)
    resolved = path.resolve()
    use_rules(loaded.board, resolved, rules)
    deps = tuple(loaded.dependencies)
    return replace(loaded, dependencies=deps if resolved in deps else (*deps, resolved))


def use_rules(board: Board, path: Path, rules: Ruleset) -> str:
    """Register ``rules`` (read from ``path``) under the file's name and give the board that
    name; returns the name."""
    name = file_ruleset_name(path.resolve().as_posix())
    register_ruleset(name, rules)
    board.ruleset = name
    return name


def load_with_rules(path: str | Path, ruleset_file: str | Path | None = None,
                    **options: object) -> LoadedMap:
    """``game.tiled.load_map(path, **options)`` with its ruleset file attached
    (:func:`attach_rules`): what every command that plays a map reads it with."""
    from game.tiled import load_map

    return attach_rules(load_map(path, **options), ruleset_file)  # type: ignore[arg-type]
