"""A ruleset written as a file: the :class:`~game.rules.base.Ruleset` interface over a
:class:`~game.rules.custom.spec.RulesetSpec` (``docs/rulesets.md``).

Attacks are melee (the target Close) or ranged (line of sight, and within ``range`` squares when
the attack has one); targets are living enemies. ``resolve`` rolls the steps
(:mod:`game.rules.custom.roll`), ``odds`` computes them exactly (:mod:`game.rules.custom.odds`).

>>> from game.core.board import Board, Figure
>>> from game.core.dice import SeededDice
>>> rules = load_ruleset('''
... name = "coins"
... [stats]
... life = 2
... wounds = 0
... [dice]
... coin = ["hit", "blank", "blank"]
... [attacks.Punch]
... kind = "melee"
... dice = 2
... [[resolution.steps]]
... step = "count"
... die = "coin"
... dice = "attack.dice"
... symbols = ["hit"]
... into = "hits"
... [resolution.outcome]
... value = "hits"
... label = "wounds"
... down = "target.wounds + hits >= target.life"
... [resolution.changes]
... "target.wounds" = "target.wounds + hits"
... ''', "coins.toml")
>>> board = Board(3, 1, figures=[Figure(1, "Ann", "red", (0, 0)), Figure(2, "Bob", "blue", (1, 0))])
>>> odds = rules.odds(AttackRequest(board, 1, [2], "Punch"))
>>> odds.distribution, odds.kill
({0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}, Fraction(1, 9))
>>> rules.resolve(AttackRequest(board, 1, [2], None), SeededDice(1)).sentence()
'Bob: 1 wound (wounds 0 → 1).'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from game.core.board import Board, Figure, Stat
from game.core.dice import DiceSource, ScriptedDice
from game.core.errors import IllegalAttackError, SightlineError, UsageError
from game.core.words import plural
from game.rules.base import (
    AttackOption,
    AttackRequest,
    Condition,
    DieLook,
    FaceCounter,
    FigureChange,
    Legality,
    Odds,
    Resolution,
    Ruleset,
    Step,
    Unreachable,
)
from game.rules.custom.expr import EvalError, Expr, globals_of
from game.rules.custom.load import load_spec
from game.rules.custom.odds import Scope, exact_odds
from game.rules.custom.roll import Rolling, run
from game.rules.custom.spec import AttackSpec, ResolutionSpec, RulesetSpec
from game.rules.figure_stats import bool_problems, int_problems, stat_bool, stat_int
from game.rules.reach import cell_noun, close_reason, range_distance, sight_reason


def _counted(value: int, label: str) -> str:
    """``2 wounds``, ``1 wound``, ``no wounds``.

    >>> _counted(1, "wounds"), _counted(0, "HP lost"), _counted(3, "HP lost")
    ('1 wound', 'no HP lost', '3 HP lost')
    """
    if not value:
        return f"no {label}"
    if value == 1 and label.endswith("s") and " " not in label:
        return f"1 {label[:-1]}"
    return f"{value} {label}"


def load_ruleset(text: str, source: str = "ruleset.toml") -> CustomRuleset:
    """The ruleset of a file's TOML text (``source`` names the file in errors)."""
    return CustomRuleset(load_spec(text, source))


_F = TypeVar("_F", bound=Callable[..., Any])
#: the globals every compiled expression has (the functions), before the stats
_BASE = globals_of({})


def _guard(fn: _F) -> _F:
    """Turn a failed expression into a one-line UsageError naming the file."""

    @functools.wraps(fn)
    def wrapped(self: CustomRuleset, *args: Any) -> Any:
        try:
            return fn(self, *args)
        except EvalError as exc:
            raise UsageError(f"{self.spec.source}: {exc} (fix the file or the stats)") from None

    return cast(_F, wrapped)


