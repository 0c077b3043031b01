"""``sightline tiled install [--dir D]``: put the Sightline extension into Tiled.

The extension (``extras/tiled/sightline.js`` in the repository, ``game/_bundled/tiled`` in a
wheel) checks every map Tiled saves with ``sightline check --json`` and posts the findings to
Tiled's Issues view (docs/designers.md, "Sightline inside Tiled"). Installing copies it into
Tiled's extensions folder with the absolute path of this ``sightline`` program written into the
copy, so Tiled finds the program even when it is not on Tiled's PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

from game.core.errors import SightlineError, UsageError
from game.play.atomic import write_atomic

EXTENSION = "sightline.js"
#: the line of the extension that ``install`` rewrites with the program's path
PROGRAM_LINE = re.compile(r'^var SIGHTLINE_PROGRAM = ".*";  // sightline-program$', re.MULTILINE)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline tiled``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install",
        help="copy the Sightline extension into Tiled's extensions folder",
        description="Copy the Sightline extension into Tiled's extensions folder (checks every "
                    "saved map, adds three actions to the Map menu).",
    )
    install.add_argument("--dir", metavar="D", default=None,
                         help="the extensions folder (default: the one Tiled uses on this system)")


def default_extensions_dir(platform: str, env: Mapping[str, str], home: Path) -> Path:
    """Tiled's own extensions folder (``tiled.extensionsPath``) on ``platform`` (a ``sys.platform``).

    >>> default_extensions_dir("linux", {}, Path("/home/ann")).as_posix()
    '/home/ann/.config/tiled/extensions'
    >>> default_extensions_dir("linux", {"XDG_CONFIG_HOME": "/cfg"}, Path("/home/ann")).as_posix()
    '/cfg/tiled/extensions'
    >>> default_extensions_dir("darwin", {}, Path("/Users/ann")).as_posix()
    '/Users/ann/Library/Preferences/Tiled/extensions'
    >>> default_extensions_dir("win32", {"LOCALAPPDATA": "C:/Users/ann/AppData/Local"}, Path("C:/Users/ann")).as_posix()
    'C:/Users/ann/AppData/Local/Tiled/extensions'
    """
    if platform.startswith("win"):
        local = env.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return Path(local) / "Tiled" / "extensions"
    if platform == "darwin":
        return home / "Library" / "Preferences" / "Tiled" / "extensions"
    config = env.get("XDG_CONFIG_HOME") or str(home / ".config")
    return Path(config) / "tiled" / "extensions"


def bundled_extension() -> Path:
    """The extension shipped with this install: the wheel's copy, else the source checkout's."""
    package = files("game")
    if isinstance(package, Path):
        for candidate in (package / "_bundled" / "tiled" / EXTENSION,
                          package.parent / "extras" / "tiled" / EXTENSION):
            if candidate.is_file():
                return candidate
    raise SightlineError(
        f"the Tiled extension {EXTENSION} is missing from this install "
        "(reinstall Sightline: pip install --force-reinstall sightline)"
    )


def own_program() -> Path | None:
    """The ``sightline`` executable running now (the console script), or the one on PATH."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.stem.lower() == "sightline" and started.is_file():
        return started.absolute()
    for name in ("sightline", "sightline.exe"):
        beside = Path(sys.executable).parent / name
        if beside.is_file():
            return beside.absolute()
    found = shutil.which("sightline")
    return Path(found).absolute() if found else None


def with_program(source: str, program: Path | None) -> str:
    """The extension's text with ``SIGHTLINE_PROGRAM`` set to ``program`` (empty: look on PATH).

    >>> text = 'a\\nvar SIGHTLINE_PROGRAM = "";  // sightline-program\\nb'
    >>> with_program(text, Path("/opt/bin/sightline")).splitlines()[1]
    'var SIGHTLINE_PROGRAM = "/opt/bin/sightline";  // sightline-program'
    >>> with_program("no marker", None)
    Traceback (most recent call last):
    ...
    game.core.errors.SightlineError: the bundled sightline.js has no SIGHTLINE_PROGRAM line (reinstall Sightline)
    """
    value = json.dumps(str(program) if program is not None else "")
    replaced, count = PROGRAM_LINE.subn(
        lambda _: f"var SIGHTLINE_PROGRAM = {value};  // sightline-program", source, count=1
    )
    if count != 1:
        raise SightlineError(f"the bundled {EXTENSION} has no SIGHTLINE_PROGRAM line (reinstall Sightline)")
    return replaced


def install(folder: Path, program: Path | None) -> Path:
    """Write the extension, with ``program`` in it, into ``folder`` (created if missing)."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--dir {folder} is a file, not a folder (name the extensions folder)")
    source = bundled_extension().read_text(encoding="utf-8")
    return write_atomic(folder / EXTENSION, with_program(source, program), parents=True)


def run(args: argparse.Namespace) -> int:
    """``sightline tiled install``: copy the extension and say where it went."""
    if args.dir is not None:
        folder = Path(args.dir).expanduser().absolute()
    else:
        folder = default_extensions_dir(sys.platform, os.environ, Path.home())
    program = own_program()
    target = install(folder, program)
    print(f"installed the Sightline extension for Tiled: {target}")
    if program is not None:
        print(f"it runs {program}")
    else:
        print("it looks for sightline on PATH (no sightline executable was found for this install)")
    print("Tiled picks it up at its next start (a running Tiled reloads changed extensions); "
          "every saved map is then checked, and the Map menu has the Sightline actions")
    return 0
