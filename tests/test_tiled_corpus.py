"""The loader on real public Tiled maps (``../shared/corpus``; skipped when it is absent)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.core.errors import MapError
from game.tiled import LoadedMap, load_map

RS = "mapeditor_rs-tiled/assets"
TILED = "mapeditor_tiled/examples"
PYTMX = "bitcraft_pytmx/apps/data"


def corpus_maps(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".tmx", ".tmj", ".json"))


def test_every_corpus_map_loads_or_raises_map_error(corpus_dir: Path) -> None:
    maps = corpus_maps(corpus_dir)
    assert len(maps) >= 30
    loaded, refused = 0, 0
    for path in maps:
        try:
            result = load_map(path)
        except MapError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
            refused += 1
            continue
        assert result.board.width >= 1 and result.board.height >= 1
        loaded += 1
    # issue #10: zstd, infinite and JSON maps are read; issue #22: isometric maps too; issue #21:
    # hexagonal maps too; the staggered and oblique maps stay refused
    assert loaded >= 30 and refused >= 2


ENCODING_SET = [
    "tiled_csv",
    "tiled_base64",
    "tiled_base64_gzip",
    "tiled_base64_zlib",
    "tiled_base64_external",
]


def summary(loaded: LoadedMap) -> tuple[object, ...]:
    art = loaded.art
    assert art is not None
    return (
        (loaded.board.width, loaded.board.height),
        loaded.board.void,
        tuple(layer.gids.tobytes() for layer in art.layers),
        sorted(art.tiles),
    )


def test_the_rs_tiled_encoding_set_gives_identical_boards(corpus_dir: Path) -> None:
    results = {name: load_map(corpus_dir / RS / f"{name}.tmx") for name in ENCODING_SET}
    reference = summary(results["tiled_csv"])
    assert reference[0] == (100, 100)
    assert 100 * 100 - len(reference[1]) == 161  # 161 painted cells, the rest is void
    for name, loaded in results.items():
        assert summary(loaded) == reference, name


def test_xml_encoded_layers_are_read(corpus_dir: Path) -> None:
    loaded = load_map(corpus_dir / RS / "tiled_xml.tmx")
    assert loaded.art is not None
    assert int(np.count_nonzero(loaded.art.layers[0].gids)) == 70


def test_flip_bits_are_kept_in_the_art(corpus_dir: Path) -> None:
    art = load_map(corpus_dir / RS / "tiled_flipped.tmx").art
    assert art is not None
    gids = art.layers[0].gids
    assert int((gids & 0xE0000000).astype(bool).sum()) >= 3
    assert set((gids & 0x1FFFFFFF).ravel().tolist()) <= set(art.tiles) | {0}


@pytest.mark.parametrize(
    "name, orientation",
    [
        (f"{TILED}/isometric_staggered_grass_and_water.tmx", "staggered"),
        (f"{RS}/tiled_oblique.tmx", "oblique"),
    ],
)
def test_non_orthogonal_maps_are_refused_naming_the_orientation(
    corpus_dir: Path, name: str, orientation: str
) -> None:
    with pytest.raises(MapError, match=f"{orientation} maps are not supported"):
        load_map(corpus_dir / name)


def test_tiled_s_hexagonal_example_reads_as_a_hex_board(corpus_dir: Path) -> None:
    """Issue #21: a hexagonal map is a hex board on Tiled's cells (staggered rows, odd pushed)."""
    board = load_map(corpus_dir / f"{TILED}/hexagonal-mini.tmx").board
    assert board.grid.kind == "hex" and getattr(board.grid, "staggeraxis", None) == "y"


def test_an_isometric_map_reads_as_its_square_grid(corpus_dir: Path) -> None:
    """Issue #22: an isometric map is a square grid drawn as diamonds; it reads as squares."""
    loaded = load_map(corpus_dir / f"{TILED}/isometric_grass_and_water.tmx")
    assert (loaded.board.width, loaded.board.height) == (25, 25)
    assert loaded.art is None  # diamonds are not drawn on squares: the vector style
    assert [f.code for f in loaded.findings if f.code == "map-isometric"] == ["map-isometric"]


@pytest.mark.parametrize(
    "name, size",
    [
        (f"{RS}/tiled_base64_zstandard.tmx", (100, 100)),
        (f"{RS}/tiled_base64_zlib_infinite.tmx", (48, 48)),
        ("mapeditor_tiled/tests/automapping/infinite-target-map/map.tmx", (6, 6)),
        (f"{PYTMX}/formosa.json", (15, 15)),
    ],
)
def test_formats_once_refused_are_read(corpus_dir: Path, name: str, size: tuple[int, int]) -> None:
    """zstd, infinite and JSON maps were refused before issue #10; now they are read."""
    board = load_map(corpus_dir / name).board
    assert (board.width, board.height) == size


def test_formosa_json_reads_like_its_base64_version(corpus_dir: Path) -> None:
    # the old (format 1) JSON file differs from the TMX in its first layer only
    a = load_map(corpus_dir / PYTMX / "formosa.json")
    b = load_map(corpus_dir / PYTMX / "formosa-base64.tmx")
    assert a.art is not None and b.art is not None
    assert [layer.name for layer in a.art.layers] == [layer.name for layer in b.art.layers]
    for la, lb in list(zip(a.art.layers, b.art.layers, strict=True))[1:]:
        assert (la.gids == lb.gids).all()
    assert set(a.objects) <= set(b.objects)  # the TMX has three more objects
    assert {g: t.rect for g, t in a.art.tiles.items() if g in b.art.tiles} == {
        g: t.rect for g, t in b.art.tiles.items() if g in a.art.tiles
    }


def test_pytmx_gaps_are_handled(corpus_dir: Path) -> None:
    # the .tsx image has no width/height: pytmx alone crashes on it
    walls = load_map(corpus_dir / TILED / "perspective_walls.tmx")
    assert walls.art is not None and walls.art.tiles
    assert next(iter(walls.art.tiles.values())).offset == (-32, 0)
    # tileset collision groups are not layers: four object layers, 27 objects
    acid = load_map(corpus_dir / PYTMX / "acid0.tmx")
    assert (acid.stats["object_layers"], len(acid.objects)) == (4, 27)
    shapes = {o.shape for o in acid.objects.values()}
    assert {"point", "ellipse", "polygon", "polyline", "tile", "text", "rectangle"} <= shapes


def test_templates_of_real_maps_are_resolved(corpus_dir: Path) -> None:
    example = load_map(corpus_dir / RS / "templates" / "example.tmx")
    spawn = [o for o in example.objects.values() if o.layer == "spawn"]
    assert len(spawn) == 4
    assert all(o.shape == "tile" and o.class_name == "simple_figure" for o in spawn)
    # the template says playable=false; object 2 overrides it
    assert {o.id: o.properties.get("playable") for o in spawn} == {
        2: True,
        3: False,
        4: False,
        5: False,
    }
    sandbox = load_map(corpus_dir / TILED / "sticker-knight" / "map" / "sandbox.tmx")
    hero = sandbox.objects[58]
    assert (hero.name, hero.class_name, hero.shape) == ("hero", "hero", "tile")
    assert sandbox.board.void == frozenset()  # no tile layers: all on the board


def test_string_traps_are_not_doors(corpus_dir: Path) -> None:
    for name in (
        f"{TILED}/orthogonal-outside.tmx",
        f"{PYTMX}/formosa-base64.tmx",
        "bitcraft_pytmx/tests/resources/test01.tmx",
    ):
        loaded = load_map(corpus_dir / name)
        assert loaded.board.doors == {}
        assert loaded.board.walls == frozenset()
