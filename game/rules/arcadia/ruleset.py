"""Arcadia Quest combat (docs/arcadia.md): attack cards, Close, LOS, exploding dice.

Figure properties: ``side``, ``life``, ``defense`` (or ``defence``), ``attacks`` =
``"Dusty Blade:melee:3; Short Bow:ranged:2"``, optional ``wounds``, ``exhausted`` (comma list of
card names), ``dazed`` (bool), ``killed`` (bool, set by the engine), ``attack_bonus`` /
``defense_bonus`` (extra dice from other cards; defence icons count even on exhausted cards).
Map properties ``attack_die`` / ``defense_die`` override the face tables, e.g.
``attack_die = "sword,sword,sword,bow,bow,crit"``.

* Melee needs the target Close (same Space, or an orthogonal neighbour across an open edge);
  ranged needs line of sight with the attacker's side as the viewer. Targets must be enemies
  (another side) and not killed. Using a card exhausts it; ``rest`` unexhausts a side's cards.
* Attack dice: a sword hits in melee, a bow in ranged, a crit always hits and adds one more die,
  recursively without cap. Defence dice: a shield saves, a crit saves and adds a die. A dazed
  target rolls no defence; a target without ``defense`` rolls nothing.
* Wounds = max(0, hits − saves); wounds reaching life kill (``killed = true``; the figure stays).

>>> from game.core.board import Board, Figure
>>> from game.core.dice import ScriptedDice
>>> board = Board.from_ascii(["...."])
>>> board.place_figure(Figure(1, "Mark", "red", (1, 0), {"attacks": "Dusty Blade:melee:3", "life": 5}))
>>> board.place_figure(Figure(2, "Goblin", "monsters", (2, 0), {"life": 2}))
>>> dice = ScriptedDice([["crit", "bow", "bow", "sword"]], RULESET.pools)
>>> result = RULESET.resolve(AttackRequest(board, 1, [2], "Dusty Blade", {}), dice)
>>> dict(result.outcome)["hits"], dict(result.outcome)["damage"], dict(result.outcome)["killed"]
(2, 2, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.core.board import Board, Edge, Figure, Stat, fmt_square
from game.core.dice import DiceSource, Die, DieRoll, SeededDice, roll_pool
from game.core.errors import IllegalAttackError, UsageError
from game.core.odds import DEFAULT_TAIL, wounds_distribution
from game.core.words import plural
from game.rules.base import (
    AttackOption,
    AttackRequest,
    FigureChange,
    Legality,
    Odds,
    Resolution,
    Ruleset,
    Step,
    bool_problems,
    int_problems,
    parse_problem,
    stat_bool,
    stat_int,
    stat_list,
)
from game.rules.steps import Flow, Stage, run_stages, stage_names

#: the fan face tables (docs/arcadia.md, fan faces); a map property can override them
DEFAULT_ATTACK_DIE = Die("attack", ("sword", "sword", "sword", "bow", "bow", "crit"))
DEFAULT_DEFENCE_DIE = Die("defence", ("shield", "crit", "blank", "blank", "blank", "blank"))
ATTACK_FACES = frozenset({"sword", "bow", "crit", "blank"})
DEFENCE_FACES = frozenset({"shield", "crit", "blank"})
#: the face that hits, by attack kind
HIT_FACE = {"melee": "sword", "ranged": "bow"}
CRIT = "crit"
SHIELD = "shield"
KINDS = ("melee", "ranged")

_CARD_RE = re.compile(r"^\s*([^:]+?)\s*:\s*([A-Za-z]+)\s*:\s*(\d{1,7})\s*$")
#: the most dice one pool may roll: the exact odds stay quick (and the table readable)
MAX_DICE = 60


@dataclass(frozen=True)
class AttackCard:
    """One attack card: name, kind (melee or ranged) and dice shown on it."""

    name: str
    kind: str
    dice: int


def parse_attacks(figure: Figure) -> list[AttackCard]:
    """The attack cards of a figure, from its ``attacks`` property.

    >>> parse_attacks(Figure(1, "Kisha", "blue", (0, 0), {"attacks": "Short Bow:ranged:2; Fancy Blade:Melee:3"}))
    [AttackCard(name='Short Bow', kind='ranged', dice=2), AttackCard(name='Fancy Blade', kind='melee', dice=3)]
    """
    text = figure.stats.get("attacks")
    if text is None or str(text).strip() == "":
        return []
    cards = []
    for part in str(text).split(";"):
        if not part.strip():
            continue
        match = _CARD_RE.match(part)
        if not match or match.group(2).lower() not in KINDS:
            raise UsageError(
                f"{figure.label}: attack {part.strip()!r} is not NAME:melee|ranged:DICE "
                f"(e.g. \"Dusty Blade:melee:3\")"
            )
        cards.append(AttackCard(match.group(1), match.group(2).lower(), int(match.group(3))))
    return cards


def _die_from_map(board: Board, keys: Sequence[str], default: Die, allowed: frozenset[str]) -> Die:
    for key in keys:
        text = board.properties.get(key)
        if text is not None and str(text).strip():
            return Die.parse(default.name, str(text), allowed=allowed)
    return default


def attack_die(board: Board) -> Die:
    """The attack die of this board: map property ``attack_die`` or the fan default."""
    return _die_from_map(board, ("attack_die",), DEFAULT_ATTACK_DIE, ATTACK_FACES)


def defence_die(board: Board) -> Die:
    """The defence die of this board: map property ``defense_die`` / ``defence_die`` or the default."""
    return _die_from_map(board, ("defense_die", "defence_die"), DEFAULT_DEFENCE_DIE, DEFENCE_FACES)


def close_reason(board: Board, a: Figure, b: Figure) -> str | None:
    """Why ``b`` is not Close to ``a`` (None when it is), in the words of the rules.

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> f = lambda i, x: Figure(i, f"F{i}", "s", (x, 0))
    >>> close_reason(board, f(1, 2), f(2, 4)), close_reason(board, f(1, 2), f(2, 3))
    ('Close: F2 is 2 squares away', 'Close: wall V(3,0) between (2,0) and (3,0)')
    """
    (ax, ay), (bx, by) = a.square, b.square
    dx, dy = abs(ax - bx), abs(ay - by)
    if dx == 0 and dy == 0:
        return None
    if dx + dy == 1:
        edge = Edge.between(a.square, b.square)
        if not board.edge_blocks_movement(edge):
            return None
        kind = board.edge_kind(edge) or "wall"
        if kind == "door":
            door = board.doors[edge]
            kind = f"{door.state.value} door"
        return f"Close: {kind} {edge} between {fmt_square(a.square)} and {fmt_square(b.square)}"
    if dx == 1 and dy == 1:
        return f"Close: {b.label} is diagonal to {a.label} (diagonal Spaces are never Close)"
    return f"Close: {b.label} is {dx + dy} squares away"


def _is_close(board: Board, a: Figure, b: Figure) -> bool:
    try:
        from game.core.los import is_close
    except ImportError:  # pragma: no cover - the LOS module ships with the package
        return close_reason(board, a, b) is None
    return bool(is_close(board, a.square, b.square))


def _los_reason(board: Board, a: Figure, b: Figure) -> str | None:
    """None when ``a`` sees ``b`` under the map's rule (viewer = a's side), else the LOS explanation."""
    from game.core import sight

    result = sight.line(board, a.square, b.square, viewer=a.side)
    if result.clear:
        return None
    text = str(result.summary()).strip().rstrip(".")
    for prefix in ("Blocked: ", "blocked: "):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text[:1].lower() + text[1:] if text else "blocked"


def _rule_words(board: Board) -> str:
    """`` under RULE`` when the map's sight rule is not the default one, else nothing."""
    from game.core import sight

    rule = sight.rule_of(board)
    return "" if rule == sight.default_rule(board.grid.kind) else f" under {rule.spec()}"


