"""The centre-line engine's numpy tables: every square one origin sees (:func:`visible_from`), every
pair (:func:`all_pairs`, :func:`pair_bits`, :func:`pair_bits_among`) and chosen origins
(:func:`pair_table`), from the shadow caster of :mod:`game.core.fov_cast` and the octant engine of
:mod:`game.core.fov` (exact slopes); and the per-board arrays they read, cached per board version
and patched, not rebuilt, when only figures changed (:class:`_BoardCache`).

Pure: numpy and integers only. :mod:`game.core.los` re-exports the public names (callers import
them from there).

>>> from game.core.board import Board
>>> b = Board.from_ascii(["...", ".#.", "..."])
>>> visible_from(b, (0, 0)).astype(int)
array([[1, 1, 1],
       [1, 1, 0],
       [1, 0, 0]])
"""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from typing import Literal

import numpy as np

from game.core.board import Board, Square, is_enemy
from game.core.fov import BlockerSet, CornerTerms, batch_size, corner_terms, fov_half_rows, fov_rows
from game.core.fov_cast import cast, flag_grid, patch_flag_grid

__all__ = [
    "Engine",
    "all_pairs",
    "cast_budget",
    "clear_caches",
    "mirror_upper",
    "pair_bits",
    "pair_bits_among",
    "pair_table",
    "visible_from",
]


class _BoardCache:
    """Per-board caches: geometry arrays per geometry version, lookups and masks per version.

    When only figures changed (a new version, the same geometry) nothing is built anew that a
    figure does not touch: the blocking squares of the version before are patched at the squares
    whose figures changed (:meth:`Board.figure_squares_since`; rebuilt when the board no longer
    remembers them); the octant engine's blocker arrays of an earlier version are kept as
    ``spare`` and the next :func:`_blockers` rebuilds only their squares' and corners' arrays
    (:meth:`BlockerSet.with_cells`); and the caster's byte grids are kept as ``stale`` with the
    blocking squares they were built from: the next :func:`_flags` patches the rows whose squares
    changed instead of building them anew. (What is kept is patched only when asked for.)"""

    def __init__(self) -> None:
        self.geometry_version = -1
        self.version = -1
        self.edges: tuple[np.ndarray, np.ndarray] | None = None
        self.terrain: np.ndarray | None = None
        self.on_board: np.ndarray | None = None
        self.corner_terms: CornerTerms | None = None
        self.blockers: dict[str | None, BlockerSet] = {}
        self.spare: dict[str | None, BlockerSet] = {}
        self.cells: dict[str | None, np.ndarray] = {}
        self.flags: dict[str | None, tuple[bytes, bytes]] = {}
        self.stale: dict[str | None, tuple[np.ndarray, tuple[bytes, bytes]]] = {}
        self.masks: OrderedDict[tuple[Square, str | None], np.ndarray] = OrderedDict()

    def refresh(self, board: Board) -> None:
        """Forget (or patch) what the board's updates since the cached version changed."""
        same_geometry = board.geometry_version == self.geometry_version
        if not same_geometry:
            self.geometry_version = board.geometry_version
            self.edges = None
            self.terrain = None
            self.on_board = None
            self.corner_terms = None
            self.stale.clear()
            self.spare.clear()
        if board.version != self.version:
            moved = board.figure_squares_since(self.version) if same_geometry else None
            self.version = board.version
            if same_geometry:
                for viewer, flags in self.flags.items():
                    self.stale[viewer] = (self.cells[viewer], flags)
                self.spare.update(self.blockers)
            cells = self.cells
            self.cells = {}
            self.blockers.clear()
            self.flags.clear()
            self.masks.clear()
            if moved is not None:
                _patch(board, self, moved, cells)


def _patch(board: Board, cache: _BoardCache, moved: frozenset[Square], cells: dict[str | None, np.ndarray]) -> None:
    """Into the refreshed ``cache``: each viewer's blocking squares of the version before
    (``cells``) with the squares ``moved`` judged again."""
    terrain = _terrain_array(board, cache)
    inside = [(x, y) for x, y in moved if board.in_bounds((x, y))]
    for viewer, old in cells.items():
        new = old.copy()
        for x, y in inside:
            new[y, x] = terrain[y, x] or _holds_enemies(board, (x, y), viewer)
        new.setflags(write=False)
        cache.cells[viewer] = new


