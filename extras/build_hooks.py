"""The wheel's build step that leaves out what ``pyproject.toml`` excludes, modules included.

setuptools applies ``[tool.setuptools.exclude-package-data]`` to data files only; a ``*.py`` file
in a package folder is shipped as a module whatever it says. The bundled data packages
(``game._bundled.maps`` is the repository's ``maps/``, ``game._bundled.assets`` its ``assets/``)
hold the scripts that generate them (``maps/make_maps.py``, ``assets/make_art.py``), which are
tools, not data: ``pyproject.toml`` names this class as ``build_py`` so its exclusion covers them.
"""

from __future__ import annotations

import fnmatch

from setuptools.command.build_py import build_py


def excluded(name: str, patterns: list[str]) -> bool:
    """Whether a module file (its name in the package folder) matches an exclusion pattern.

    >>> excluded("make_maps.py", ["*.py"]), excluded("demo.tmx", ["*.py"])
    (True, False)
    """
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


class BuildPy(build_py):
    """``build_py`` whose ``exclude-package-data`` leaves out matching modules too."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        """The package's modules, those its ``exclude-package-data`` patterns match left out."""
        modules = super().find_package_modules(package, package_dir)
        patterns = list((self.exclude_package_data or {}).get(package, []))
        return [m for m in modules if not excluded(m[2].replace("\\", "/").rsplit("/", 1)[-1], patterns)]
