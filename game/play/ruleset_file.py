"""Read a ruleset file (``docs/rulesets.md``) from disk into a rules object.

The rules themselves are pure (:mod:`game.rules.custom` takes the TOML text as a string); this is
the one place that opens the file. A missing, unreadable or non-UTF-8 file is one
:class:`~game.core.errors.UsageError` line, as is any problem inside it (the file and the line).
"""

from __future__ import annotations

from pathlib import Path

from game.core.errors import UsageError
from game.rules.custom import CustomRuleset, load_ruleset


def read_ruleset_file(path: str | Path) -> CustomRuleset:
    """The ruleset written in the file at ``path`` (errors name the path as given)."""
    shown = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{shown}: no such ruleset file (check the path)") from None
    except IsADirectoryError:
        raise UsageError(f"{shown}: is a folder, not a ruleset file (name the .toml file)") from None
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not a text file (save the ruleset as UTF-8 text)") from None
    except OSError as exc:
        raise UsageError(f"{shown}: cannot be read ({exc.strerror or 'error'})") from None
    return load_ruleset(text, shown)
