"""Make the pictures of docs/balance.md: the balance report of the bundled scenario ``maps/ford.tmx``
(and of the same map with its breach repaired), and of the bundled hex skirmish
``maps/hex-skirmish.tmx`` (zones from its figures' hexes), written by ``sightline balance``
itself, copied into docs/images/ as ``balance-*.png``.

    python docs/make_balance_pictures.py
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from game.commands.balance import write_balance  # noqa: E402
from game.core.board import Edge  # noqa: E402
from game.tiled import LoadedMap, load_map  # noqa: E402

IMAGES = REPO / "docs" / "images"
#: the report's picture -> the docs' name
PICTURES = {
    "zones.png": "balance-zones.png",
    "exposure-1.png": "balance-exposure.png",
    "strikes-1.png": "balance-strikes.png",
    "safe-1-1.png": "balance-safe-blue.png",
    "safe-1-2.png": "balance-safe-red.png",
    "vantage-1.png": "balance-vantage.png",
    "chokes.png": "balance-chokes.png",
    "symmetry-1.png": "balance-symmetry.png",
}


def copy_pictures(loaded: LoadedMap, rule: str, out: Path, pictures: dict[str, str]) -> None:
    """Write the report of ``loaded`` under ``rule`` into ``out`` and copy ``pictures`` (the
    report's name -> the docs' name) into docs/images/."""
    write_balance(loaded, out, rules=[rule])
    for name, target in pictures.items():
        shutil.copyfile(out / name, IMAGES / target)


def main() -> None:
    """Write the report twice (as drawn, repaired) and copy its pictures."""
    loaded = load_map(REPO / "maps" / "ford.tmx")
    with tempfile.TemporaryDirectory() as tmp:
        copy_pictures(loaded, "arcadia", Path(tmp) / "ford", PICTURES)
        for y in (5, 7):
            loaded.board.set_wall(Edge("V", 18, y))
        fixed = Path(tmp) / "fixed"
        write_balance(loaded, fixed, rules=["arcadia"])
        shutil.copyfile(fixed / "exposure-1.png", IMAGES / "balance-exposure-repaired.png")
    hex_pictures()
    hex_window()
    print(f"wrote {len(PICTURES) + 2 + len(HEX_PICTURES)} pictures into {IMAGES}")


#: the hex skirmish's pictures -> the docs' names
HEX_PICTURES = {"exposure-1.png": "balance-hex-exposure.png", "strikes-1.png": "balance-hex-strikes.png",
                "chokes.png": "balance-hex-chokes.png"}


def hex_pictures() -> None:
    """The report of the hex skirmish under hexside: its exposure, first strikes and choke points."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_pictures(load_map(REPO / "maps" / "hex-skirmish.tmx"), "hexside", Path(tmp) / "hex", HEX_PICTURES)


def hex_window() -> None:
    """``Shift+B`` in the window on the hex skirmish (1000x650, dummy display):
    docs/images/window-balance-hex.png."""
    import pygame

    from game.play.session import Session
    from game.ui.app import App

    pygame.display.init()
    pygame.font.init()
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("hex-skirmish.tmx", "tiles"):
            src = REPO / "maps" / name
            (shutil.copytree if src.is_dir() else shutil.copyfile)(src, Path(tmp) / name)
        app = App(Session.open(Path(tmp) / "hex-skirmish.tmx", autosave=False, fresh=True),
                  screen=pygame.display.set_mode((1000, 650)), watch=False, time_source=lambda: 0.0)
        pygame.event.clear()
        app.frame()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b, mod=pygame.KMOD_LSHIFT, unicode="",
                                             scancode=0))
        app.frame()
        pygame.image.save(app.screen, str(IMAGES / "window-balance-hex.png"))
    pygame.display.quit()


if __name__ == "__main__":
    main()
