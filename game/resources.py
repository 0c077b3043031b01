"""Where the bundled maps are, for every way Sightline can be installed.

The repository keeps the maps in ``maps/`` (``demo.tmx``, ``lessons/``, ``tiles/street.tsx``) and
the tile image in ``assets/tiles/street.png``, beside the ``game`` package. A wheel
(``pip install .``) carries both folders inside the package as ``game/_bundled/maps`` and
``game/_bundled/assets`` (``pyproject.toml`` maps them), so the tileset's relative image path
(``../../assets/tiles/street.png``) holds in both layouts. :func:`bundled_maps` is the one place
that knows the two layouts; everything else asks it.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from game.core.errors import MapError

__all__ = ["bundled_maps"]

_MARKER = "demo.tmx"


def bundled_maps() -> Path:
    """The folder of the bundled maps: ``demo.tmx``, ``lessons/*.tmx``, ``tiles/street.tsx``.

    The installed copy (``game/_bundled/maps``) wins; an editable install or a source checkout
    finds ``maps/`` next to the package. MapError (one line) when neither holds the demo map.

    >>> folder = bundled_maps()
    >>> (folder / "demo.tmx").is_file(), (folder / "lessons" / "L01.tmx").is_file()
    (True, True)
    """
    package = files("game")
    if not isinstance(package, Path):
        raise MapError(
            "the bundled maps cannot be read from a zipped install",
            hint="install Sightline as plain files: pip install sightline",
        )
    candidates = (package / "_bundled" / "maps", package.parent / "maps")
    for folder in candidates:
        if (folder / _MARKER).is_file():
            return folder
    tried = " or ".join(str(folder) for folder in candidates)
    raise MapError(
        f"the bundled maps are missing (no {_MARKER} in {tried})",
        hint="reinstall Sightline, or name a map: sightline play MAP.tmx",
    )
