"""The house rules: which room of ``game/`` may import what (``docs/architecture.md``).

Each room is a sub-package of ``game``. A module may import the rooms listed for its own room and
nothing else of ours; only ``ui/`` imports pygame; only ``ui/`` imports pytmx (its one job: loading
tile images, which pulls in pygame); the pure rooms touch no files, no clock and no shared random generator. The rules
are checked by :func:`violations`, which the last tests run on a planted tree to show it fails.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: room → the rooms of ours it may import ("face" = game/__init__.py, game/resources.py)
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "rules": frozenset({"core", "rules"}),
    "tiled": frozenset({"core", "tiled", "resources"}),
    "designer": frozenset({"core", "rules", "tiled", "designer", "face"}),
    "play": frozenset({"core", "rules", "tiled", "designer", "play", "resources"}),
    "ui": frozenset({"core", "rules", "tiled", "designer", "play", "ui", "resources", "face", "startup"}),
    "commands": frozenset({"core", "rules", "tiled", "designer", "play", "ui", "commands",
                           "resources", "face", "cli"}),
    "cli": frozenset({"core", "commands", "face", "startup"}),
    "startup": frozenset(),
    "resources": frozenset({"core"}),
    "face": frozenset({"core", "rules", "tiled", "play", "designer", "face", "resources"}),
    "main": frozenset({"cli"}),
}
#: rooms that must stay pure: no files, no clock, no drawing, no parser
PURE_ROOMS = frozenset({"core", "rules", "designer"})
#: what a pure module may not import
FORBIDDEN_IMPORTS = frozenset({
    "pygame", "pygame_gui", "pytmx", "time", "datetime", "os", "pathlib", "io", "tempfile",
    "shutil", "subprocess",
})
DRAWING = frozenset({"pygame", "pygame_gui"})
#: rooms that may import pytmx: the window's tile-image loading (``import pytmx`` loads pygame)
PYTMX_ROOMS = frozenset({"ui"})


@dataclass(frozen=True)
class Imported:
    """One import statement: the top-level package, our room (if ours), and its line."""

    top: str
    room: str | None
    line: int


def room_of(rel: Path) -> str:
    """The room of a module path relative to ``game/``.

    >>> room_of(Path("core/los.py")), room_of(Path("cli.py")), room_of(Path("__init__.py"))
    ('core', 'cli', 'face')
    """
    if len(rel.parts) > 1:
        return rel.parts[0]
    return {"__init__.py": "face", "__main__.py": "main"}.get(rel.name, rel.stem)


def imports_of(path: Path) -> list[Imported]:
    """Every import in a file, with the room of ``game.*`` imports (``from game import x`` → x)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[Imported] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                room = (parts[1] if len(parts) > 1 else "face") if parts[0] == "game" else None
                found.append(Imported(parts[0], room, node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "game":
                found.append(Imported(parts[0], None, node.lineno))
            elif len(parts) > 1:
                found.append(Imported("game", parts[1], node.lineno))
            else:  # from game import los → the room of game/los, else the face (__version__)
                for alias in node.names:
                    found.append(Imported("game", _room_for_name(alias.name), node.lineno))
    return found


#: names that ``from game import NAME`` may mean as rooms
_ROOMS = frozenset(ALLOWED) - {"face", "main"}


def _room_for_name(name: str) -> str:
    return name if name in _ROOMS else "face"


def _open_calls(path: Path) -> list[int]:
    """Lines calling ``open(...)`` or ``something.open(...)`` (``Path.open``, ``io.open``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "open":
                lines.append(node.lineno)
    return lines


def _unseeded_random(path: Path) -> list[int]:
    """Lines using the ``random`` module's shared, unseeded generator (anything but ``Random``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            if any(alias.name != "Random" for alias in node.names):
                lines.append(node.lineno)
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "random" and node.attr != "Random"):
            lines.append(node.lineno)
    return lines


def violations(package: Path) -> list[str]:
    """Every broken house rule under ``package`` (a ``game/`` folder), one line each."""
    problems: list[str] = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        room = room_of(rel)
        where = f"game/{rel.as_posix()}"
        allowed = ALLOWED.get(room)
        if allowed is None:
            problems.append(f"{where}: room {room!r} is not in docs/architecture.md")
            continue
        for imp in imports_of(path):
            if imp.room is not None and imp.room not in allowed:
                problems.append(f"{where}:{imp.line}: {room}/ may not import {imp.room}/")
            if imp.top in DRAWING and room != "ui":
                problems.append(f"{where}:{imp.line}: only ui/ imports {imp.top}")
            if imp.top == "pytmx" and room not in PYTMX_ROOMS:
                problems.append(f"{where}:{imp.line}: only ui/ imports pytmx")
            if room in PURE_ROOMS and imp.top in FORBIDDEN_IMPORTS:
                problems.append(f"{where}:{imp.line}: pure {room}/ may not import {imp.top}")
        if room in PURE_ROOMS:
            problems += [f"{where}:{line}: pure {room}/ calls open()" for line in _open_calls(path)]
            problems += [f"{where}:{line}: pure {room}/ uses the shared random generator"
                         for line in _unseeded_random(path)]
    return problems


def test_the_house_keeps_its_rules() -> None:
    assert violations(REPO / "game") == []


def test_every_room_exists_and_holds_modules() -> None:
    """A renamed room fails here instead of silently leaving the check."""
    for room in ("core", "rules", "tiled", "designer", "play", "ui", "commands"):
        assert list((REPO / "game" / room).glob("*.py")), room
    for game in ("arcadia", "mage_knight", "conquest", "folklore"):
        assert (REPO / "game" / "rules" / game / "ruleset.py").is_file(), game


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "game"
    for name, text in files.items():
        target = package / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return package


def test_the_check_fails_on_a_core_module_importing_tiled(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"core/board.py": "from game.tiled import load_map\n"})
    assert violations(package) == ["game/core/board.py:1: core/ may not import tiled/"]


