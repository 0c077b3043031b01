"""Rulesets written as files (issue #25): the one exact odds engine against the built-in rulesets
and against icepool, on the same rules and the same stat lines, in the same run.

``python benchmarks/bench_custom.py`` prints each row (medians of at least 7 cold runs, the peer
measured alternately with the file so load drifts hit both) and checks the issue's targets:

* odds from a file ≤ 2× the built-in ruleset's time for the same stat line (each re-stated game);
* odds from a file at least as fast as an icepool formulation of the same rule;
* a Warhammer-style chain of 20 attack dice ≤ 50 ms.

Every sample is cold: the file engine's caches and the built-ins' caches are cleared first. The
icepool formulations are checked against the file's exact odds before timing. ``benchmarks()``
gives the same rows to ``benchmarks/run.py`` (reference = the peer; ratio = peer / file).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import icepool  # noqa: E402
from harness import Benchmark  # noqa: E402

from game.core import odds as core_odds  # noqa: E402
from game.core.board import Board, Figure  # noqa: E402
from game.play.ruleset_file import read_ruleset_file  # noqa: E402
from game.rules.base import AttackRequest, Odds  # noqa: E402
from game.rules.custom.kernels import pool_pmf  # noqa: E402
from game.rules.custom.odds import clear_caches  # noqa: E402
from game.rules.registry import get_ruleset  # noqa: E402

EXAMPLES = HERE.parent / "examples" / "rulesets"
REPEAT = 9  # samples per row (the issue asks for medians of at least 7)


def _board(ruleset: str, attacker: dict, target: dict) -> Board:
    board = Board.from_ascii(["....."], ruleset=ruleset)
    board.place_figure(Figure(1, "Attacker", "red", (1, 0), attacker))
    board.place_figure(Figure(2, "Target", "blue", (2, 0), target))
    return board


def _clear_builtins() -> None:
    from game.rules.conquest import dice as cd
    from game.rules.folklore import checks as fc

    core_odds.clear_caches()
    cd._cached_wounds.cache_clear()
    cd.counts_ways.cache_clear()
    cd.add_die.cache_clear()
    for cached in (fc._cached_damage, fc._cached_on_hit, fc.sum_sixes_distribution, fc._spread,
                   fc.sum_distribution):
        cached.cache_clear()


def _file_odds(name: str, board: Board, attack: str) -> Callable[[], Odds]:
    rules = read_ruleset_file(EXAMPLES / name)
    request = AttackRequest(board, 1, [2], attack)

    def run() -> Odds:
        clear_caches()
        rules.clear_caches()
        return rules.odds(request)

    return run


def _builtin_odds(game: str, board: Board, attack: str) -> Callable[[], Odds]:
    rules = get_ruleset(game)
    request = AttackRequest(board, 1, [2], attack)

    def run() -> Odds:
        _clear_builtins()
        return rules.odds(request)

    return run


# --- the stat lines -----------------------------------------------------------------------------

ARC_N, ARC_M, ARC_LIFE = 10, 6, 8


def arcadia() -> tuple[Callable[[], Odds], Callable[[], Odds], Callable[[], object]]:
    """10 melee dice against 6 defence dice, life 8 (as ``odds_arcadia_10v6``)."""
    target = {"life": ARC_LIFE, "defense": ARC_M}
    file = _file_odds("arcadia.toml", _board("arcadia", {"melee": ARC_N}, target), "Melee")
    builtin = _builtin_odds("arcadia", _board("arcadia", {"attacks": f"Axe:melee:{ARC_N}"}, target), "Axe")

    def peer() -> object:
        attack = icepool.Die([1, 1, 1, 0, 0, 1001]).explode([1001], depth=16).map(lambda x: x % 1000)
        defence = icepool.Die([1, 1001, 0, 0, 0, 0]).explode([1001], depth=16).map(lambda x: x % 1000)
        return (ARC_N @ attack - ARC_M @ defence).map(lambda x: max(0, min(x, ARC_LIFE)))

    return file, builtin, peer


CQ = {"attacks": 8, "clash": 4}
CQ_BLOCK, CQ_HEAVY = 6, 12


class _Blocks(icepool.MultisetEvaluator):
    """Kept Hits (lowest ``keep``, never a 6) against Block dice, read face by face from 1 up."""

    def __init__(self, keep: int) -> None:
        self.keep = keep

    def initial_state(self, order, outcomes, *sizes):  # type: ignore[no-untyped-def, override]
        if order != icepool.order.Order.Ascending:
            raise icepool.order.UnsupportedOrder()
        return (0, 0, 0)

    def next_state(self, state, order, outcome, hits, blocks):  # type: ignore[no-untyped-def, override]
        kept, pending, matched = state
        if outcome == 6:
            return kept, pending, matched
        pending += blocks
        new = min(hits, self.keep - kept)
        m = min(new, pending)
        return kept + new, pending - m, matched + m

    def final_outcome(self, final_state, order, outcomes, *sizes):  # type: ignore[no-untyped-def, override]
        kept, _, matched = final_state
        return kept - matched


def _conquest_peer(dice: int, keep: int, blocks: int) -> Callable[[], object]:
    def peer() -> object:
        evaluator = _Blocks(keep)
        not_one = icepool.Die([2, 3, 4, 5, 6])
        ones = icepool.Die([1, 0, 0, 0, 0, 0])
        return icepool.map(
            lambda a: evaluator.evaluate(icepool.Pool([not_one] * (dice - a) + [icepool.d6] * (2 * a)),
                                         icepool.d6.pool(blocks)),
            dice @ ones)

    return peer


def conquest(dice: int, keep: int, blocks: int) -> tuple[Callable[[], Odds], Callable[[], Odds], Callable[[], object]]:
    """A Clash with Relentless Blows against Parry."""
    attacker = {"attacks": dice, "clash": keep}
    target = {"defence": blocks, "wound_limit": 3, "resolve": 3}
    file = _file_odds("conquest.toml", _board("conquest", {**attacker, "relentless_blows": True},
                                              {**target, "parry": True}), "Clash")
    builtin = _builtin_odds("conquest", _board("conquest", {**attacker, "rules": "Relentless Blows"},
                                               {**target, "rules": "Parry"}), "Clash")
    return file, builtin, _conquest_peer(dice, keep, blocks)


FK_HIT, FK_DODGE, FK_BONUS, FK_ARMOUR = 4, 3, 2, 1


def folklore(hit_dice: int) -> tuple[Callable[[], Odds], Callable[[], Odds], Callable[[], object]]:
    """``hit_dice`` hit dice against a 2D6 dodge, damage with critical dice (as ``odds_folklore_6d6``)."""
    attacker = {"valour": FK_HIT, "hit_dice": hit_dice, "hp": 9}
    target = {"senses": FK_DODGE, "armour": FK_ARMOUR, "hp": 12, "valour": 2}
    file = _file_odds("folklore.toml", _board("folklore", {**attacker, "melee": True, "melee_bonus": FK_BONUS},
                                              target), "Melee")
    builtin = _builtin_odds("folklore", _board("folklore", {**attacker, "weapons": f"Sword:valour:{FK_BONUS}:melee"},
                                               target), "Sword")

    def key(hit: tuple[int, ...], dodge: tuple[int, ...]) -> int:
        if dodge.count(6) >= 2 or all(f == 1 for f in hit):
            return -1
        if hit.count(6) >= 2:
            return hit.count(6)
        if all(f == 1 for f in dodge):
            return 0
        return 0 if sum(hit) + FK_HIT > sum(dodge) + FK_DODGE else -1

    def peer() -> object:
        outcome = icepool.map(key, icepool.d6.pool(hit_dice), icepool.d6.pool(2))
        return outcome.map(lambda k: 0 if k < 0 else ((1 + k) @ icepool.d6 + FK_BONUS - FK_ARMOUR).map(
            lambda x: max(0, x)))

    return file, builtin, peer


CHAIN = {"attacks": 20, "skill": 3, "strength": 4, "damage": 2, "blessed": True, "relentless": True}
CHAIN_TARGET = {"toughness": 5, "save": 4, "wounds": 12}


def chain() -> tuple[Callable[[], Odds], Callable[[], object]]:
    """Ironclad: 20 attack dice hit on 3+ (reroll 1s), wound on 5+ (reroll failures), save 4+,
    2 damage each, capped at 12 wounds."""
    file = _file_odds("ironclad.toml", _board("arcadia", CHAIN, CHAIN_TARGET), "Strike")
    need, save, dmg, cap = 5, CHAIN_TARGET["save"], CHAIN["damage"], CHAIN_TARGET["wounds"]

    def peer() -> object:
        d6 = icepool.d6
        hit = d6.reroll([1], depth=1).map(lambda f: 1 if f >= CHAIN["skill"] and f != 1 else 0)
        wound = d6.reroll(lambda f: f < need, depth=1).map(lambda f: 1 if f >= need else 0)
        unsaved = d6.map(lambda f: 1 if f < save or f == 1 else 0)
        return ((CHAIN["attacks"] @ hit) @ wound @ unsaved).map(lambda u: min(u * dmg, cap))

    return file, peer


def kernel() -> tuple[Callable[[], object], Callable[[], object]]:
    """The engine's core alone: 20 exploding symbol dice (3 hit, 2 blank, 1 hit+explode)."""
    faces = ((1, False, 3), (0, False, 2), (1, True, 1))

    def mine() -> object:
        clear_caches()
        return pool_pmf(faces, 20)

    def peer() -> object:
        die = icepool.Die([1, 1, 1, 0, 0, 1001]).explode([1001], depth=16).map(lambda x: x % 1000)
        return 20 @ die

    return mine, peer


