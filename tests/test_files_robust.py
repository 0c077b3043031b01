"""File robustness (issue #15 items 8, 12, 13): image pixel budget, disk full, FIFOs, devices,
UTF-16 without a byte-order mark, refusals in the map's terms."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.pictures import huge_png  # noqa: F401

from game.core.errors import MapError
from game.tiled import load_map

REPO = Path(__file__).resolve().parent.parent


def copy_map(tmp_path: Path, name: str = "folklore") -> Path:
    (tmp_path / "maps").mkdir(exist_ok=True)
    shutil.copytree(REPO / "maps" / "tiles", tmp_path / "maps" / "tiles", dirs_exist_ok=True)
    shutil.copytree(REPO / "assets" / "tiles", tmp_path / "assets" / "tiles", dirs_exist_ok=True)
    target = tmp_path / "maps" / f"{name}.tmx"
    shutil.copy(REPO / "maps" / f"{name}.tmx", target)
    return target




def test_a_huge_tileset_image_is_refused_in_one_line_and_drawn_as_vectors(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    huge_png(tmp_path / "assets" / "tiles" / "street.png", 20000, 20000)
    loaded = load_map(path)
    messages = [f.message for f in loaded.findings if f.code == "tileset-image-unreadable"]
    assert any("20000×20000 pixels, over the 64-megapixel budget" in m for m in messages), messages
    from game.ui.art import pixel_budget_refusal

    refusal = pixel_budget_refusal(tmp_path / "assets" / "tiles" / "street.png")
    assert refusal is not None and "\n" not in refusal and "vector style" in refusal
    out = tmp_path / "out.png"
    proc = subprocess.run([sys.executable, "-m", "game", "render", str(path), "-o", str(out)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert proc.returncode == 0 and out.exists(), proc.stderr
    assert "Traceback" not in proc.stderr


def _limit_file_size() -> None:
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))


def test_a_full_disk_in_render_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out.png"
    proc = subprocess.run([sys.executable, "-m", "game", "render", str(REPO / "maps" / "folklore.tmx"),
                           "-o", str(out)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, preexec_fn=_limit_file_size)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("sightline render: cannot write"), proc.stderr
    assert not out.exists() and not list(tmp_path.glob(".*.tmp"))


def test_a_fifo_as_the_map_is_refused_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "map.tmx"
    os.mkfifo(fifo)
    result: list[BaseException | None] = []

    def load() -> None:
        try:
            load_map(fifo)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            result.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader so the thread ends, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("loading a FIFO hangs")
    assert isinstance(result[0], MapError) and "not a regular file" in str(result[0])


def test_dev_zero_as_a_tileset_is_refused_with_the_right_words(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    path.write_text(path.read_text().replace('source="tiles/street.tsx"', 'source="/dev/zero"'))
    with pytest.raises(MapError, match="not a regular file"):
        load_map(path)


def test_utf16_without_bom_is_refused_before_entities_expand(tmp_path: Path) -> None:
    bomb = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE m [<!ENTITY a "aaaa">]><map>&a;</map>'
    path = tmp_path / "m.tmx"
    path.write_bytes(bomb.encode("utf-16-le"))
    with pytest.raises(MapError, match="without a byte-order mark"):
        load_map(path)


@pytest.mark.parametrize(("old", "new", "words"), [
    ('x="68"', 'x="abc"', "x='abc': not a number"),
    ('points="0,0 0,32"', 'points="0,0 0,abc"', "'0,abc' is not an x,y pair of numbers"),
])
def test_refusals_name_the_element_and_attribute_not_a_raw_exception(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    path = copy_map(tmp_path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(MapError) as info:
        load_map(path)
    line = str(info.value)
    assert words in line and "Error" not in line and "Invalid literal" not in line, line


def test_a_property_value_that_is_not_its_type_is_a_finding_not_a_refusal(tmp_path: Path) -> None:
    from game.designer.lint import lint

    path = copy_map(tmp_path)
    text = path.read_text()
    path.write_text(text.replace('name="valour" type="int" value="4"', 'name="valour" type="int" value="-inf"', 1))
    findings = [f for f in lint(load_map(path)) if f.code == "property-value"]
    assert any("'valour'" in f.message and "-inf" in f.message for f in findings), findings