def test_the_check_fails_on_pygame_outside_ui(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"play/session.py": "import pygame\n",
                                "ui/app.py": "import pygame\n"})
    assert violations(package) == ["game/play/session.py:1: only ui/ imports pygame"]


def test_the_check_fails_on_rules_importing_play(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"rules/arcadia/ruleset.py": "from game.play import session\n"})
    assert violations(package) == ["game/rules/arcadia/ruleset.py:1: rules/ may not import play/"]


def test_the_check_fails_on_files_clock_and_shared_random_in_pure_rooms(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"core/x.py": (
        "import os.path\nfrom datetime import date\n"
        "def f(p):\n    return open(p), p.open()\n"
        "import random\nrandom.shuffle([])\nrng = random.Random(7)\n")})
    assert violations(package) == [
        "game/core/x.py:1: pure core/ may not import os",
        "game/core/x.py:2: pure core/ may not import datetime",
        "game/core/x.py:4: pure core/ calls open()",
        "game/core/x.py:4: pure core/ calls open()",
        "game/core/x.py:6: pure core/ uses the shared random generator",
    ]


def test_the_check_fails_on_pytmx_in_the_linter_and_on_an_unknown_room(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"designer/lint.py": "import pytmx\n", "extra/x.py": ""})
    assert violations(package) == [
        "game/designer/lint.py:1: only ui/ imports pytmx",
        "game/designer/lint.py:1: pure designer/ may not import pytmx",
        "game/extra/x.py: room 'extra' is not in docs/architecture.md",
    ]


@pytest.mark.parametrize("module", ["game.commands.check", "game.commands.los", "game.commands.odds",
                                    "game.commands.attack", "game.commands.report",
                                    "game.commands.diff"])
