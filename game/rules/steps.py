"""A resolution as a sequence of small named steps: hit, dodge, damage, death check …

Each ruleset writes its resolution as a tuple of :class:`Stage` values, each a name and a small
function, and runs them in order over one :class:`Flow` (the resolution being built):
:func:`run_stages`. A stage reads what the stages before it left on the flow, rolls its dice,
writes its log lines (:meth:`Flow.log`, each a :class:`~game.rules.base.Step` that carries the
stage's name in ``Step.stage``) and may end the resolution early (:meth:`Flow.stop`: a miss
deals no damage). :meth:`Flow.resolution` then gives the :class:`~game.rules.base.Resolution`.

So the named steps are data every reader shares: the log prints each ``Step`` (its ``stage``
says which rule wrote it), the dice tray animates the rolls step by step, the ``attack``
command's JSON lists them, and :attr:`Ruleset.stages <game.rules.base.Ruleset.stages>` names
them for the documentation and the window; the exact odds are computed by the same per-stage
arithmetic (each ruleset's pure dice modules), never by sampling these functions.

>>> from dataclasses import dataclass
>>> @dataclass(kw_only=True)
... class Coin(Flow):
...     face: str = ""
>>> def toss(flow: Coin) -> None:
...     flow.face = "heads"
...     flow.log("roll", "The coin shows heads.")
>>> def call(flow: Coin) -> None:
...     flow.log("compare", "Heads wins.")
...     flow.stop()
>>> def never(flow: Coin) -> None:
...     raise AssertionError("a stopped flow runs no more stages")
>>> COIN = (Stage("toss", toss), Stage("call", call), Stage("pay", never))
>>> done = run_stages(COIN, Coin())
>>> [(s.stage, s.kind, s.text) for s in done.steps]
[('toss', 'roll', 'The coin shows heads.'), ('call', 'compare', 'Heads wins.')]
>>> stage_names(COIN)
('toss', 'call', 'pay')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from game.core.dice import DieRoll
from game.rules.base import FigureChange, Resolution, Step


@dataclass(kw_only=True)
class Flow:
    """One resolution being built: the log so far, the outcome, the changes, the summary.

    Rulesets subclass it (a dataclass with ``kw_only=True``) with the inputs their stages read
    (the dice, the figures, the attack) and what earlier stages leave for later ones.
    """

    steps: list[Step] = field(default_factory=list)
    outcome: dict[str, object] = field(default_factory=dict)
    changes: list[FigureChange] = field(default_factory=list)
    summary: str = ""
    #: the name of the stage running now (every :meth:`log` line carries it)
    stage: str = ""
    #: a stage ended the resolution: the later stages do not run
    done: bool = False

    def log(
        self,
        kind: str,
        text: str,
        rolls: Sequence[DieRoll] = (),
        data: Mapping[str, object] | None = None,
    ) -> Step:
        """Append one log line of the running stage (kinds as :data:`~game.rules.base.STEP_KINDS`)."""
        if data is None:
            step = Step(kind, text, tuple(rolls), stage=self.stage)
        else:
            step = Step(kind, text, tuple(rolls), data, stage=self.stage)
        self.steps.append(step)
        return step

    def stop(self) -> None:
        """End the resolution after this stage (a miss: no damage step follows)."""
        self.done = True

    def resolution(self, reason: str, seed: int | None = None) -> Resolution:
        """The legal :class:`~game.rules.base.Resolution` this flow built."""
        return Resolution(True, reason, tuple(self.steps), self.outcome, tuple(self.changes), seed,
                          self.summary)


F = TypeVar("F", bound=Flow)


@dataclass(frozen=True)
class Stage(Generic[F]):
    """One named step of a ruleset's resolution: ``run`` reads and extends the flow."""

    name: str
    run: Callable[[F], None]


def run_stages(stages: Sequence[Stage[F]], flow: F) -> F:
    """Run ``stages`` in order over ``flow`` until one stops it; returns the flow."""
    for stage in stages:
        if flow.done:
            break
        flow.stage = stage.name
        stage.run(flow)
    flow.stage = ""
    return flow


def stage_names(stages: Sequence[Stage[F]]) -> tuple[str, ...]:
    """The names of ``stages``, in order (what :attr:`Ruleset.stages` lists)."""
    return tuple(stage.name for stage in stages)