def _names(rolls: Sequence[DieRoll]) -> str:
    return ", ".join(str(r.face) for r in rolls) if rolls else "nothing"


@dataclass(frozen=True)
class _Plan:
    attacker: Figure
    target: Figure
    card: AttackCard
    attack_dice: int
    defence_dice: int
    defence_note: str
    life: int | None
    wounds: int


@dataclass(kw_only=True)
class _Attack(Flow):
    """One Arcadia Quest attack being resolved: the plan and what each stage leaves for the next."""

    dice: DiceSource
    board: Board
    plan: _Plan
    hits: list[int] = field(default_factory=list)
    saves: list[int] = field(default_factory=list)
    damage: int = 0
    wounds: int = 0
    killed: bool = False


def _attack_roll(flow: _Attack) -> None:
    """The attack dice (a crit adds a die, recursively)."""
    plan = flow.plan
    a, card = plan.attacker, plan.card
    rolls = roll_pool(flow.dice, attack_die(flow.board), plan.attack_dice, pool=0,
                      pool_name="attack", explodes=lambda f: f == CRIT)
    base = rolls[: plan.attack_dice]
    flow.log("roll", f"{a.label} rolls {plural(plan.attack_dice, 'attack die', 'attack dice')} "
                     f"({card.name}, {card.kind}): {_names(base)}.",
             base, {"pool": "attack", "count": plan.attack_dice})
    flow.steps.extend(_explosion_steps(rolls[plan.attack_dice:], "attack", flow.stage))
    hit_face = HIT_FACE[card.kind]
    flow.hits = [i for i, r in enumerate(rolls, 1) if r.face in (hit_face, CRIT)]