def _agree(odds: Odds, peer: object, tol: float = 1e-9) -> None:
    """The icepool formulation gives the file's distribution (icepool cuts explosions at its own
    depth, hence a tolerance)."""
    die = peer  # an icepool Die
    for value in set(odds.distribution) | set(die.outcomes()):  # type: ignore[attr-defined]
        mine = float(odds.distribution.get(value, Fraction(0)))
        theirs = float(die.probability(value))  # type: ignore[attr-defined]
        assert abs(mine - theirs) < tol, (value, mine, theirs)


# --- rows ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One comparison: the file's engine against a peer, with the target on peer / file."""

    name: str
    file: Callable[[], object]
    peer: Callable[[], object]
    least_ratio: float | None  # peer median / file median must be at least this (None: no target)
    most_ms: float | None = None  # the file's median must be at most this
    note: str = ""


def rows(check: bool = True) -> list[Row]:
    """Every row; with ``check``, the icepool peers are first checked against the file's odds."""
    arc_file, arc_builtin, arc_peer = arcadia()
    cq_file, cq_builtin, cq_peer = conquest(CQ["attacks"], CQ["clash"], CQ_BLOCK)
    heavy_file, heavy_builtin, _ = conquest(CQ_HEAVY, CQ_HEAVY, CQ_HEAVY)
    fk2_file, fk2_builtin, fk2_peer = folklore(2)
    fk6_file, fk6_builtin, fk6_peer = folklore(6)
    chain_file, chain_peer = chain()
    kernel_mine, kernel_peer = kernel()
    if check:
        _agree(arc_file(), arc_peer())
        _agree(chain_file(), chain_peer())
        _agree(fk2_file(), fk2_peer())
        _agree(cq_file(), cq_peer())
    return [
        Row("custom_arcadia_10v6_vs_builtin", arc_file, arc_builtin, 0.5, note="file ≤ 2× built-in"),
        Row("custom_arcadia_10v6_vs_icepool", arc_file, arc_peer, 1.0, note="file ≥ icepool's speed"),
        Row("custom_conquest_8k4_vs_builtin", cq_file, cq_builtin, 0.5,
            note="A 8, C 4, Relentless Blows vs Parry, 6 Block dice"),
        Row("custom_conquest_8k4_vs_icepool", cq_file, cq_peer, 1.0),
        Row("custom_conquest_12_special_vs_builtin", heavy_file, heavy_builtin, 0.5,
            note="A 12, C 12, Relentless Blows vs Parry, 12 Block dice (as odds_conquest_12_special)"),
        Row("custom_folklore_2d6_vs_builtin", fk2_file, fk2_builtin, 0.5),
        Row("custom_folklore_2d6_vs_icepool", fk2_file, fk2_peer, 1.0),
        Row("custom_folklore_6d6_vs_builtin", fk6_file, fk6_builtin, 0.5, note="as odds_folklore_6d6"),
        Row("custom_folklore_6d6_vs_icepool", fk6_file, fk6_peer, 1.0),
        Row("custom_chain_20_vs_icepool", chain_file, chain_peer, 1.0, 50.0,
            note="Warhammer-style chain, 20 attack dice: ≤ 50 ms"),
        Row("custom_kernel_pool_20_vs_icepool", kernel_mine, kernel_peer, None,
            note="the engine's core (per-die chain + Kronecker power) vs icepool's n @ die"),
    ]


