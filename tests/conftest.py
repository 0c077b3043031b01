"""Shared test set-up: headless SDL, paths, the optional ../shared folder, hypothesis profiles."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MAPS = REPO / "maps"
DATA = Path(__file__).resolve().parent / "data"
SHARED = REPO.parent / "shared"

settings.register_profile("default", deadline=None, max_examples=200,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=300,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def shared_dir() -> Path:
    """``../shared`` beside the repo; tests that need it skip cleanly when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside this checkout")
    return SHARED


@pytest.fixture
def corpus_dir(shared_dir: Path) -> Path:
    """The real Tiled maps of ``../shared/corpus``."""
    corpus = shared_dir / "corpus"
    if not corpus.is_dir():
        pytest.skip("../shared/corpus is absent")
    return corpus


@pytest.fixture
def vtt_refusal() -> Callable[[Callable[[bytes, str], object], object], str]:
    """``vtt_refusal(parse, doc)``: the one line a virtual-tabletop reader (``parse_uvtt``,
    ``parse_foundry``) refuses ``doc`` (a JSON-able object, or raw bytes) with, named ``bad.json``;
    fails the test if it is not exactly one line naming the file."""
    import json

    from game.core.errors import MapError

    def refusal(parse: Callable[[bytes, str], object], doc: object) -> str:
        data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
        with pytest.raises(MapError) as caught:
            parse(data, "bad.json")
        text = str(caught.value)
        assert "\n" not in text and text.startswith("bad.json: ")
        return text

    return refusal


@pytest.fixture(scope="session")
def wheel_packages() -> list[str]:
    """The packages a wheel ships, as ``setup.py`` gives them to setuptools: every package found
    under ``game/``, plus the ``game._bundled.*`` packages ``pyproject.toml`` maps."""
    import runpy

    packages = runpy.run_path(str(REPO / "setup.py"), run_name="sightline_setup")["packages"]()
    assert isinstance(packages, list)
    return [str(p) for p in packages]


# --- the window's fixtures (pygame and the window imported only by the tests that ask) ---------


@pytest.fixture
def screen() -> object:
    """A 1280×800 display on SDL's dummy driver (the window tests' screen)."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode((1280, 800))


@pytest.fixture
def clock() -> object:
    """A hand-driven clock for the window (:class:`support.window.Clock`)."""
    from support.window import Clock

    return Clock()


@pytest.fixture
def app(tmp_path: Path, screen: object, clock: object) -> object:
    """The window on the small test board of :func:`support.window.write_map`, first frame drawn."""
    import pygame
    from support.window import write_map

    from game.play.session import Session
    from game.ui.app import App

    session = Session.open(write_map(tmp_path / "board.tmx"))
    window = App(session, screen=screen, time_source=clock)  # type: ignore[arg-type]
    pygame.event.clear()
    window.frame()
    return window