def _hits(flow: _Attack) -> None:
    """Swords hit in melee, bows in a ranged attack, crits always."""
    hits, card = flow.hits, flow.plan.card
    flow.log("tally", f"{plural(len(hits), 'hit')}: {HIT_FACE[card.kind]}s and crits hit in a "
                      f"{card.kind} attack" + (f" (dice {', '.join(map(str, hits))})." if hits else "."),
             data={"hits": len(hits), "dice": hits})


def _defence_roll(flow: _Attack) -> None:
    """The defence dice (a crit adds a die); none for a dazed target or one without defence."""
    plan = flow.plan
    rolls: list[DieRoll] = []
    if plan.defence_dice:
        rolls = roll_pool(flow.dice, defence_die(flow.board), plan.defence_dice, pool=1,
                          pool_name="defence", explodes=lambda f: f == CRIT)
    check_used = getattr(flow.dice, "check_used", None)
    if callable(check_used):
        check_used()
    if plan.defence_dice:
        base = rolls[: plan.defence_dice]
        flow.log("roll", f"{plan.target.label} rolls "
                         f"{plural(plan.defence_dice, 'defence die', 'defence dice')}: {_names(base)}.",
                 base, {"pool": "defence", "count": plan.defence_dice})
        flow.steps.extend(_explosion_steps(rolls[plan.defence_dice:], "defence", flow.stage))
    else:
        flow.log("note", plan.defence_note)
    flow.saves = [i for i, r in enumerate(rolls, 1) if r.face in (SHIELD, CRIT)]


def _saves(flow: _Attack) -> None:
    """Shields and crits save."""
    saves = flow.saves
    if flow.plan.defence_dice:
        flow.log("tally", f"{plural(len(saves), 'save')}: shields and crits save"
                          + (f" (dice {', '.join(map(str, saves))})." if saves else "."),
                 data={"saves": len(saves), "dice": saves})


def _compare(flow: _Attack) -> None:
    """Wounds = hits − saves (never below 0)."""
    hits, saves = len(flow.hits), len(flow.saves)
    flow.damage = damage = max(0, hits - saves)
    verdict = f"{plural(damage, 'wound')}" if damage else "no wound"
    flow.log("compare", f"{plural(hits, 'hit')} − {plural(saves, 'save')}: {verdict}.",
             data={"hits": hits, "saves": saves, "damage": damage})


def _wound(flow: _Attack) -> None:
    """The target takes the wounds; wounds reaching life kill it."""
    plan, t, damage = flow.plan, flow.plan.target, flow.damage
    wounds = plan.wounds + damage
    if plan.life is not None:
        wounds = min(wounds, max(plan.life, plan.wounds))
        flow.killed = wounds >= plan.life
    flow.wounds = wounds
    if damage:
        of = f" of {plan.life}" if plan.life is not None else ""
        flow.log("damage", f"{t.label} takes {plural(damage, 'wound')} (wounds {wounds}{of}).",
                 data={"figure_id": t.id, "damage": damage, "wounds": wounds})
    if flow.killed:
        flow.log("status", f"{t.label} is killed (wounds {wounds} = life {plan.life}).",
                 data={"figure_id": t.id, "killed": True})


def _exhaust(flow: _Attack) -> None:
    """The attack card is exhausted."""
    a, card = flow.plan.attacker, flow.plan.card
    flow.log("status", f"{card.name} is exhausted.", data={"figure_id": a.id, "exhausted": card.name})
    exhausted = stat_list(a, "exhausted") + [card.name]
    flow.changes.append(FigureChange(a.id, {"exhausted": ", ".join(exhausted)}))


