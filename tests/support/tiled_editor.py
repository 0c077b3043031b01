"""The real Tiled editor run headless by the tests: a private profile, a map handed to the
running editor, every wait bounded."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


def _wait_for(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return path.exists()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def headless_env(home: Path, config: Path, runtime: Path, **extra: str) -> dict[str, str]:
    """The environment of a headless Tiled with its own profile (``extra``: the scripts' own
    variables); no ``sightline`` on its PATH."""
    return {
        "PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(config), "XDG_RUNTIME_DIR": str(runtime),
        "QT_QPA_PLATFORM": "offscreen", "LANG": os.environ.get("LANG", "C.UTF-8"), **extra,
    }


def hand_map(tiled: str, env: dict[str, str], opened: Path, done: Path, log: Path, *, may_hang: bool = False) -> None:
    """Start Tiled, wait for its script to say it loaded (``done`` + ``.ready``), hand it ``opened``
    as a second instance does, and wait for the script's ``done`` file and for Tiled to quit
    (``may_hang``: a headless Tiled 1.8 may not quit when asked; it is terminated then). The
    waits are generous (a minute): Tiled starts in about a second, but CI runs the tests on every
    core at once."""
    with log.open("wb") as out:
        editor = subprocess.Popen([tiled], env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            assert _wait_for(Path(f"{done}.ready"), 60), "Tiled did not load its scripts in 60 s"
            time.sleep(0.5)  # the scripts load before Tiled listens for a second instance
            handed = subprocess.run([tiled, str(opened)], env=env, capture_output=True, timeout=60)
            assert handed.returncode == 0, handed.stderr
            assert _wait_for(done, 60), "the script wrote nothing in 60 s"
            try:
                editor.wait(timeout=5 if may_hang else 30)
            except subprocess.TimeoutExpired:
                if not may_hang:
                    raise
                editor.terminate()
                editor.wait(timeout=10)
        finally:
            _stop(editor)
