"""Packaging: every package under ``game/`` is found, plus the bundled data packages that
``pyproject.toml`` maps onto ``maps/``, ``assets/`` and ``extras/tiled`` (its ``package-dir``).
Everything else about the build is in ``pyproject.toml``."""

import tomllib
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent


def packages() -> list[str]:
    """``game`` and its subpackages as found on disk, then the mapped ``game._bundled.*``."""
    config = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
    mapped = config["tool"]["setuptools"]["package-dir"]
    return [*find_packages(where=str(HERE), include=["game", "game.*"]), *mapped]


if __name__ == "__main__":
    setup(packages=packages())
