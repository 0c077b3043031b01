"""Start-up without the cycle collector (game/startup.py): ``main`` pauses it and leaves it as it
found it; the window resumes it after its first frame, freezing what start-up made."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import startup
from game.cli import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector on before each test and after it, nothing left frozen."""
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    startup.over()
    if not was:
        gc.disable()


def test_a_command_runs_with_the_collector_paused_and_main_restores_it(
    collector: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = startup.over

    def watching(freeze: bool = False) -> None:  # the real one, noting the collector's state
        seen.append(gc.isenabled())
        real(freeze)

    with monkeypatch.context() as patch:
        patch.setattr(startup, "over", watching)
        assert main(["los", str(REPO / "maps" / "demo.tmx"), "2,2", "--json"]) == 0
    assert seen == [False]  # paused while the command ran
    assert gc.isenabled()
    gc.disable()
    assert main(["los", str(REPO / "maps" / "demo.tmx"), "2,2", "--json"]) == 0
    assert not gc.isenabled()  # off before: left off
    capsys.readouterr()


def test_the_window_resumes_the_collector_after_its_first_frame(collector: None, app: object) -> None:
    startup.pause()
    assert not gc.isenabled()
    before = gc.get_freeze_count()
    app.run(frames=1)  # type: ignore[attr-defined]
    assert gc.isenabled()
    assert gc.get_freeze_count() > before  # start-up's objects frozen out of later collections
