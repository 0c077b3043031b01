"""Hostile and broken files: each is refused with one clear MapError line, in bounded memory.

The files are generated here, in tmp_path; nothing big is committed.
"""

from __future__ import annotations

import base64
import gzip
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import MapError
from game.tiled import load_map

MAPS = Path(__file__).resolve().parent / "data" / "maps"

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<map version="1.10" orientation="orthogonal" width="{w}" height="{h}" '
    'tilewidth="32" tileheight="32" infinite="0">\n'
)


def tmx(body: str, w: int = 4, h: int = 4) -> str:
    return HEAD.format(w=w, h=h) + body + "\n</map>\n"


def refused(path: Path, *fragments: str) -> MapError:
    with pytest.raises(MapError) as info:
        load_map(path)
    line = str(info.value)
    assert "\n" not in line
    for fragment in fragments:
        assert fragment in line, line
    return info.value


def layer(data: str, encoding: str, compression: str | None = None, w: int = 4, h: int = 4) -> str:
    extra = f' compression="{compression}"' if compression else ""
    return f'<layer id="1" name="Ground" width="{w}" height="{h}"><data encoding="{encoding}"{extra}>{data}</data></layer>'


def test_missing_file_directory_and_empty_file(tmp_path: Path) -> None:
    refused(tmp_path / "nope.tmx", "not found")
    refused(tmp_path, "directory")
    (tmp_path / "empty.tmx").write_bytes(b"")
    refused(tmp_path / "empty.tmx", "empty")
    (tmp_path / "blank.tmx").write_bytes(b"  \n\n")
    refused(tmp_path / "blank.tmx", "empty")


