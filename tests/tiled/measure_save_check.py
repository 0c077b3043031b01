"""Measure a save-check: ``sightline check --json`` on maps/demo.tmx and on a generated 80x71 map.

Not a test (nothing here is collected): run it by hand, ``python tests/tiled/measure_save_check.py``.
It prints, for each map, the median of several runs of (a) the check as the extension runs it,
timed by the extension inside a headless Tiled (``Sightline.lastCheck.ms``, when ``tiled`` is
installed), and (b) the same command run from Python, with ``sightline --version`` (interpreter
and CLI start-up) measured in the same run as the peer, plus the load average.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAM = Path(sys.executable).parent / "sightline"


def cave_tmx(width: int = 80, height: int = 71, room: int = 8) -> str:
    """An orthogonal map of ``width`` x ``height`` squares: rooms of ``room`` squares walled on
    the grid, one door in the middle of every wall, two figures of enemy sides in every room."""
    objects: list[str] = []
    next_id = 1

    def add(body: str) -> None:
        nonlocal next_id
        objects.append(body.replace("ID", str(next_id), 1))
        next_id += 1

    px = 32
    for x in range(room, width, room):  # vertical walls, a door gap in each room's span
        for y0 in range(0, height, room):
            y1 = min(y0 + room, height)
            door = y0 + (y1 - y0) // 2
            for a, b in ((y0, door), (door + 1, y1)):
                if b > a:
                    add(f'  <object id="ID" type="wall" x="{x * px}" y="{a * px}">'
                        f'<polyline points="0,0 0,{(b - a) * px}"/></object>')
            add(f'  <object id="ID" type="door" x="{x * px}" y="{door * px}">'
                f'<polyline points="0,0 0,{px}"/></object>')
    for y in range(room, height, room):  # horizontal walls
        for x0 in range(0, width, room):
            x1 = min(x0 + room, width)
            door = x0 + (x1 - x0) // 2
            for a, b in ((x0, door), (door + 1, x1)):
                if b > a:
                    add(f'  <object id="ID" type="wall" x="{a * px}" y="{y * px}">'
                        f'<polyline points="0,0 {(b - a) * px},0"/></object>')
            add(f'  <object id="ID" type="door" x="{door * px}" y="{y * px}">'
                f'<polyline points="0,0 {px},0"/></object>')
    for ry in range(0, height, room):
        for rx in range(0, width, room):
            for side, dx in (("red", 1), ("blue", 3)):
                if rx + dx < width and ry + 1 < height:
                    add(f'  <object id="ID" name="{side}{next_id}" type="figure" '
                        f'x="{(rx + dx) * px + 16}" y="{(ry + 1) * px + 16}">'
                        f'<properties><property name="side" value="{side}"/></properties>'
                        f'<point/></object>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="{px}" tileheight="{px}" infinite="0" '
        f'nextlayerid="2" nextobjectid="{next_id}">\n'
        ' <properties><property name="ruleset" value="arcadia"/></properties>\n'
        ' <objectgroup id="1" name="objects">\n' + "\n".join(objects) + "\n </objectgroup>\n</map>\n"
    )


def _median_run(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def in_tiled(map_path: Path, runs: int) -> list[int]:
    """The extension's own timing of the save-check, one headless Tiled per run."""
    tiled = shutil.which("tiled")
    if tiled is None:
        return []
    out = []
    for _ in range(runs):
        root = Path(tempfile.mkdtemp(prefix="sightline-measure-"))
        home, config, runtime = root / "home", root / "config", root / "runtime"
        for folder in (home, config, runtime):
            folder.mkdir()
        runtime.chmod(0o700)
        ext = config / "tiled" / "extensions"
        subprocess.run([str(PROGRAM), "tiled", "install", "--dir", str(ext)], check=True, capture_output=True)
        shutil.copy(HERE / "harness.js", ext / "harness.js")
        copy = root / map_path.name
        shutil.copy(map_path, copy)
        if map_path.parent == REPO / "maps":  # keep the tileset reachable
            copy = map_path.parent / f".measure-{os.getpid()}-{map_path.name}"
            shutil.copy(map_path, copy)
        results = root / "results.json"
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(config),
               "XDG_RUNTIME_DIR": str(runtime), "QT_QPA_PLATFORM": "offscreen",
               "SIGHTLINE_TEST_RESULTS": str(results)}
        editor = subprocess.Popen([tiled], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while not Path(f"{results}.ready").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)
            subprocess.run([tiled, str(copy)], env=env, capture_output=True, timeout=20)
            deadline = time.monotonic() + 60
            while not results.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            editor.wait(timeout=20)
        finally:
            if editor.poll() is None:
                editor.kill()
                editor.wait()
            if copy.parent == REPO / "maps":
                copy.unlink(missing_ok=True)
                for png in copy.parent.glob(f"{copy.stem}-fov-*.png"):
                    png.unlink()
        check = json.loads(results.read_text(encoding="utf-8"))["check"]
        out.append(int(check["ms"]))
        shutil.rmtree(root, ignore_errors=True)
    return out


def main() -> None:
    """Print the medians."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    folder = Path(tempfile.mkdtemp(prefix="sightline-cave-"))
    cave = folder / "cave80x71.tmx"
    cave.write_text(cave_tmx(), encoding="utf-8")
    print(f"load average before: {os.getloadavg()}")
    startup = _median_run([str(PROGRAM), "--version"], runs)
    print(f"sightline --version (start-up peer): median {startup * 1000:.0f} ms over {runs} runs")
    for path in (REPO / "maps" / "demo.tmx", cave):
        cli = _median_run([str(PROGRAM), "check", "--json", str(path)], runs)
        tiled_ms = in_tiled(path, runs)
        tiled_text = (f"in Tiled (extension's timer): median {statistics.median(tiled_ms)} ms {tiled_ms}"
                      if tiled_ms else "in Tiled: tiled not installed")
        print(f"{path.name}: check --json median {cli * 1000:.0f} ms "
              f"({cli / startup:.1f}x start-up); {tiled_text}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