_CACHES: weakref.WeakKeyDictionary[Board, _BoardCache] = weakref.WeakKeyDictionary()
_MASK_CACHE_SIZE = 1024


def clear_caches() -> None:
    """Forget every per-board blocker set and mask (ray templates and slope tables stay: they
    depend on the board size only)."""
    _CACHES.clear()


def _cache(board: Board) -> _BoardCache:
    cache = _CACHES.get(board)
    if cache is None:
        cache = _CACHES[board] = _BoardCache()
    cache.refresh(board)
    return cache


def _edge_arrays(board: Board, cache: _BoardCache) -> tuple[np.ndarray, np.ndarray]:
    """Sight-blocking edges: V as [y, x] (H, W+1) and H as [y, x] (H+1, W), cached per geometry
    version (from :meth:`Board.sight_edge_array`: one numpy scatter, no pass over Edge objects)."""
    if cache.edges is None:
        w, h = board.width, board.height
        flat = np.zeros(h * (w + 1) + (h + 1) * w, dtype=bool)
        flat[board.sight_edge_array()] = True
        cache.edges = (flat[: h * (w + 1)].reshape(h, w + 1), flat[h * (w + 1) :].reshape(h + 1, w))
    return cache.edges


def _terrain_array(board: Board, cache: _BoardCache) -> np.ndarray:
    """Void or blocked terrain as a bool [y, x] array."""
    if cache.terrain is None:
        terrain = np.zeros((board.height, board.width), dtype=bool)
        squares = board.void | board.blocked
        if squares:
            xy = np.fromiter(itertools.chain.from_iterable(squares), dtype=np.intp, count=2 * len(squares))
            terrain[xy[1::2], xy[0::2]] = True
        cache.terrain = terrain
    return cache.terrain


def _cell_blocks(board: Board, cache: _BoardCache, viewer: str | None) -> np.ndarray:
    """Squares that block sight for ``viewer`` as a bool [y, x] array."""
    cells = _terrain_array(board, cache).copy()
    counts: dict[Square, int] = {}
    for figure in board.figures.values():
        if is_enemy(figure, viewer):
            counts[figure.square] = counts.get(figure.square, 0) + 1
    for (x, y), n in counts.items():
        if n >= board.capacity and board.in_bounds((x, y)):
            cells[y, x] = True
    return cells


def _holds_enemies(board: Board, sq: Square, viewer: str | None) -> bool:
    """Whether ``sq`` holds at least ``board.capacity`` enemies of ``viewer`` (as
    :func:`_cell_blocks` counts them), one square."""
    return sum(1 for figure in board.figures_at(sq) if is_enemy(figure, viewer)) >= board.capacity


def _corner_terms(board: Board, cache: _BoardCache) -> CornerTerms:
    """The edges' part of every grid point's sides (:func:`game.core.fov.corner_terms`), cached
    per geometry version."""
    if cache.corner_terms is None:
        cache.corner_terms = corner_terms(*_edge_arrays(board, cache))
    return cache.corner_terms


def _cells(board: Board, cache: _BoardCache, viewer: str | None) -> np.ndarray:
    """:func:`_cell_blocks`, cached per board version."""
    found = cache.cells.get(viewer)
    if found is None:
        found = cache.cells[viewer] = _cell_blocks(board, cache, viewer)
        found.setflags(write=False)
    return found


def _blockers(board: Board, cache: _BoardCache, viewer: str | None) -> BlockerSet:
    """What blocks sight on this board version for ``viewer``, as coordinate arrays (cached)."""
    found = cache.blockers.get(viewer)
    if found is None:
        cells, terms = _cells(board, cache, viewer), _corner_terms(board, cache)
        spare = cache.spare.pop(viewer, None)  # an earlier version's: the same edges
        if spare is not None:
            found = spare.with_cells(cells, terms)
        else:
            found = BlockerSet.from_arrays(cells, *_edge_arrays(board, cache), terms)
        cache.blockers[viewer] = found
    return found


