"""The wheel ships the bundled maps and art, not the scripts that generate them (issue #22).

setuptools applies ``exclude-package-data`` to data files only, so ``pyproject.toml`` names a
``build_py`` (``extras/build_hooks.py``) that leaves out excluded modules too. A fast test reads
the configuration; a slow one builds the wheel from a clean copy and looks inside.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
SCRIPTS = {"game._bundled.maps": REPO / "maps" / "make_maps.py",
           "game._bundled.assets": REPO / "assets" / "make_art.py"}


def test_the_build_step_leaves_out_the_generator_scripts() -> None:
    assert CONFIG["cmdclass"]["build_py"] == "extras.build_hooks.BuildPy"
    spec = importlib.util.spec_from_file_location("build_hooks", REPO / "extras" / "build_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    for package, script in SCRIPTS.items():
        assert script.is_file()
        assert CONFIG["package-dir"][package] == script.parent.name
        assert hooks.excluded(script.name, CONFIG["exclude-package-data"][package])
    assert not hooks.excluded("demo.tmx", CONFIG["exclude-package-data"]["game._bundled.maps"])


@pytest.mark.slow
def test_the_built_wheel_has_no_generator_scripts(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "setup.py"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, source / name)
    for folder in ("game", "maps", "assets", "extras"):
        shutil.copytree(REPO / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.sightline.json"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path / "dist")],
        capture_output=True, text=True, check=False)
    if built.returncode and ("Could not find a version" in built.stderr
                             or "No matching distribution" in built.stderr):
        pytest.skip("pip cannot fetch the build requirements here (setuptools, wheel)")
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("sightline-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not {n for n in names if n.rsplit("/", 1)[-1] in ("make_maps.py", "make_art.py", "build_hooks.py")}
    assert {"game/_bundled/maps/demo.tmx", "game/_bundled/assets/tiles/street.png"} <= names