def test_not_xml_and_truncated_xml(tmp_path: Path) -> None:
    (tmp_path / "binary.tmx").write_bytes(bytes(range(256)) * 4)
    refused(tmp_path / "binary.tmx", "not well-formed XML")
    (tmp_path / "text.tmx").write_text("hello, this is not a map\n")
    refused(tmp_path / "text.tmx", "not well-formed XML")
    whole = (MAPS / "figures.tmx").read_bytes()
    (tmp_path / "truncated.tmx").write_bytes(whole[: len(whole) // 2])
    refused(tmp_path / "truncated.tmx", "not well-formed XML", "truncated")
    (tmp_path / "other.tmx").write_text("<tileset name='x'/>")
    refused(tmp_path / "other.tmx", "not a Tiled map")


def test_json_maps_are_refused_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "map.tmj").write_text('{"orientation": "orthogonal"}')
    refused(tmp_path / "map.tmj", "JSON", "Save As")
    (tmp_path / "sneaky.tmx").write_text('{"orientation": "orthogonal"}')
    refused(tmp_path / "sneaky.tmx", "JSON")


def test_missing_tileset_and_template(tmp_path: Path) -> None:
    (tmp_path / "ts.tmx").write_text(tmx('<tileset firstgid="1" source="gone.tsx"/>'))
    refused(tmp_path / "ts.tmx", "gone.tsx", "not found")
    body = (
        '<objectgroup id="1" name="o"><object id="1" template="gone.tx" x="0" y="0"/></objectgroup>'
    )
    (tmp_path / "tx.tmx").write_text(tmx(body))
    refused(tmp_path / "tx.tmx", "gone.tx", "not found")


def test_huge_dimensions_are_refused_before_allocating(tmp_path: Path) -> None:
    (tmp_path / "huge.tmx").write_text(tmx(layer("0", "csv", w=10**6, h=10**6), w=10**6, h=10**6))
    refused(tmp_path / "huge.tmx", "1000000x1000000", "limit")
    (tmp_path / "zero.tmx").write_text(tmx("", w=0, h=3))
    refused(tmp_path / "zero.tmx", "0x3")


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_decompression_bombs_are_refused(tmp_path: Path, compression: str) -> None:
    zeros = bytes(16 * 1024 * 1024)  # 16 MiB of zeros for a 4x4 layer (64 bytes)
    packed = zlib.compress(zeros, 9) if compression == "zlib" else gzip.compress(zeros, 9)
    data = base64.b64encode(packed).decode()
    (tmp_path / "bomb.tmx").write_text(tmx(layer(data, "base64", compression)))
    refused(tmp_path / "bomb.tmx", "decompresses to more data")


def test_entity_expansion_bomb_is_refused(tmp_path: Path) -> None:
    lol = '<!DOCTYPE map [\n<!ENTITY lol "lol">\n'
    for i in range(1, 10):
        prev = "&lol;" if i == 1 else f"&lol{i - 1};"
        lol += f'<!ENTITY lol{i} "{prev * 10}">\n'
    lol += "]>\n"
    text = '<?xml version="1.0"?>\n' + lol + tmx('<objectgroup name="&lol9;"/>').split("\n", 1)[1]
    (tmp_path / "laughs.tmx").write_text(text)
    refused(tmp_path / "laughs.tmx", "entities")
    external = '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<map>&x;</map>'
    (tmp_path / "external.tmx").write_text(external)
    refused(tmp_path / "external.tmx", "entities")


def test_a_remote_dtd_without_entities_is_fine(tmp_path: Path) -> None:
    doctype = '<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n'
    (tmp_path / "dtd.tmx").write_text(
        '<?xml version="1.0"?>\n' + doctype + tmx("").split("\n", 1)[1]
    )
    assert load_map(tmp_path / "dtd.tmx").board.width == 4


def test_tileset_image_that_is_not_an_image(tmp_path: Path) -> None:
    (tmp_path / "fake.png").write_text("GIF? no. PNG? no. Just text.")
    body = (
        '<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="1" columns="1">'
        '<image source="fake.png" width="32" height="32"/></tileset>'
        + layer("1,1,1,1," * 3 + "1,1,1,1", "csv")
    )
    (tmp_path / "fake.tmx").write_text(tmx(body))
    loaded = load_map(tmp_path / "fake.tmx")
    assert loaded.art is None
    assert [f.code for f in loaded.findings] == ["tileset-image-unreadable"]


def test_a_tileset_declaring_a_gigantic_image_is_refused(tmp_path: Path) -> None:
    body = (
        '<tileset firstgid="1" name="t" tilewidth="1" tileheight="1">'
        '<image source="../data/maps/tiles.png" width="1000000" height="1000000"/></tileset>'
    )
    (tmp_path / "giant.tmx").write_text(tmx(body))
    (tmp_path / "tiles.png").write_bytes((MAPS / "tiles.png").read_bytes())
    text = (tmp_path / "giant.tmx").read_text().replace("../data/maps/tiles.png", "tiles.png")
    (tmp_path / "giant.tmx").write_text(text)
    refused(tmp_path / "giant.tmx", "tiles", "limit")


def test_malformed_layers_and_objects(tmp_path: Path) -> None:
    cases = {
        "short.tmx": (tmx(layer("1,2,3", "csv")), "3 tiles, expected 4x4"),
        "garbage.tmx": (tmx(layer("1,x,3", "csv")), "malformed CSV"),
        "b64.tmx": (tmx(layer("!!!!", "base64")), "malformed base64"),
        "corrupt.tmx": (
            tmx(layer(base64.b64encode(b"not zlib").decode(), "base64", "zlib")),
            "corrupt",
        ),
        # zstd is read (issue #10); an empty zstd frame holds no tiles
        "zstd.tmx": (tmx(layer("KLUv/QBYAA==", "base64", "zstd")), "holds 0 tiles, expected 4x4"),
        "zstd-corrupt.tmx": (tmx(layer(base64.b64encode(b"not zstd").decode(), "base64", "zstd")), "corrupt compressed data"),
        "mismatch.tmx": (tmx(layer("0", "csv", w=1, h=1)), "is 1x1 but the map is 4x4"),
        "chunks.tmx": (
            tmx(
                '<layer name="c" width="4" height="4"><data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk></data></layer>'
            ),
            "stored in chunks, but the map is not infinite",
        ),
        "nan.tmx": (
            tmx(
                '<objectgroup name="o"><object id="3" class="wall" x="nan" y="0" width="32" height="32"/></objectgroup>'
            ),
            "object 3",
        ),
        "exponent.tmx": (
            tmx(
                '<objectgroup name="o"><object id="4" class="wall" x="1e999999999" y="0"'
                ' width="32" height="32"/></objectgroup>'
            ),
            "object 4",
        ),
        "orientation.tmx": (
            tmx("").replace("orthogonal", "staggered"),
            "staggered maps are not supported",
        ),
    }
    for name, (text, fragment) in cases.items():
        (tmp_path / name).write_text(text)
        refused(tmp_path / name, fragment)


def test_deeply_nested_groups_do_not_crash(tmp_path: Path) -> None:
    depth = 5000
    body = '<group name="g">' * depth + "</group>" * depth
    (tmp_path / "deep.tmx").write_text(tmx(body))
    try:
        load_map(tmp_path / "deep.tmx")
    except MapError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=60)
@given(data=st.data())
def test_mangled_maps_load_or_raise_map_error_only(tmp_path_factory, data) -> None:
    name = data.draw(
        st.sampled_from(["figures.tmx", "doors.tmx", "encoding_zlib.tmx", "templates.tmx"])
    )
    original = bytearray((MAPS / name).read_bytes())
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(original) - 1))
        original[at] = data.draw(st.sampled_from(b'0123456789-.e"<>/ ,xZ'))
    folder = tmp_path_factory.mktemp("mangled")
    for support in ("tiles.png", "outdoor.tsx"):
        (folder / support).write_bytes((MAPS / support).read_bytes())
    (folder / "templates").mkdir()
    for tx in ("hero.tx", "door.tx"):
        (folder / "templates" / tx).write_bytes((MAPS / "templates" / tx).read_bytes())
    (folder / name).write_bytes(bytes(original))
    try:
        load_map(folder / name)
    except MapError as exc:
        assert "\n" not in str(exc)