class CustomRuleset(Ruleset):
    """The rules of one ruleset file."""

    def __init__(self, spec: RulesetSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.title = spec.title
        self.pools = spec.pools
        used = [spec.dice[spec.pool_dice[p]] for p in spec.pools]
        symbolic = [d for d in used if not d.numeric]
        self.face_names: frozenset[str] | None = None
        if symbolic:
            names = {str(f) for d in used for f in d.faces}
            self.face_names = frozenset(names)
        self.known_properties = frozenset(spec.stats) | {"side", "ruleset", "capacity"}
        self.assumptions = spec.assumptions
        self.diagonal_distance = spec.distance == "chebyshev"
        if not (self.diagonal_distance and any(a.range is not None for a in spec.attacks)):
            self.grids = ("square", "hex")  # no range counts a diagonal step
        self.squares_because = (
            "a range counts a diagonal step as one (distance = \"chebyshev\", the default), and a "
            "hex board has no diagonals; write distance = \"steps\" to count steps across edges"
        )
        self.doc_page = spec.source
        self.deterministic = not any(r.rolls_dice() for r in spec.resolutions.values())
        # figures are immutable values: what their stats say is read once per figure
        self._stats = functools.lru_cache(maxsize=1024)(self._read_stats)
        self._has_cached = functools.lru_cache(maxsize=1024)(self._has_attack)
        self._able_cached = functools.lru_cache(maxsize=1024)(self._able_now)
        self._scope = functools.lru_cache(maxsize=1024)(self._make_scope)
        self._values = functools.lru_cache(maxsize=1024)(self._read_values)
        self._env = functools.lru_cache(maxsize=1024)(self._read_env)
        self._declared = tuple((n, st.default, st.is_bool) for n, st in spec.stats.items())
        self._ranged = tuple((n, st) for n, st in spec.stats.items()
                             if not st.is_bool and (st.low is not None or st.high is not None))
        self._index = {id(a): i for i, a in enumerate(spec.attacks)}
        self._value_names = sorted({k for a in spec.attacks for k in a.values})

    def clear_caches(self) -> None:
        """Forget what was read from figures (benchmarks measure cold calls)."""
        self._stats.cache_clear()
        self._has_cached.cache_clear()
        self._able_cached.cache_clear()
        self._scope.cache_clear()
        self._values.cache_clear()
        self._env.cache_clear()

    # --- figures -------------------------------------------------------------------------

    def stats_of(self, figure: Figure, scope: str) -> Mapping[str, object]:
        """Every declared stat of ``figure`` (defaults filled in), keyed ``"scope.stat"``
        (read once per figure value; do not change the mapping)."""
        return self._stats(figure, scope)

    def _make_scope(self, figure: Figure, role: str) -> Scope:
        return Scope(self.stats_of(figure, role), {**_BASE, **self._env(figure, role)})

    def _read_env(self, figure: Figure, role: str) -> Mapping[str, object]:
        """The figure's stats as the compiled expressions name them (``target__life``)."""
        return globals_of(self.stats_of(figure, role))

    def _read_stats(self, figure: Figure, scope: str) -> Mapping[str, object]:
        values = self._values(figure)
        return {f"{scope}.{name}": value for name, value in values.items()}

    def _read_values(self, figure: Figure) -> Mapping[str, object]:
        """The declared stats of the figure by name: given ones parsed (the rules' stat
        parsers), missing or empty ones their defaults."""
        given = dict(figure.stats)
        out: dict[str, object] = {}
        for name, default, is_bool in self._declared:
            raw = given.get(name)
            if raw is None or raw == "":
                out[name] = default
            elif is_bool:
                out[name] = stat_bool(figure, name, bool(default))
            else:
                out[name] = stat_int(figure, name, int(default))
        return out

    def figure_problems(self, figure: Figure) -> list[str]:
        """Stats that are not numbers (or true/false) where the file declares them so."""
        ints = [n for n, s in self.spec.stats.items() if not s.is_bool]
        bools = [n for n, s in self.spec.stats.items() if s.is_bool]
        return int_problems(figure, ints) + bool_problems(figure, bools)

    def nonsense(self, figure: Figure) -> list[str]:
        """Stats outside the range the file gives them (``min`` / ``max``)."""
        out = []
        for name, stat in self._ranged:
            if name not in figure.stats or figure.stats[name] == "":
                continue
            value = stat_int(figure, name)
            if stat.low is not None and value < stat.low:
                out.append(f"property {name!r} is {value}: less than the {stat.low} these rules "
                           f"allow (use {stat.low} or more)")
            elif stat.high is not None and value > stat.high:
                out.append(f"property {name!r} is {value}: more than the {stat.high} these rules "
                           f"allow (use {stat.high} or less)")
        return out

    def unreachable_attacks(self, board: Board) -> list[Unreachable]:
        """Attacks of the file no figure on ``board`` has; a ranged attack whose range is below
        1 (it reaches its own square only); attacks of a figure with no enemy on the board."""
        out: list[Unreachable] = []
        figures = sorted(board.figures.values(), key=lambda f: f.id)
        holders: dict[str, list[Figure]] = {a.name: [] for a in self.spec.attacks}
        for figure in figures:
            for attack in self.spec.attacks:
                try:
                    if self._has(figure, attack):
                        holders[attack.name].append(figure)
                except (SightlineError, EvalError):
                    continue  # a stat that does not read: a property-value finding says so
        for attack in self.spec.attacks:
            if not holders[attack.name]:
                out.append(Unreachable(
                    f"no figure on this map has the attack {attack.name} of {self.spec.source}",
                    None, f"give a figure the stats it needs ({self._needs(attack)}), or leave "
                          "the attack out of the file"))
            for figure in holders[attack.name]:
                out += self._reach_of(board, figure, attack)
        return out

    def _needs(self, attack: AttackSpec) -> str:
        """The attacker stats that decide who has ``attack``, in words."""
        expr = attack.has if attack.has is not None else attack.dice
        names = sorted({name for scope, name in (expr.stats if expr is not None else ())
                        if scope == "attacker"})
        return ", ".join(names) or "none"

    def _reach_of(self, board: Board, figure: Figure, attack: AttackSpec) -> list[Unreachable]:
        """Why ``figure`` can make ``attack`` on nobody: no enemy on the board, a range below 1."""
        if not any(f.side != figure.side for f in board.figures.values()):
            return [Unreachable(f"figure {figure.label} has the attack {attack.name} but no "
                                "enemy on this map", figure.id,
                                "give another figure a different side")]
        reads_target = attack.range is not None and any(s == "target" for s, _ in attack.range.stats)
        if attack.kind != "ranged" or attack.range is None or reads_target:
            return []
        try:
            reach = self._scope(figure, "attacker").number(attack.range, {})
        except (SightlineError, EvalError):
            return []
        if reach >= 1:
            return []
        return [Unreachable(f"figure {figure.label}'s ranged attack {attack.name} has a range of "
                            f"{reach}: it reaches its own square only", figure.id,
                            "give the figure the range stat the file reads, 1 or more")]

    def die_look(self, die: str) -> DieLook | None:
        """The file's die ``die``: its faces and, per symbol face, its symbols (repeated as often
        as they count)."""
        spec = self.spec.dice.get(die)
        if spec is None:
            return None
        symbols = tuple(tuple(s for s, n in counted.items() for _ in range(n))
                        for counted in spec.symbols)
        return DieLook(spec.name, spec.faces, symbols)

    @_guard
    def condition(self, figure: Figure) -> Condition:
        """Life, wounds, down and notes from the file's [condition]."""
        cond = self.spec.condition
        scope = self._scope(figure, "figure")
        life = scope.number(cond.life, {})
        wounds = scope.number(cond.wounds, {})
        down = scope.holds(cond.down, {}) if cond.down is not None else False
        notes = [text for text, when in cond.notes if scope.holds(when, {})]
        return Condition(max(0, life), max(0, wounds), down, ", ".join(notes))

    def _able(self, figure: Figure, expr: Expr | None) -> bool:
        """``can_attack`` / ``can_be_attacked`` of the [condition], by default: not down."""
        return bool(self._able_cached(figure, expr is self.spec.condition.can_attack))

    def _able_now(self, figure: Figure, attacking: bool) -> bool:
        cond = self.spec.condition
        expr = cond.can_attack if attacking else cond.can_be_attacked
        if expr is None:
            expr = cond.down
            return expr is None or not self._scope(figure, "figure").holds(expr, {})
        return self._scope(figure, "figure").holds(expr, {})

    # --- attacks and legality ------------------------------------------------------------

    def _has(self, figure: Figure, attack: AttackSpec) -> bool:
        return bool(self._has_cached(figure, self._index[id(attack)]))

    def _has_attack(self, figure: Figure, index: int) -> bool:
        attack = self.spec.attacks[index]
        scope = self._scope(figure, "attacker")
        if attack.has is not None:
            return scope.holds(attack.has, {})
        if attack.dice is not None and not any(s == "target" for s, _ in attack.dice.stats):
            return scope.number(attack.dice, {}) > 0
        return True

    @_guard
    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """The file's attacks this figure has; none usable while it is down."""
        figure = board.figure(attacker)
        down = not self._able(figure, self.spec.condition.can_attack)
        out = []
        for attack in self.spec.attacks:
            if not self._has(figure, attack):
                continue
            dice = None
            if attack.dice is not None and not any(s == "target" for s, _ in attack.dice.stats):
                dice = max(0, self._scope(figure, "attacker").number(attack.dice, {}))
            reason = f"{figure.label} is down and cannot attack." if down else ""
            out.append(AttackOption(attack.name, attack.kind, dice, not down, reason))
        return out

    def _attack(self, figure: Figure, name: str) -> AttackSpec:
        mine = [a for a in self.spec.attacks if self._has(figure, a)]
        for attack in mine:
            if attack.name.casefold() == name.strip().casefold():
                return attack
        listed = ", ".join(a.name for a in mine) or "none"
        raise UsageError(f"{figure.label} has no attack {name!r} (attacks: {listed})")

    def _why_not(self, board: Board, attacker: int, targets: Sequence[int], attack: AttackSpec) -> str | None:
        a = board.figure(attacker)
        if len(targets) != 1:
            return f"an attack has exactly one target ({len(targets)} given)"
        nonsense = self.nonsense_reason(board, [attacker, *targets])
        if nonsense:
            return nonsense.rstrip(".")
        t = board.figure(targets[0])
        if t.id == a.id:
            return f"{a.label} cannot attack itself"
        if not self._able(a, self.spec.condition.can_attack):
            return f"{a.label} is down and cannot attack"
        if not self._able(t, self.spec.condition.can_be_attacked):
            return f"{t.label} is already down"
        if t.side == a.side:
            return f"{t.label} is an ally of {a.label}"
        if attack.kind == "melee":
            why = close_reason(board, a, t)
            return f"{attack.name} is a melee attack: {why}" if why else None
        if attack.range is not None:
            reach = self._numbers(a, t, None).number(attack.range, {})
            if (off_grid := self.grid_refusal(board.grid.kind)) is not None:
                return off_grid
            dist = range_distance(board, a.square, t.square, diagonal=self.diagonal_distance)
            if dist > reach:
                return (f"{t.label} is out of range: {plural(dist, cell_noun(board))} away, the range of "
                        f"{attack.name} is {reach}")
        return sight_reason(board, a, t)

    @_guard
    def check(self, request: AttackRequest) -> Legality:
        """Melee needs the target Close, ranged needs line of sight (and range); a living enemy."""
        board, attacker, targets, name, options = request.parts()
        if name is None:
            name, why = self.first_legal_attack(board, attacker, targets, options)
            if name is None:
                figure = board.figure(attacker)
                return Legality(False, why or f"{figure.label} has no usable attack.")
        attack = self._attack(board.figure(attacker), name)
        refusal = self._why_not(board, attacker, targets, attack)
        if refusal:
            return Legality(False, refusal[0].upper() + refusal[1:] + ".")
        a, t = board.figure(attacker), board.figure(targets[0])
        return Legality(True, f"{a.label} can attack {t.label} with {attack.name} ({attack.kind}).")

    # --- the numbers of one attack -------------------------------------------------------

    def _numbers(self, a: Figure, t: Figure, attack: AttackSpec | None) -> Scope:
        numbers: dict[str, object] = {**self.stats_of(a, "attacker"), **self.stats_of(t, "target")}
        scope = Scope(numbers, {**_BASE, **self._env(a, "attacker"), **self._env(t, "target")})
        if attack is not None:
            found = {"name": attack.name, "kind": attack.kind,
                     "dice": max(0, scope.number(attack.dice, {})),
                     "range": scope.number(attack.range, {})}
            for key in self._value_names:
                expr = attack.values.get(key)
                found[key] = 0 if expr is None else scope.value(expr, {})
            for key, value in found.items():
                scope.add(f"attack.{key}", value)
        return scope


    def _prepare(self, request: AttackRequest) -> tuple[Legality, Figure, Figure, AttackSpec, Scope]:
        board, attacker, targets, name, options = request.parts()
        name = self.named_attack(board, attacker, targets, name, options)
        verdict = self.check(request.with_attack(name))
        a = board.figure(attacker)
        if not verdict.legal or name is None:
            return verdict, a, a, self.spec.attacks[0], Scope({})
        t = board.figure(targets[0])
        attack = self._attack(a, name)
        return verdict, a, t, attack, self._numbers(a, t, attack)

    # --- odds and resolution -------------------------------------------------------------

    @_guard
    def odds(self, request: AttackRequest) -> Odds:
        """The exact distribution of the outcome's value, the take-out chance and the chances."""
        verdict, _, _, attack, scope = self._prepare(request)
        if not verdict.legal:
            raise IllegalAttackError(verdict.reason)
        return exact_odds(self.spec, self.spec.resolutions[attack.resolution], scope)

    @_guard
    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Roll the steps once; the outcome's damage and status; the file's changes."""
        seed = getattr(dice, "seed", None)
        verdict, a, t, attack, scope = self._prepare(request)
        if not verdict.legal:
            return Resolution.refused(verdict, seed=seed)
        res = self.spec.resolutions[attack.resolution]
        if isinstance(dice, ScriptedDice):
            self._numbers_as_ints(dice)
        counter = FaceCounter(dice)
        state = Rolling(self.spec, scope, counter, {"attacker": a.label, "target": t.label})
        run(state, res.steps)
        counter.raise_shortage()
        return self._finish(verdict, state, res, a, t, seed)

    def _numbers_as_ints(self, dice: ScriptedDice) -> None:
        """Faces typed as text for number dice (a ruleset with symbol and number dice) → ints."""
        for i, pool in enumerate(dice.pool_names):
            die = self.spec.dice.get(self.spec.pool_dice.get(pool, ""))
            if die is not None and die.numeric:
                dice.pools[i] = [int(f) if isinstance(f, str) and f.lstrip("-").isdigit() else f
                                 for f in dice.pools[i]]

    def _finish(self, verdict: Legality, state: Rolling, res: ResolutionSpec, a: Figure,
                t: Figure, seed: int | None) -> Resolution:
        out, scope, values = res.outcome, state.scope, state.values
        value = scope.number(out.value, values)
        tracked = scope.holds(out.tracked, {})
        down = tracked and out.down is not None and scope.holds(out.down, values)
        changes = self._changes(res, scope, values, a, t)
        after = next((dict(c.stats) for c in changes if c.figure_id == t.id), {})
        moved = self._moved(after, t)
        said = f"{t.label}: {_counted(value, out.label)}{moved}"
        if value or moved:
            state.log.append(Step("damage", said + ".", (), {"figure_id": t.id, "value": value}))
        if down:
            state.log.append(Step("status", f"{t.label} is down ({out.down_label}).", (),
                                  {"figure_id": t.id, "down": True}))
        summary = said + (f" — {out.down_label}." if down else ".")
        outcome: dict[str, object] = {**values, "value": value, "down": down,
                                      "attacker": a.id, "target": t.id}
        return Resolution(True, verdict.reason, tuple(state.log), outcome, changes, seed, summary)

    def _moved(self, after: Mapping[str, Stat | None], t: Figure) -> str:
        """`` (wounds 1 → 3; now shaken)``: the number stats a change moves, then the true/false
        stats it turns on or off (not those that decide "down": the status step says that)."""
        moves, flags = [], []
        down = self.spec.condition.down
        says_down = {name for _, name in down.stats} if down is not None else set()
        for stat, new in after.items():
            spec = self.spec.stats.get(stat)
            if spec is None:
                continue
            if spec.is_bool:
                was = stat_bool(t, stat, bool(spec.default))
                if stat not in says_down and bool(new) != was:
                    flags.append(f"now {stat}" if new else f"no longer {stat}")
                continue
            if not isinstance(new, int):
                continue
            old = stat_int(t, stat, int(spec.default))
            if old != new:
                moves.append(f"{stat} {old} → {new}")
        said = "; ".join(part for part in (", ".join(moves), ", ".join(flags)) if part)
        return f" ({said})" if said else ""

    def _changes(self, res: ResolutionSpec, scope: Scope, values: Mapping[str, int], a: Figure,
                 t: Figure) -> tuple[FigureChange, ...]:
        stats: dict[str, dict[str, Stat | None]] = {"attacker": {}, "target": {}}
        for change in res.changes:
            new = scope.value(change.value, values)
            if self.spec.stats[change.stat].is_bool:
                stats[change.scope][change.stat] = True if new else None
            else:
                stats[change.scope][change.stat] = int(new)  # type: ignore[call-overload]
        out = []
        for scope_name, figure in (("attacker", a), ("target", t)):
            if stats[scope_name]:
                out.append(FigureChange(figure.id, stats[scope_name]))
        return tuple(out)
