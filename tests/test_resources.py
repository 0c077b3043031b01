"""The bundled maps: found by game.resources, and shipped by pyproject.toml in a wheel.

These tests check what decides the wheel: the resource lookup, that the packages setup.py finds
(every package under game/, plus the mapped game._bundled.*) cover every subpackage, and that
pyproject's package-dir mapping and package-data globs cover every map file with the tileset's
image path still valid in the installed layout; a slow test builds the wheel and looks inside.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from game.play.lessons import LESSONS_DIR, lesson_paths
from game.play.ruleset_file import load_with_rules
from game.resources import bundled_maps
from game.rules.registry import get_ruleset
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_bundled_maps_holds_the_demo_map_and_the_lessons() -> None:
    folder = bundled_maps()
    assert (folder / "demo.tmx").is_file()
    lessons = lesson_paths()
    assert folder / "lessons" == LESSONS_DIR
    assert len(lessons) >= 30 and lessons[0].name == "L01.tmx"
    assert all(path.parent == folder / "lessons" for path in lessons)


def test_the_demo_map_loads_with_its_tileset_from_the_bundled_folder() -> None:
    loaded = load_map(bundled_maps() / "demo.tmx")
    assert loaded.board.width == 15 and loaded.board.ruleset == "arcadia"
    assert loaded.board.figures


def _source_dir(package: str) -> Path:
    """Where setuptools takes ``package`` from (package-dir mapping, else the dotted path)."""
    mapped = SETUPTOOLS.get("package-dir", {}).get(package)
    return REPO / (mapped if mapped is not None else package.replace(".", "/"))


def _installed(path: Path) -> PurePosixPath | None:
    """Where a source file lands in the wheel, or None when no package/glob ships it."""
    for package, globs in SETUPTOOLS.get("package-data", {}).items():
        root = _source_dir(package)
        shipped = {found for glob in globs for found in root.glob(glob)}  # as setuptools globs
        if path in shipped:
            return PurePosixPath(*package.split(".")) / path.relative_to(root).as_posix()
    return None


def _packages_on_disk() -> set[str]:
    return {
        ".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "game").rglob("__init__.py")
    }


def test_every_subpackage_of_game_is_listed_for_the_wheel(wheel_packages: list[str]) -> None:
    on_disk = _packages_on_disk()
    assert on_disk <= set(wheel_packages)
    assert set(SETUPTOOLS["package-dir"]) <= set(wheel_packages)  # the bundled data packages
    for package in wheel_packages:
        assert _source_dir(package).is_dir(), package


@pytest.mark.slow
def test_the_built_wheel_holds_every_package_and_the_bundled_files(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    for folder in ("game", "maps", "assets", "extras"):
        shutil.copytree(REPO / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.sightline.json"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w",
         str(tmp_path / "dist")], capture_output=True, text=True, check=False)
    if built.returncode and ("Could not find a version" in built.stderr
                             or "No matching distribution" in built.stderr):
        pytest.skip("pip cannot fetch the build requirements here (setuptools, wheel)")
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("sightline-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in _packages_on_disk():
        assert f"{package.replace('.', '/')}/__init__.py" in names, package
    assert {"game/_bundled/maps/demo.tmx", "game/_bundled/maps/lessons/L01.tmx",
            "game/_bundled/maps/tiles/street.tsx", "game/_bundled/assets/tiles/street.png",
            "game/_bundled/tiled/sightline.js", "game/_bundled/maps/skirmish.tmx",
            "game/_bundled/maps/skirmish.toml"} <= names
    # the installed skirmish map still finds its ruleset file beside it (file:skirmish.toml)
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    loaded = load_with_rules(installed / "game" / "_bundled" / "maps" / "skirmish.tmx")
    assert get_ruleset(loaded.board.ruleset).title == "Lantern Skirmish"


def test_every_bundled_map_file_is_package_data() -> None:
    files = [p for p in (REPO / "maps").rglob("*") if p.is_file() and p.suffix in {".tmx", ".tsx", ".toml"}]
    assert REPO / "maps" / "skirmish.toml" in files  # the ruleset file skirmish.tmx names
    assert len(files) > 40
    missing = [str(p.relative_to(REPO)) for p in files if _installed(p) is None]
    assert missing == []
    assert _installed(REPO / "maps" / "make_maps.py") is None  # scripts are not data


def test_the_tileset_image_path_holds_in_the_installed_layout() -> None:
    tileset = REPO / "maps" / "tiles" / "street.tsx"
    source = ET.parse(tileset).getroot().find("image").get("source")  # type: ignore[union-attr]
    installed_tsx = _installed(tileset)
    assert installed_tsx is not None
    # resolve ../.. inside the wheel, then find the source file shipped there
    parts: list[str] = []
    for part in (installed_tsx.parent / source).parts:
        if part == "..":
            parts.pop()
        else:
            parts.append(part)
    target = PurePosixPath(*parts)
    image = (tileset.parent / source).resolve()
    assert image.is_file()
    assert _installed(image) == target
