"""``sightline check MAP... [--json] [--format text|json|github] [--strict] [--classes ...] [--suggest [--write]]``.

The map linter on the command line (docs/commands.md). Arguments may be folders: every Tiled map
under them (``*.tmx``, ``*.tmj``, and ``*.json`` files that are Tiled maps) is checked, in sorted
order. Exit code 0 when clean, 1 when errors were found, 2 when any map could not be read (the
others are still reported). Findings of one kind that repeat are shown as one line with a count
and where the others are (text and GitHub output; ``--json`` keeps every finding). Notes say how
something was read (a layer's role taken from its name ...) and never fail a check.

``--suggest`` prints, for each map, the ``sightline.toml`` that reads it best and how sure that
is (:mod:`game.tiled.suggest`); ``--write`` writes it beside the map (never over an existing one).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from game.commands._common import add_map_options, add_ruleset_file_option, map_options
from game.core.board import Board
from game.core.errors import SightlineError, UsageError
from game.core.findings import Finding, Severity
from game.core.words import plural

if TYPE_CHECKING:
    from game.designer.lint import FindingGroup
    from game.tiled import LoadedMap

FORMATS = ("text", "json", "github")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline check``."""
    parser.add_argument("maps", nargs="+", metavar="MAP",
                        help="a map (Tiled .tmx, .tmj or .json, infinite maps and zstd layers too; "
                        "Universal VTT; a Foundry scene), or a folder to search for them")
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="text (default), json (docs/commands.md) or github (workflow annotations)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--suggest", action="store_true",
                        help="print the sightline.toml that reads each map best, and how sure that is")
    parser.add_argument("--write", action="store_true",
                        help="with --suggest: write that sightline.toml beside the map (never over one)")
    parser.add_argument("--classes", metavar="MAPPING", default=None,
                        help="map your class names onto ours, e.g. wall=collision-line,blocked=collision")
    add_map_options(parser)
    add_ruleset_file_option(parser)
    from game.commands._common import add_rule_option

    add_rule_option(parser)


@dataclass
class MapResult:
    """The outcome for one map: findings, or why it could not be read."""

    path: Path
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, object] = field(default_factory=dict)
    error: str | None = None
    #: a virtual-tabletop map's objects by id: where each is in the file (``portals[2]``)
    sources: dict[int, str] = field(default_factory=dict)
    #: what one cell of the board is called in messages (the grid's noun)
    cell: str = "square"

    @property
    def errors(self) -> list[Finding]:
        """Error findings."""
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Finding]:
        """Warning findings."""
        return [f for f in self.findings if f.severity is Severity.WARNING]

    @property
    def notes(self) -> list[Finding]:
        """Notes: how something was read, for the designer to confirm."""
        return [f for f in self.findings if f.severity is Severity.NOTE]

    def as_json(self) -> dict[str, object]:
        """``{"path", "errors", "warnings", "notes", "stats"}`` (+ ``"error"`` when unreadable)."""
        doc: dict[str, object] = {
            "path": str(self.path),
            "errors": [f.as_json() for f in self.errors],
            "warnings": [f.as_json() for f in self.warnings],
            "notes": [f.as_json() for f in self.notes],
            "stats": self.stats,
        }
        if self.error is not None:
            doc["error"] = self.error
        return doc


def expand(arguments: list[str]) -> list[Path | tuple[Path, str]]:
    """Map paths to check: files as given, folders searched recursively for every map format
    (``*.tmx``, ``*.tmj``, ``*.dd2vtt``, ``*.uvtt``, ``*.df2vtt``, and ``*.json`` files that are
    Tiled maps or Foundry scenes; sorted).

    A folder with no map in it comes back as ``(folder, reason)``.
    """
    out: list[Path | tuple[Path, str]] = []
    for text in arguments:
        path = Path(text)
        if path.is_dir():
            found, unreadable = _walk(path)
            if not found and not unreadable:
                out.append((path, f"{path}: no .tmx maps in this folder (nor .tmj, Tiled .json, Universal VTT "
                                   "or Foundry scene maps)"))
            out.extend(found)
            out.extend(unreadable)
        else:
            out.append(path)
    return out