def benchmarks() -> list[Benchmark]:
    """The rows for ``benchmarks/run.py`` (reference = the peer)."""
    return [Benchmark(r.name, r.file, r.peer, repeat=REPEAT, reference_repeat=REPEAT,
                      target_ms=r.most_ms, note=r.note) for r in rows(check=False)]


def _alternate(row: Row, repeat: int, clock: Callable[[], float]) -> tuple[list[float], list[float]]:
    row.file()
    row.peer()
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        for fn, out in ((row.file, mine), (row.peer, theirs)):
            start = clock()
            fn()
            out.append((clock() - start) * 1000.0)
    return mine, theirs


def main(argv: list[str] | None = None) -> int:
    """Run every row alternately, print medians, ratios and targets; exit 1 if a target is missed.

    ``--cpu`` times with the process's CPU clock instead of the wall clock (on a shared, loaded
    machine the wall clock also counts the time spent waiting for a core)."""
    args = sys.argv[1:] if argv is None else argv
    cpu = "--cpu" in args
    clock = time.process_time if cpu else time.perf_counter
    print(f"clock: {'process CPU time' if cpu else 'wall time'}; medians of {REPEAT}, "
          "file and peer alternately")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    missed = 0
    for row in rows():
        mine, theirs = _alternate(row, REPEAT, clock)
        a, b = statistics.median(mine), statistics.median(theirs)
        ratio = b / a
        verdicts = []
        if row.least_ratio is not None:
            ok = ratio >= row.least_ratio
            verdicts.append(f"peer/file ≥ {row.least_ratio:g}: {'ok' if ok else 'MISSED'}")
            missed += not ok
        if row.most_ms is not None:
            ok = a <= row.most_ms
            verdicts.append(f"≤ {row.most_ms:g} ms: {'ok' if ok else 'MISSED'}")
            missed += not ok
        print(f"{row.name:40} file {a:9.2f} ms  peer {b:9.2f} ms  peer/file {ratio:6.2f}  "
              + "; ".join(verdicts))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