def _result(flow: _Attack) -> None:
    """The target's new stats, the outcome and the summary sentence."""
    plan, damage, wounds, killed = flow.plan, flow.damage, flow.wounds, flow.killed
    a, t, card = plan.attacker, plan.target, plan.card
    target_stats: dict[str, Stat | None] = {"wounds": wounds}
    if killed:
        target_stats["killed"] = True
    flow.changes.append(FigureChange(t.id, target_stats))
    hits, saves = len(flow.hits), len(flow.saves)
    flow.outcome.update({
        "hits": hits, "saves": saves, "damage": damage, "killed": killed, "wounds": wounds,
        "life": plan.life, "attack": card.name, "kind": card.kind,
        "attack_dice": plan.attack_dice, "defence_dice": plan.defence_dice,
        "attacker": a.id, "target": t.id,
    })
    if not damage:
        result = f"{t.label} takes no wound"
    elif killed:
        result = f"{t.label} takes {plural(damage, 'wound')} and is killed"
    else:
        of = f" of {plan.life}" if plan.life is not None else ""
        result = f"{t.label} takes {plural(damage, 'wound')} (wounds {wounds}{of})"
    flow.summary = f"{plural(hits, 'hit')} against {plural(saves, 'save')}: {result}."


#: an Arcadia Quest attack, step by step (:mod:`game.rules.steps`)
STAGES: tuple[Stage[_Attack], ...] = (
    Stage("attack roll", _attack_roll),
    Stage("hits", _hits),
    Stage("defence roll", _defence_roll),
    Stage("saves", _saves),
    Stage("wounds", _compare),
    Stage("damage", _wound),
    Stage("exhaust", _exhaust),
    Stage("result", _result),
)