def _flags(board: Board, cache: _BoardCache, viewer: str | None) -> tuple[bytes, bytes]:
    """The caster's padded byte grid (:func:`game.core.fov_cast.flag_grid`) for ``viewer`` (cached);
    after a figure moved, the grids of the version before patched where squares changed."""
    found = cache.flags.get(viewer)
    if found is None:
        cells = _cells(board, cache, viewer)
        edge_v, edge_h = _edge_arrays(board, cache)
        old = cache.stale.pop(viewer, None)
        if old is not None and old[0].shape == cells.shape:
            rows = np.flatnonzero((old[0] != cells).any(axis=1)).tolist()
            found = patch_flag_grid(old[1], cells, edge_v, edge_h, rows) if rows else old[1]
        else:
            found = flag_grid(cells, edge_v, edge_h)
        cache.flags[viewer] = found
    return found


def cast_budget(width: int, height: int) -> int:
    """How many squares the shadow caster may visit before :func:`visible_from` hands the origin to
    the octant engine: about what the octant engine costs on this board size, in caster steps."""
    return 512 + (width * height) // 4


def _on_board_mask(board: Board, cache: _BoardCache) -> np.ndarray:
    """Squares on the board (not void) as a bool [y, x] array, cached per geometry version."""
    if cache.on_board is None:
        on = np.ones((board.height, board.width), dtype=bool)
        for x, y in board.void:
            on[y, x] = False
        cache.on_board = on
    return cache.on_board


Engine = Literal["auto", "cast", "octant"]


def visible_from(board: Board, a: Square, viewer: str | None = None, *, engine: Engine = "auto") -> np.ndarray:
    """Every square visible from square ``a`` for ``viewer``: bool array (height, width), ``[y, x]``.

    Void squares are never visible. The origin square itself is marked visible when it is on the
    board: other figures standing there are visible (a figure does not target itself, rules L29,
    but that is the rules layer's business). An origin off the board sees nothing. The mask equals
    ``line_of_sight(board, a, b, viewer).clear`` for every on-board ``b``. The returned array is
    cached per (board version, square, viewer) and read-only; copy it to change it.

    ``engine``: ``"auto"`` runs the shadow caster of :mod:`game.core.fov_cast` (cost follows what
    the origin sees) and hands the origin to the octant engine of :mod:`game.core.fov` (cost ~ the
    board area) when the caster passes :func:`cast_budget`; ``"cast"`` / ``"octant"`` run one of
    them only, uncached (the tests and benchmarks compare them).

    >>> b = Board.from_ascii(["...", ".#.", "..."])
    >>> visible_from(b, (0, 0)).astype(int)
    array([[1, 1, 1],
           [1, 1, 0],
           [1, 0, 0]])
    >>> bool((visible_from(b, (0, 0), engine="cast") == visible_from(b, (0, 0), engine="octant")).all())
    True
    """
    cache = _cache(board)
    key = (a, viewer)
    if engine == "auto":
        found = cache.masks.get(key)
        if found is not None:
            cache.masks.move_to_end(key)
            return found
    mask = np.zeros((board.height, board.width), dtype=bool)
    if board.on_board(a):
        w, h = board.width, board.height
        cast_mask = None
        if engine != "octant":
            budget = cast_budget(w, h) if engine == "auto" else 1 << 62
            cast_mask = cast(*_flags(board, cache, viewer), w, h, a, budget)
        mask = fov_rows(_blockers(board, cache, viewer), [a])[0] if cast_mask is None else cast_mask
        mask &= _on_board_mask(board, cache)
    mask.setflags(write=False)
    if engine == "auto":
        cache.masks[key] = mask
        if len(cache.masks) > _MASK_CACHE_SIZE:
            cache.masks.popitem(last=False)
    return mask


