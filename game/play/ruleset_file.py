"""Read a ruleset file (``docs/rulesets.md``) from disk into a rules object.

The rules themselves are pure (:mod:`game.rules.custom` takes the TOML text as a string); this is
the one place that opens the file (a regular file of at most 1 MiB: a pipe or a device is never
opened, :func:`game.tiled.files.read_regular_file`). A missing, unreadable or non-UTF-8 file is one
:class:`~game.core.errors.UsageError` line, as is any problem inside it (the file and the line;
a TOML syntax error in our words, :mod:`game.core.safe_toml`).
"""

from __future__ import annotations

from pathlib import Path

from game.core import safe_toml
from game.core.errors import UsageError
from game.rules.custom import CustomRuleset, load_ruleset
from game.tiled.files import FileRefused, read_regular_file

#: the largest ruleset file read (the built-in ones are a few KB)
MAX_RULESET_BYTES = 1024 * 1024


def read_ruleset_file(path: str | Path) -> CustomRuleset:
    """The ruleset written in the file at ``path`` (errors name the path as given)."""
    shown = str(path)
    try:
        text = read_regular_file(Path(path), MAX_RULESET_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{shown}: no such ruleset file (check the path)") from None
    except FileRefused as exc:
        if exc.kind == "a folder":
            raise UsageError(f"{shown}: is a folder, not a ruleset file (name the .toml file)") from None
        raise UsageError(f"{shown}: cannot be read ({exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not a text file (save the ruleset as UTF-8 text)") from None
    try:  # TOML's own faults in our words first (tomllib's texts, 4,300-digit numbers, deep lists)
        safe_toml.loads(text)
    except safe_toml.TomlError as exc:
        line = f":{exc.line}" if exc.line is not None else ""
        raise UsageError(f"{shown}{line}: not valid TOML: {exc.problem}"
                         + (f" (fix the syntax at column {exc.column})" if exc.column else "")) from None
    return load_ruleset(text, shown)