def test_windowless_commands_do_not_import_pygame_at_module_level(module: str) -> None:
    """A command that opens no window imports no pygame (checked in a fresh interpreter)."""
    import subprocess
    import sys

    code = (f"import sys, {module}; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'pytmx'));"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", out.stdout


def test_the_check_fails_on_pytmx_in_the_reader(tmp_path: Path) -> None:
    package = _plant(tmp_path, {"tiled/reader.py": "import pytmx\n"})
    assert violations(package) == ["game/tiled/reader.py:1: only ui/ imports pytmx"]


WINDOWLESS_RUNS = [
    ["check", "maps/demo.tmx"],
    ["check", "--json", "maps"],
    ["los", "maps/demo.tmx", "4,3", "8,5"],
    ["los", "maps/demo.tmx", "4,3"],
    ["odds", "maps/demo.tmx", "Rook", "Grub"],
    ["attack", "maps/demo.tmx", "Rook", "Grub", "--seed", "1"],
    ["diff", "maps/demo.tmx", "maps/demo.tmx"],
    ["diff", "--json", "maps/demo.tmx", "maps/mage_knight.tmx"],
]
# ``report`` is not here: it draws its board pictures (PNG) with pygame, as ``render`` does; it
# imports no pygame until it draws (test_windowless_commands_do_not_import_pygame_at_module_level)


@pytest.mark.parametrize("argv", WINDOWLESS_RUNS, ids=lambda a: " ".join(a[:2]))
def test_windowless_commands_do_not_import_pygame_while_running(argv: list[str], tmp_path: Path) -> None:
    """Running a command that opens no window loads no pygame, pygame_gui or pytmx (fresh interpreter)."""
    import subprocess
    import sys

    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code = (
        "import sys\n"
        "from game.cli import main\n"
        f"try:\n    rc = main({args!r})\nexcept SystemExit as exc:\n    rc = exc.code\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pygame_gui', 'pytmx'))\n"
        "print('RC', rc, 'LOADED', ','.join(bad), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         check=False)
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("RC 0 ") or last.startswith("RC 1 "), out.stderr
    assert last.endswith("LOADED"), last


@pytest.mark.parametrize(("argv", "uses"), [
    (["los", "maps/demo.tmx", "4,3", "8,5"], {"los"}),
    (["check", "maps/demo.tmx"], {"check"}),
    (["odds", "maps/demo.tmx", "Rook", "Grub"], {"odds", "attack"}),  # odds shares attack's request builder
], ids=["los", "check", "odds"])
def test_a_command_imports_no_other_command(argv: list[str], uses: set[str]) -> None:
    """``sightline los`` imports game.commands.los (and the shared helpers), no other command's module."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from game.cli import main\n"
        f"rc = main({argv!r})\n"
        "mods = sorted(m for m in sys.modules if m.startswith('game.commands.'))\n"
        "print('RC', rc, 'MODS', ','.join(mods), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False)
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith(("RC 0 ", "RC 1 ")), out.stderr
    mods = set(last.split("MODS ", 1)[1].split(","))
    assert mods - {"game.commands._common", "game.commands.wording"} == {f"game.commands.{u}" for u in uses}, mods


# --- no import cycle ------------------------------------------------------------------------------


def module_graph(package: Path) -> dict[str, set[str]]:
    """Every module of ``package`` (a ``game/`` folder) → the modules of ours it imports, in any
    scope (a late import in a function or one under ``TYPE_CHECKING`` is an edge too): ``game.x.y``
    names the module ``x/y.py`` or the package ``x/__init__.py``."""
    modules: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = ["game", *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path

    def target(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {t for alias in node.names if (t := target(alias.name))}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.split(".")[0] == "game":
                for alias in node.names:  # from game.core import los: the module game.core.los
                    found = target(f"{node.module}.{alias.name}")
                    if found:
                        edges.add(found)
        edges.discard(name)
        graph[name] = edges
    return graph


def import_cycles(package: Path) -> list[list[str]]:
    """The groups of modules of ``package`` that import each other round a cycle (Tarjan's
    strongly connected components of :func:`module_graph` with more than one module)."""
    graph = module_graph(package)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_import_cycle_in_game() -> None:
    assert import_cycles(REPO / "game") == []


def test_the_cycle_check_finds_a_planted_cycle(tmp_path: Path) -> None:
    package = _plant(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/a.py": "from game.core.b import thing\n",
        "core/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.core import c\n",
        "core/c.py": "def late():\n    from game.core.a import thing\n",
        "core/d.py": "from game.core import a\n",
    })
    assert import_cycles(package) == [["game.core.a", "game.core.b", "game.core.c"]]



def imports_of_test_modules(root: Path) -> list[str]:
    """``file: module`` for every import of a ``test_*`` module by a module under ``root`` (the
    tests' shared helpers live in ``tests/support/``)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            hit = next((n for n in names if any(part.startswith("test_") for part in n.split("."))), None)
            if hit is not None:
                found.append(f"{path.relative_to(root)}: {hit}")
    return found


def test_no_test_module_imports_another() -> None:
    assert imports_of_test_modules(REPO / "tests") == []


def test_the_check_finds_a_test_module_importing_another(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("from tests.test_b import helper\nimport support.window\n", encoding="utf-8")
    (tmp_path / "test_c.py").write_text("def f():\n    from test_d import x\n    return x\n", encoding="utf-8")
    assert imports_of_test_modules(tmp_path) == ["test_a.py: tests.test_b", "test_c.py: test_d"]