def all_pairs(board: Board, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares: bool array (H, W, H, W), ``[ay, ax, by, bx]``.

    ``table[ay, ax]`` equals ``visible_from(board, (ax, ay), viewer)``; rows of void squares are
    empty. Memory: (W·H)² bytes for the answer and nothing of that size besides (no transposed
    copy); see :func:`pair_table` for a table over chosen squares only. Built like
    :func:`pair_bits`: the upper half-plane of every origin, then mirrored block by block.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,0)", "H(0,1)"])
    >>> all_pairs(b)[0, 0].astype(int)
    array([[1, 0],
           [0, 0]])
    """
    w, h = board.width, board.height
    n = w * h
    flat = np.zeros((n, n), dtype=bool)
    for index, first, rows in _upper_rows(board, viewer):
        flat[index, first:] = rows
    mirror_upper(flat)
    index = np.flatnonzero(_on_board_mask(board, _cache(board)))
    flat[index, index] = True
    return flat.reshape(h, w, h, w)


def _upper_rows(
    board: Board, viewer: str | None, keep: np.ndarray | None = None
) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
    """For batches of on-board origins (row-major order; only those of the bool mask ``keep``
    ``[y, x]`` when given): their flat indices, the first flat target index ``first`` of the rows,
    and bool ``(len, W·H - first)``: visibility of every target after its origin in row-major order
    (False at and before it, on void squares and outside ``keep``)."""
    w, h = board.width, board.height
    n = w * h
    cache = _cache(board)
    on = _on_board_mask(board, cache)
    if keep is not None:
        on = on & keep
    ys, xs = np.nonzero(on)
    blockers = _blockers(board, cache, viewer)
    step = batch_size(w, h, 4)
    flat_on = on.reshape(-1)
    for start in range(0, ys.size, step):
        cy, cx = ys[start : start + step], xs[start : start + step]
        first_row, rows = fov_half_rows(blockers, [(int(x), int(y)) for x, y in zip(cx, cy, strict=True)])
        first = first_row * w
        index = cy * w + cx
        flat_rows = rows.reshape(len(index), n - first)
        flat_rows &= flat_on[first:]
        flat_rows &= np.arange(first, n)[None, :] > index[:, None]
        yield index, first, flat_rows


_BLOCK = 1024  # rows and columns of one mirrored block (a multiple of 8)


def mirror_upper(flat: np.ndarray) -> None:
    """``flat |= flat.T`` for a square bool table whose lower triangle is empty, block by block
    (no transposed copy of the whole table)."""
    n = flat.shape[0]
    for i0 in range(0, n, _BLOCK):
        i1 = min(n, i0 + _BLOCK)
        for j0 in range(i0, n, _BLOCK):
            j1 = min(n, j0 + _BLOCK)
            flat[j0:j1, i0:i1] |= flat[i0:i1, j0:j1].T.copy()


def _mirror_bits(bits: np.ndarray, n: int) -> None:
    """As :func:`mirror_upper` for the bit table of :func:`pair_bits` (rows of ``n`` bits)."""
    for i0 in range(0, n, _BLOCK):
        i1 = min(n, i0 + _BLOCK)
        for j0 in range(i0, n, _BLOCK):
            j1 = min(n, j0 + _BLOCK)
            part = np.unpackbits(bits[i0:i1, j0 // 8 : (j1 + 7) // 8], axis=1, count=j1 - j0)
            packed = np.packbits(np.ascontiguousarray(part.T), axis=1)
            bits[j0:j1, i0 // 8 : i0 // 8 + packed.shape[1]] |= packed


def pair_bits(board: Board, viewer: str | None = None) -> np.ndarray:
    """Visibility between every pair of squares as bits: uint8 ``(W·H, ceil(W·H / 8))``, row
    ``ay * W + ax``, bit ``by * W + bx`` of that row (``np.unpackbits(..., count=W·H)`` gives it
    back). Equal to :func:`all_pairs` at one bit per pair: a 128×128 board takes 33.5 MB.

    The rule is symmetric for a fixed viewer (the same segment both ways), so each origin casts
    only its upper half-plane (the targets after it in row-major order) and the table is mirrored
    block by block: half the casting, no transposed copy.

    >>> b = Board.from_ascii(["..", ".."], walls=["V(1,0)", "H(0,1)"])
    >>> np.unpackbits(pair_bits(b)[0], count=4).tolist()
    [1, 0, 0, 0]
    """
    w, h = board.width, board.height
    n = w * h
    out = np.zeros((n, (n + 7) // 8), dtype=np.uint8)
    for index, first, rows in _upper_rows(board, viewer):
        start = first // 8 * 8  # pack from a byte boundary: the bits before ``first`` stay 0
        if start < first:
            rows = np.concatenate([np.zeros((len(index), first - start), dtype=bool), rows], axis=1)
        out[index, start // 8 :] = np.packbits(rows, axis=1)
    _mirror_bits(out, n)
    index = np.flatnonzero(_on_board_mask(board, _cache(board)))
    out[index, index // 8] |= (128 >> (index % 8)).astype(np.uint8)
    return out


def pair_bits_among(board: Board, keep: np.ndarray, viewer: str | None = None) -> np.ndarray:
    """Visibility among the on-board squares of the bool mask ``keep`` ``[y, x]`` as bits, compact:
    uint8 ``(k, ceil(k / 8))`` for the ``k`` squares ``np.flatnonzero(keep & on_board)`` in row-major
    order, bit ``j`` of row ``i`` for the ``i``-th seeing the ``j``-th; never a square with itself.

    The designer's table (a region's squares, only squares a figure can stand on): as
    :func:`pair_bits`, each origin casts only its upper half-plane and the table is mirrored block
    by block; only the chosen squares are kept, one bit per pair (a 20,000-square region: 50 MB).

    >>> b = Board.from_ascii(["...", "..."], walls=["V(1,0)"])
    >>> keep = np.array([[True, True, False], [True, True, True]])
    >>> np.unpackbits(pair_bits_among(b, keep), axis=1, count=5).tolist()
    [[0, 0, 1, 1, 0], [0, 0, 1, 1, 1], [1, 1, 0, 1, 1], [1, 1, 1, 0, 1], [0, 1, 1, 1, 0]]
    """
    w, h = board.width, board.height
    chosen = (keep & _on_board_mask(board, _cache(board))).reshape(-1)
    k = int(chosen.sum())
    rank = np.cumsum(chosen) - 1  # position of each chosen square among them
    out = np.zeros((k, (k + 7) // 8), dtype=np.uint8)
    for index, first, rows in _upper_rows(board, viewer, chosen.reshape(h, w)):
        columns = rows[:, chosen[first:]]  # the chosen targets from flat index ``first`` on
        start = int(rank[first - 1]) + 1 if first else 0
        byte = start // 8
        if byte * 8 < start:
            columns = np.concatenate([np.zeros((len(index), start - byte * 8), dtype=bool), columns], axis=1)
        packed = np.packbits(columns, axis=1)
        out[rank[index], byte : byte + packed.shape[1]] = packed
    _mirror_bits(out, k)
    return out


def pair_table(
    board: Board, origins: list[Square], targets: np.ndarray, viewer: str | None = None
) -> np.ndarray:
    """Visibility from each of ``origins`` to the squares of the bool mask ``targets`` ``[y, x]``:
    bool ``(len(origins), H, W)``, False outside ``targets``.

    Only the listed origins are cast (the designer lists squares that can hold a figure), in
    batches, one byte per answer; void squares are never seen. When the origins are exactly the
    targets (every pair among chosen squares), the rule's symmetry halves the work: the pairs
    come from :func:`pair_bits_among` (each origin's upper half-plane, mirrored) and are
    unpacked into the rows.
    """
    cache = _cache(board)
    keep = targets & _on_board_mask(board, cache)
    w = board.width
    chosen = np.flatnonzero(keep)
    if len(origins) == chosen.size and len(origins) > 1:
        flat = np.fromiter((x + y * w for x, y in origins), dtype=np.int64, count=len(origins))
        if np.array_equal(flat, chosen):
            return _unpacked_rows(pair_bits_among(board, keep, viewer), chosen, board)
    blockers = _blockers(board, cache, viewer)
    out = np.zeros((len(origins), board.height, board.width), dtype=bool)
    step = batch_size(board.width, board.height)
    for start in range(0, len(origins), step):
        chunk = origins[start : start + step]
        rows = fov_rows(blockers, chunk)
        rows &= keep
        out[start : start + len(chunk)] = rows
    return out


def _unpacked_rows(bits: np.ndarray, chosen: np.ndarray, board: Board) -> np.ndarray:
    """The rows of :func:`pair_table` from the compact bits among the flat squares ``chosen``
    (each sees itself), unpacked 2,048 rows at a time."""
    k, n = chosen.size, board.width * board.height
    out = np.zeros((k, n), dtype=bool)
    for start in range(0, k, 2048):
        rows = np.unpackbits(bits[start : start + 2048], axis=1, count=k).view(bool)
        if k == n:  # every square chosen: the rows as they are
            out[start : start + rows.shape[0]] = rows
        else:
            out[start : start + rows.shape[0], chosen] = rows
    out[np.arange(k), chosen] = True
    return out.reshape(k, board.height, board.width)