def _walk(folder: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Every map file (:func:`~game.tiled.is_map_file`) under ``folder`` (sorted), and the subfolders that cannot be read
    (each with its one-line reason: they are reported, not skipped silently)."""
    found: list[Path] = []
    unreadable: list[tuple[Path, str]] = []

    def refused(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else folder
        reason = exc.strerror or type(exc).__name__
        unreadable.append((where, f"{where}: cannot read this folder ({reason}); its maps were not checked"))

    from game.tiled import is_map_file

    for root, dirs, files in os.walk(folder, onerror=refused):
        dirs.sort()
        found.extend(p for p in (Path(root) / name for name in files) if is_map_file(p))
    return sorted(found), sorted(unreadable)


def _rule_findings(board: Board) -> list[Finding]:
    """An error for a map property ``los_rule`` that names no rule (docs/line-of-sight.md)."""
    from game.core import sight

    try:
        sight.rule_of(board)
    except SightlineError as exc:
        presets = ", ".join(sight.RULE_BOOKS[board.grid.kind].presets) if board.grid.kind in sight.RULE_BOOKS else ""
        return [Finding("los-rule", Severity.ERROR, str(exc), hint=f"write a preset ({presets}), e.g. corners,figures=none")]
    return []


def check_one(path: Path, *, strict: bool, options: dict[str, Any] | None = None,
              ruleset_file: str | None = None) -> MapResult:
    """Load and lint one map (with its ruleset file, or ``ruleset_file``: the figures are
    checked against that file's stats and attacks); an unreadable map becomes a result with
    ``error`` set."""
    from game.designer.lint import lint
    from game.play.ruleset_file import load_with_rules

    try:
        loaded = load_with_rules(path, ruleset_file, **(options or {}))
        findings = lint(loaded, strict=strict)
    except SightlineError as exc:
        line = str(exc)
        if str(path) not in line:
            line = f"{path}: {line}"
        return MapResult(path, error=line)
    except Exception:  # noqa: BLE001 - never abort a folder check at one map: the others are still reported
        if os.environ.get("SIGHTLINE_DEBUG"):
            raise
        return MapResult(path, error=f"{path}: this map could not be checked: an internal error of "
                                     "Sightline (please report it with the map; SIGHTLINE_DEBUG=1 shows where)")
    board = loaded.board
    findings = [*findings, *_rule_findings(board)]
    stats: dict[str, object] = dict(loaded.stats)
    stats.update(width=board.width, height=board.height)
    return MapResult(path, findings, stats, sources=_sources(loaded), cell=board.grid.noun)


def _sources(loaded: LoadedMap) -> dict[int, str]:
    """Where a virtual-tabletop map's objects are in its file (their names); {} for Tiled maps,
    whose objects Tiled shows by id."""
    if not hasattr(loaded.art, "drawing"):  # a VttArt (game/tiled/vtt_records.py), without importing it
        return {}
    return {oid: obj.name for oid, obj in loaded.objects.items() if obj.name}


def object_lines(path: Path) -> dict[int, int]:
    """Line numbers of ``<object id="N"`` in a TMX file, for editor-friendly annotations."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    lines: dict[int, int] = {}
    for match in re.finditer(r'<object\b[^>]*?\bid="(\d+)"', text):
        lines.setdefault(int(match.group(1)), text.count("\n", 0, match.start()) + 1)
    return lines


def text_line(path: Path, finding: Finding, sources: dict[int, str] | None = None) -> str:
    """``MAP:object 12 (3,4): error: message (hint)``; ``sources`` names objects in a
    virtual-tabletop file (``object 3 [portals[0]]``).

    >>> from game.core.findings import Finding, Severity
    >>> text_line(Path("m.tmx"), Finding("x", Severity.ERROR, "bad", 12, (3, 4), "fix it"))
    'm.tmx:object 12 (3,4): error: bad (fix it)'
    >>> text_line(Path("m.dd2vtt"), Finding("x", Severity.ERROR, "bad", 3), {3: "portals[0]"})
    'm.dd2vtt:object 3 [portals[0]]: error: bad'
    """
    place = []
    message = finding.message
    if finding.object_id is not None:
        source = (sources or {}).get(finding.object_id)
        place.append(f"object {finding.object_id}" + (f" [{source}]" if source else ""))
        if source:
            message = message.removeprefix(f"{source}: ")
    if finding.square is not None:
        place.append(f"({finding.square[0]},{finding.square[1]})")
    where = f"{path}:{' '.join(place)}" if place else str(path)
    hint = f" ({finding.hint})" if finding.hint else ""
    return f"{where}: {finding.severity.value}: {message}{hint}"


def group_line(path: Path, group: FindingGroup, sources: dict[int, str] | None = None) -> str:
    """One text line for a group of findings of one kind: the first, the count, where the others are.

    >>> from game.designer.lint import FindingGroup
    >>> g = FindingGroup(tuple(Finding("x", Severity.WARNING, "bad", i, None, "fix") for i in (3, 4, 5)))
    >>> group_line(Path("m.tmx"), g)
    'm.tmx:object 3: warning: bad (fix) [x: 3 like it; also objects 4, 5]'
    """
    first = text_line(path, group.first, sources)
    return f"{first} [{group.first.code}: {group.count} like it; also {group.others()}]"


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(path: Path, finding: Finding, lines: dict[int, int]) -> str:
    """A GitHub Actions workflow command: ``::error file=MAP,title=CODE::message``.

    >>> from game.core.findings import Finding, Severity
    >>> github_line(Path("m.tmx"), Finding("door-on-border", Severity.WARNING, "door V(0,1)", 7), {7: 12})
    '::warning file=m.tmx,line=12,title=door-on-border::object 7: door V(0,1)'
    """
    level = {Severity.ERROR: "error", Severity.NOTE: "notice"}.get(finding.severity, "warning")
    props = f"file={_gh_escape(str(path), prop=True)}"
    if finding.object_id is not None and finding.object_id in lines:
        props += f",line={lines[finding.object_id]}"
    props += f",title={_gh_escape(finding.code, prop=True)}"
    where = []
    if finding.object_id is not None:
        where.append(f"object {finding.object_id}")
    if finding.square is not None:
        where.append(f"({finding.square[0]},{finding.square[1]})")
    message = (" ".join(where) + ": " if where else "") + finding.message
    if finding.hint:
        message += f" ({finding.hint})"
    return f"::{level} {props}::{_gh_escape(message)}"


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal and there are many maps."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total > 1 and bool(getattr(stream, "isatty", lambda: False)())

    def show(self, done: int, label: str) -> None:
        """Draw the bar after ``done`` maps, naming the current one."""
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(1, self.total)
        name = label[-40:]
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {name:<40}")
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()


def summary(results: list[MapResult]) -> str:
    """``checked 3 maps: 2 errors, 1 warning, 1 unreadable`` (notes last: a clean map may have some).

    >>> summary([MapResult(Path("a.tmx"))])
    'checked 1 map: clean'
    """
    errors = sum(len(r.errors) for r in results)
    warnings = sum(len(r.warnings) for r in results)
    notes = sum(len(r.notes) for r in results)
    unreadable = sum(1 for r in results if r.error is not None)
    parts = []
    if errors:
        parts.append(plural(errors, "error"))
    if warnings:
        parts.append(plural(warnings, "warning"))
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    text = f"checked {plural(len(results), 'map')}: {', '.join(parts) if parts else 'clean'}"
    return text + (f" ({plural(notes, 'note')})" if notes else "")


def run(args: argparse.Namespace) -> int:
    """Check every map; print text, JSON or GitHub annotations; return 0, 1 or 2."""
    fmt = args.format or ("json" if args.json else "text")
    if args.json and fmt != "json":
        raise UsageError(f"--json and --format {fmt} contradict each other: pick one")
    if args.write and not args.suggest:
        raise UsageError("--write writes what --suggest proposes: add --suggest")
    options = map_options(args)
    if args.suggest:
        return run_suggest(args, fmt)
    from game.designer.lint import group_findings

    if args.rule is not None:
        from game.core.profiles import parse_rule

        try:
            parse_rule(args.rule)
        except UsageError as exc:
            raise UsageError(f"--rule: {exc}") from None
    ruleset_file = getattr(args, "ruleset_file", None)
    if ruleset_file is not None:
        from game.play.ruleset_file import read_ruleset_file

        read_ruleset_file(ruleset_file)  # a file that cannot be used: one line before any map
    targets = expand(args.maps)
    progress = Progress(len(targets))
    results: list[MapResult] = []
    for i, target in enumerate(targets):
        if isinstance(target, tuple):
            results.append(MapResult(target[0], error=target[1]))
            continue
        progress.show(i, str(target))
        results.append(check_one(target, strict=args.strict, options=options,
                                 ruleset_file=ruleset_file))
    progress.show(len(targets), "")
    progress.close()
    if fmt == "json":
        print(json.dumps({"maps": [r.as_json() for r in results]}, indent=2))
    else:
        for result in results:
            if result.error is not None:
                if fmt == "github":
                    props = f"file={_gh_escape(str(result.path), prop=True)},title=map-unreadable"
                    print(f"::error {props}::{_gh_escape(result.error)}")
                else:
                    print(f"sightline check: {result.error}", file=sys.stderr)
                continue
            lines = object_lines(result.path) if fmt == "github" else {}
            for item in group_findings(result.findings, cell=result.cell):
                if not isinstance(item, Finding):
                    if fmt == "github":
                        grouped = replace(item.first, message=f"{item.first.message} [{item.count} like it; "
                                          f"also {item.others()}]")
                        print(github_line(result.path, grouped, lines))
                    else:
                        print(group_line(result.path, item, result.sources))
                elif fmt == "github":
                    print(github_line(result.path, item, lines))
                else:
                    print(text_line(result.path, item, result.sources))
        print(summary(results))
    if any(r.error is not None for r in results):
        return 2
    return 1 if any(r.errors for r in results) else 0


def run_suggest(args: argparse.Namespace, fmt: str) -> int:
    """``--suggest`` (and ``--write``): the ``sightline.toml`` that reads each map best; 2 when a
    map cannot be read or a file cannot be written."""
    from game.tiled.suggest import suggest

    targets = expand(args.maps)
    docs: list[dict[str, object]] = []
    status = 0
    for target in targets:
        if isinstance(target, tuple):
            print(f"sightline check: {target[1]}", file=sys.stderr)
            status = 2
            continue
        try:
            found = suggest(target)
        except SightlineError as exc:
            line = str(exc) if str(target) in str(exc) else f"{target}: {exc}"
            print(f"sightline check: {line}", file=sys.stderr)
            status = 2
            continue
        written = _write_suggestion(target, found.toml()) if args.write else None
        if fmt == "json":
            docs.append({"path": str(target), "suggestion": found.table, "confidence": found.confidence,
                         "toml": found.toml(), "written": written})
        else:
            print(found.toml(), end="")
            if written:
                print(f"# written to {written}")
        if args.write and written is None:
            status = 2
    if fmt == "json":
        print(json.dumps({"suggestions": docs}, indent=2))
    return status


def _write_suggestion(path: Path, text: str) -> str | None:
    """Write a suggested ``sightline.toml`` beside a map; None (with a line on stderr) when one is
    there already (merge by hand: it also reads the other maps of the folder) or cannot be written."""
    from game.play.atomic import cannot_write

    target = path.parent / "sightline.toml"
    if target.exists():
        if target.read_text(encoding="utf-8", errors="replace") == text:
            return str(target)
        print(f"sightline check: {target} exists already; merge the suggestion above into it by hand "
              "(it reads every map of its folder)", file=sys.stderr)
        return None
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"sightline check: {cannot_write(target, exc)}", file=sys.stderr)
        return None
    return str(target)