class ArcadiaRuleset(Ruleset):
    """Arcadia Quest: attack cards, Close / LOS, exploding attack and defence dice, wounds vs life."""

    name = "arcadia"
    doc_page = "docs/arcadia.md"
    title = "Arcadia Quest"
    pools = ("attack", "defence")
    stages = stage_names(STAGES)
    face_names = frozenset({"sword", "bow", "crit", "shield", "blank"})
    known_properties = frozenset(
        {
            "side", "life", "defense", "defence", "attacks", "wounds", "exhausted", "dazed",
            "killed", "attack_bonus", "defense_bonus", "defence_bonus",
            "attack_die", "defense_die", "defence_die", "ruleset", "capacity",
        }
    )
    assumptions = (
        "Die faces come from fan code, not the rulebook: attack 3 sword, 2 bow, 1 crit; "
        "defence 1 shield, 1 crit, 4 blank (map properties attack_die / defense_die override them).",
        "Explosions have no cap; exact odds cut each die's chain where less than 1e-12 of its "
        "probability remains and add that remainder to the last bucket.",
        "Rest unexhausts every card of the side's figures and clears the wounds of its killed "
        "figures (they stay where they are: move them to the starting area yourself).",
        "A window edge blocks movement, so a figure across a window is not Close.",
        "Wounds stop at life: the figure is marked killed and stays on the board.",
    )

    # --- attacks and legality -------------------------------------------------------------

    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """The figure's attack cards, unusable when exhausted or when the figure is killed."""
        figure = board.figure(attacker)
        exhausted = {c.casefold() for c in stat_list(figure, "exhausted")}
        killed = self.condition(figure).down
        options = []
        for card in parse_attacks(figure):
            if killed:
                options.append(AttackOption(card.name, card.kind, card.dice, False, f"{figure.label} is killed."))
            elif card.name.casefold() in exhausted:
                options.append(AttackOption(card.name, card.kind, card.dice, False, f"{card.name} is exhausted."))
            else:
                options.append(AttackOption(card.name, card.kind, card.dice, True, ""))
        return options

    def _card(self, figure: Figure, attack: str | None) -> AttackCard | None:
        cards = parse_attacks(figure)
        if not cards:
            return None
        if attack is None:
            exhausted = {c.casefold() for c in stat_list(figure, "exhausted")}
            usable = [c for c in cards if c.name.casefold() not in exhausted]
            return (usable or cards)[0]
        for card in cards:
            if card.name.casefold() == attack.strip().casefold():
                return card
        names = ", ".join(c.name for c in cards)
        raise UsageError(f"{figure.label} has no attack {attack!r} (attacks: {names})")

    def _plan(
        self,
        board: Board,
        attacker: int,
        targets: Sequence[int],
        attack: str | None,
        options: Mapping[str, object],
    ) -> tuple[_Plan | None, str]:
        """The resolved inputs of an attack, or None and the reason it is illegal.

        No ``attack`` named: the first usable card legal on the target.
        """
        a = board.figure(attacker)
        if len(targets) != 1:
            return None, f"An Arcadia Quest attack has exactly one target ({len(targets)} given)."
        nonsense = self.nonsense_reason(board, [attacker, *targets])
        if nonsense:
            return None, nonsense
        if attack is None:
            attack, why = self.first_legal_attack(board, attacker, targets, options)
            if attack is None and why:
                return None, why
            menu = self.attacks(board, attacker)
            if attack is None and menu and not self.condition(a).down and not any(o.usable for o in menu):
                each = "; ".join(dict.fromkeys(o.reason.rstrip(".") for o in menu))
                return None, f"No attack card of {a.label} is usable: {each}."
        t = board.figure(targets[0])
        card = self._card(a, attack)
        if card is None:
            return None, f"{a.label} has no attack cards (figure property attacks)."
        if self.condition(a).down:
            return None, f"{a.label} is killed and cannot attack."
        if t.id == a.id:
            return None, f"{a.label} cannot attack itself."
        if card.name.casefold() in {c.casefold() for c in stat_list(a, "exhausted")}:
            return None, f"{card.name} is exhausted."
        if t.side == a.side:
            return None, f"{t.label} is an ally."
        if self.condition(t).down:
            return None, f"{t.label} is already killed."
        if card.kind == "melee":
            if not _is_close(board, a, t):
                why = close_reason(board, a, t) or f"Close: {t.label} cannot be reached"
                return None, f"not {why}."
            where = "in the same Space" if a.square == t.square else "Close"
        else:
            blocked = _los_reason(board, a, t)
            if blocked is not None:
                return None, f"no line of sight: {blocked}."
            where = "in line of sight" + _rule_words(board)
        n_att = card.dice + stat_int(a, "attack_bonus") + _int_option(options, "attack_bonus")
        defence = stat_int(t, "defense", stat_int(t, "defence"))
        bonus = stat_int(t, "defense_bonus", stat_int(t, "defence_bonus")) + _int_option(options, "defense_bonus")
        if stat_bool(t, "dazed"):
            n_def, note = 0, f"{t.label} is dazed: no defence roll."
        elif defence + bonus <= 0:
            n_def, note = 0, f"{t.label} has no defence: no defence dice."
        else:
            n_def, note = defence + bonus, ""
        life = stat_int(t, "life", -1)
        plan = _Plan(a, t, card, max(0, n_att), n_def, note, None if life < 0 else life, stat_int(t, "wounds"))
        reason = (
            f"{a.label} may attack {t.label} with {card.name} ({card.kind}, "
            f"{plural(plan.attack_dice, 'die', 'dice')}): {t.label} is {where}."
        )
        return plan, reason

    def check(self, request: AttackRequest) -> Legality:
        """Legal when the card is unexhausted, the target an enemy not killed, Close / in LOS."""
        board, attacker, targets, attack, options = request.parts()
        plan, reason = self._plan(board, attacker, targets, attack, options)
        return Legality(plan is not None, reason)

    def nonsense(self, figure: Figure) -> list[str]:
        """A ``life`` of 0 or less (leave it out for no life track), more dice than the exact odds
        count (:data:`MAX_DICE` per pool).

        >>> RULESET.nonsense(Figure(1, "Goblin", "monsters", (0, 0), {"life": 0}))
        ["property 'life' is 0: a figure with life 0 is killed before any attack (give it 1 or more, or leave life out for no life track)"]
        """
        out = []
        if "life" in figure.stats and str(figure.stats["life"]).strip() != "":
            life = stat_int(figure, "life")
            if life <= 0:
                out.append(f"property 'life' is {life}: a figure with life 0 is killed before any "
                           "attack (give it 1 or more, or leave life out for no life track)")
        bonus = stat_int(figure, "attack_bonus")
        for card in parse_attacks(figure):
            if card.dice + bonus > MAX_DICE:
                out.append(f"attack {card.name!r} rolls {card.dice + bonus} dice: more than the "
                           f"{MAX_DICE} the exact odds count (use {MAX_DICE} or fewer)")
        defence = stat_int(figure, "defense", stat_int(figure, "defence"))
        defence += stat_int(figure, "defense_bonus", stat_int(figure, "defence_bonus"))
        if defence > MAX_DICE:
            out.append(f"defence {defence} rolls more than the {MAX_DICE} dice the exact odds "
                       f"count (use {MAX_DICE} or fewer)")
        return out

    def figure_problems(self, figure: Figure) -> list[str]:
        """Unreadable ``attacks``, non-numeric or negative numbers, non-boolean flags.

        >>> RULESET.figure_problems(Figure(1, "A", "red", (0, 0),
        ...     {"attacks": "Sword-melee-3", "life": "lots", "defense": -2}))[1:]
        ["property 'life' must be a number, not 'lots'", "property 'defense' must be 0 or more, not -2"]
        """
        counts = ("life", "defense", "defence", "wounds")
        return (
            parse_problem(figure, lambda: parse_attacks(figure))
            + int_problems(figure, counts + ("attack_bonus", "defense_bonus", "defence_bonus"),
                           non_negative=counts)
            + bool_problems(figure, ("dazed", "killed"))
        )

    # --- resolution -----------------------------------------------------------------------

    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Roll attack then defence (with explosions), compare, wound, maybe kill; exhaust the card
        (:data:`STAGES`)."""
        board, attacker, targets, attack, options = request.parts()
        seed = dice.seed if isinstance(dice, SeededDice) else None
        plan, reason = self._plan(board, attacker, targets, attack, options)
        if plan is None:
            return Resolution.illegal(reason, seed=seed)
        return run_stages(STAGES, _Attack(dice=dice, board=board, plan=plan)).resolution(reason, seed)

    # --- exact odds -----------------------------------------------------------------------

    def odds(self, request: AttackRequest) -> Odds:
        """Exact distribution of the wounds this attack inflicts (0 … life left), kill chance, mean."""
        board, attacker, targets, attack, options = request.parts()
        plan, reason = self._plan(board, attacker, targets, attack, options)
        if plan is None:
            raise IllegalAttackError(reason)
        hit_face = HIT_FACE[plan.card.kind]
        adie, ddie = attack_die(board), defence_die(board)
        a_spec = (adie.sides, adie.faces.count(hit_face), adie.faces.count(CRIT))
        d_spec = (ddie.sides, ddie.faces.count(SHIELD), ddie.faces.count(CRIT))
        left = None if plan.life is None else max(0, plan.life - plan.wounds)
        pairs, cut = wounds_distribution(a_spec, plan.attack_dice, d_spec, plan.defence_dice, left, DEFAULT_TAIL)
        dist = dict(pairs)
        kill = None if left is None else dist.get(left, Fraction(0))
        highest = max((k for k, p in dist.items() if p), default=0)
        dist = {k: p for k, p in dist.items() if k <= highest}  # no impossible outcomes above
        expected = sum((k * p for k, p in dist.items()), Fraction(0))
        note = (
            f"{plan.attack_dice} {plan.card.kind} attack dice vs {plan.defence_dice} defence dice; "
            f"explosion chains cut below 1e-12 per die (mass moved ≤ {float(cut):.1e})"
        )
        return Odds(dist, expected, kill, "wounds", cut, note)

    # --- rest -----------------------------------------------------------------------------

    def actions(self, board: Board, side: str) -> list[str]:
        """``rest``: unexhaust every card of the side (and bring back its killed figures)."""
        return ["rest"]

    def perform(self, board: Board, action: str, side: str) -> tuple[FigureChange, ...]:
        """The changes of ``rest`` for ``side``: exhausted cleared, killed figures' wounds cleared."""
        if action.strip().lower() != "rest":
            return super().perform(board, action, side)
        changes = []
        for figure in board.figures.values():
            if figure.side != side:
                continue
            stats: dict[str, Stat | None] = {}
            if stat_list(figure, "exhausted"):
                stats["exhausted"] = None
            if stat_bool(figure, "killed"):
                stats["killed"] = None
                stats["wounds"] = None
            if stats:
                changes.append(FigureChange(figure.id, stats))
        return tuple(changes)


def _explosion_steps(extra: Sequence[DieRoll], pool: str, stage: str) -> list[Step]:
    return [
        Step("explode", f"Crit: one more {pool} die ({r.reason}): {r.face}.", (r,), {"pool": pool},
             stage=stage)
        for r in extra
    ]


def _int_option(options: Mapping[str, object], key: str) -> int:
    value = options.get(key)
    if value is None:
        return 0
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise UsageError(f"option {key} must be a whole number, not {value!r}") from None


RULESET = ArcadiaRuleset()
