"""Duel, a toy ruleset: 1D6 + might against the target's guard, within reach.

A figure has ``might``, ``guard``, ``hp`` and ``reach`` (squares, a diagonal step counting as
one). The attack hits when 1D6 + might beats guard and deals 1 damage; HP 0 is out. The
resolution is three named steps (roll, compare, damage), as the real rulesets are written.

>>> from game.core.board import Board, Figure
>>> from game.core.dice import ScriptedDice
>>> board = Board(3, 1, ruleset="duel", figures=[
...     Figure(1, "Aya", "red", (0, 0), {"might": 2, "reach": 2}),
...     Figure(2, "Bo", "blue", (2, 0), {"guard": 5, "hp": 1})])
>>> result = RULESET.resolve(AttackRequest(board, 1, [2]), ScriptedDice([[4]], RULESET.pools))
>>> [(s.stage, s.text) for s in result.steps]
[('roll', 'Aya rolls 4 + might 2 = 6.'), ('compare', '6 beats guard 5: a hit.'), ('damage', 'Bo takes 1 damage: HP 1 → 0, out.')]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.core.board import Board, Figure
from game.core.dice import D6, DiceSource, DieRoll
from game.core.errors import IllegalAttackError
from game.rules.base import (
    AttackOption,
    AttackRequest,
    Condition,
    FigureChange,
    Legality,
    Odds,
    Resolution,
    Ruleset,
    int_problems,
    stat_int,
)
from game.rules.steps import Flow, Stage, run_stages, stage_names

_STATS = ("might", "guard", "hp", "reach")


@dataclass(kw_only=True)
class _Duel(Flow):
    dice: DiceSource
    fig: Figure
    target: Figure
    total: int = 0


def _roll(flow: _Duel) -> None:
    """1D6 + might."""
    face = int(flow.dice.roll(D6, 0))
    might = stat_int(flow.fig, "might")
    flow.total = face + might
    flow.log("roll", f"{flow.fig.label} rolls {face} + might {might} = {flow.total}.",
             (DieRoll("duel", "d6", face, "rolled"),))


def _compare(flow: _Duel) -> None:
    """A hit when the total beats guard."""
    guard = stat_int(flow.target, "guard")
    hit = flow.total > guard
    flow.outcome.update({"total": flow.total, "guard": guard, "hit": hit, "damage": int(hit)})
    flow.log("compare", f"{flow.total} {'beats' if hit else 'does not beat'} guard {guard}: "
                        f"{'a hit' if hit else 'a miss'}.", data={"hit": hit})
    if not hit:
        flow.summary = f"{flow.fig.label} misses {flow.target.label}."
        flow.stop()


def _damage(flow: _Duel) -> None:
    """1 damage; HP 0 is out."""
    hp = stat_int(flow.target, "hp", 1)
    left = max(0, hp - 1)
    flow.log("damage", f"{flow.target.label} takes 1 damage: HP {hp} → {left}"
                       + (", out." if left == 0 else "."))
    flow.changes.append(FigureChange(flow.target.id, {"hp": left}))
    flow.summary = f"{flow.fig.label} hits {flow.target.label}: HP {hp} → {left}."


STAGES: tuple[Stage[_Duel], ...] = (Stage("roll", _roll), Stage("compare", _compare),
                                    Stage("damage", _damage))


class Duel(Ruleset):
    """The toy game: one attack, a D6 against guard, within reach counted with diagonals."""

    name = "duel"
    title = "Duel (a toy)"
    pools = ("duel",)
    known_properties = frozenset({"side", *_STATS})
    stages = stage_names(STAGES)
    diagonal_distance = True

    def figure_problems(self, figure: Figure) -> list[str]:
        """Whole numbers, never negative."""
        return int_problems(figure, _STATS, non_negative=_STATS)

    def condition(self, figure: Figure) -> Condition:
        """Out at HP 0."""
        return Condition(down="hp" in figure.stats and stat_int(figure, "hp") <= 0)

    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """One attack: Strike."""
        return [AttackOption("Strike", "ranged", 1)]

    def check(self, request: AttackRequest) -> Legality:
        """An enemy that is not out, within reach (a diagonal step counts as one)."""
        board, attacker, targets, _, _ = request.parts()
        fig, target = board.figure(attacker), board.figure(targets[0])
        far = max(abs(fig.square[0] - target.square[0]), abs(fig.square[1] - target.square[1]))
        if target.side == fig.side or self.condition(target).down:
            return Legality(False, f"{target.label} is no enemy in the fight.")
        if far > stat_int(fig, "reach", 1):
            return Legality(False, f"{target.label} is {far} squares away, out of reach.")
        return Legality(True, f"{fig.label} can strike {target.label}.")

    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Roll, compare, damage (:data:`STAGES`)."""
        verdict = self.check(request)
        if not verdict.legal:
            return Resolution.refused(verdict, seed=getattr(dice, "seed", None))
        board, attacker, targets, _, _ = request.parts()
        flow = _Duel(dice=dice, fig=board.figure(attacker), target=board.figure(targets[0]))
        return run_stages(STAGES, flow).resolution(verdict.reason, getattr(dice, "seed", None))

    def odds(self, request: AttackRequest) -> Odds:
        """Exact: the faces whose total beats guard, each 1/6."""
        verdict = self.check(request)
        if not verdict.legal:
            raise IllegalAttackError(verdict.reason)
        board, attacker, targets, _, _ = request.parts()
        need = stat_int(board.figure(targets[0]), "guard") - stat_int(board.figure(attacker), "might")
        hit = Fraction(sum(1 for face in range(1, 7) if face > need), 6)
        hp = stat_int(board.figure(targets[0]), "hp", 1)
        return Odds({0: 1 - hit, 1: hit}, hit, hit if hp <= 1 else Fraction(0), "damage")


RULESET = Duel()
