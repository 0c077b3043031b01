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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.core.board import Board, Figure, Square, Stat, fmt_square
from game.core.dice import DiceSource, Die, DieRoll, ScriptedDice, SeededDice
from game.core.errors import FacesError, IllegalAttackError, UsageError
from game.core.los import is_close
from game.core.odds import DEFAULT_TAIL, wounds_distribution
from game.core.words import plural
from game.rules.arcadia.cards import AttackCard, parse_attacks
from game.rules.arcadia.reactions import PATH, capped_sum, mixed, path_option, walked_along, walks
from game.rules.arcadia.rolls import (
    DieOdds,
    RollSpec,
    roll_distribution,
    roll_with_rerolls,
    wounds_after_saves,
)
from game.rules.base import (
    AttackOption,
    AttackRequest,
    FigureChange,
    Legality,
    Odds,
    Reaction,
    Resolution,
    Ruleset,
    RuleStatus,
    Step,
    not_applied_clause,
    not_applied_line,
    not_applied_steps,
)
from game.rules.figure_stats import (
    bool_problems,
    int_problems,
    parse_problem,
    stat_bool,
    stat_int,
    stat_list,
)
from game.rules.reach import apart, cell_noun
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
#: the pools of a physical roll: the attack, then the reactions it calls for (Guard, Payback)
POOLS = ("attack", "defence", "reaction attack", "reaction defence")
#: the options key that makes a request a reaction (its kind), and the key of its walk
REACTION = "reaction"
#: the most dice one pool may roll: the exact odds stay quick (and the table readable)
MAX_DICE = 60

__all__ = ["RULESET", "AttackCard", "close_reason", "is_monster", "parse_attacks"]


def is_monster(figure: Figure) -> bool:
    """A Monster: its side is ``monsters`` (any case) or it has ``monster`` = true; every other
    figure is a Hero (docs/arcadia.md).

    >>> is_monster(Figure(1, "Goblin", "Monsters", (0, 0))), is_monster(Figure(2, "Rook", "red", (0, 0)))
    (True, False)
    """
    return figure.side.strip().casefold() == "monsters" or stat_bool(figure, "monster")


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
    """Why ``b`` is not Close to ``a`` (None when it is), in the words of the rules: Close is
    the same Space or a neighbour across an open edge of the board's grid (on hexes, any of six).

    >>> board = Board.from_ascii(["....."], walls=["V(3,0)"])
    >>> f = lambda i, x: Figure(i, f"F{i}", "s", (x, 0))
    >>> close_reason(board, f(1, 2), f(2, 4)), close_reason(board, f(1, 2), f(2, 3))
    ('Close: F2 is 2 squares away', 'Close: wall V(3,0) between (2,0) and (3,0)')
    """
    why = apart(board, a.square, b.square)
    if why is None:
        return None
    if why.edge is not None:
        return f"Close: {why.shut} {why.edge} between {fmt_square(a.square)} and {fmt_square(b.square)}"
    if why.diagonal:
        return f"Close: {b.label} is diagonal to {a.label} (diagonal Spaces are never Close)"
    return f"Close: {b.label} is {plural(why.steps, cell_noun(board))} away"


def _is_close(board: Board, a: Figure, b: Figure) -> bool:
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
    #: rerolls in the attack roll (the attacker's ``reroll`` and the card's) and the defence roll
    attack_rerolls: int = 0
    defence_rerolls: int = 0
    #: "" for an attack; ``Payback`` or ``Guard`` for a reaction, which walks ``path`` first
    reaction: str = ""
    path: tuple[Square, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def pools(self) -> tuple[int, int]:
        """The physical roll's pools: the attack's, or the reactions' (docs/arcadia.md)."""
        return (2, 3) if self.reaction else (0, 1)


@dataclass(kw_only=True)
class _Attack(Flow):
    """One Arcadia Quest attack being resolved: the plan and what each stage leaves for the next."""

    dice: DiceSource
    board: Board
    plan: _Plan
    hits: list[int] = field(default_factory=list)
    crits: int = 0
    saves: list[int] = field(default_factory=list)
    bonus_hits: int = 0
    damage: int = 0
    wounds: int = 0
    killed: bool = False


def _not_applied(flow: _Attack) -> None:
    """The rules that apply to this attack but are not modelled, one note each."""
    flow.steps.extend(not_applied_steps(flow.plan.notes, flow.stage))


def _move(flow: _Attack) -> None:
    """A Payback walks first: the monster moves along its path (up to its Movement)."""
    plan = flow.plan
    if len(plan.path) < 2:
        return
    a = plan.attacker
    route = " → ".join(fmt_square(sq) for sq in plan.path)
    steps = len(plan.path) - 1
    flow.log("move", f"{a.label} walks {route} ({plural(steps, 'step')} of its Movement "
                     f"{stat_int(a, 'movement')}).",
             data={"figure_id": a.id, "path": [list(sq) for sq in plan.path]})


def _roll_steps(flow: _Attack, rolled: Sequence[DieRoll], count: int, pool: str, rerolls: int) -> None:
    """The log lines of a roll after its first dice: each reroll and each CRIT's extra die."""
    used = 0
    for roll in rolled[count:]:
        if roll.reason.startswith("reroll"):
            used += 1
            before = rolled[int(roll.reason.rsplit(" ", 1)[1]) - 1].face
            flow.log("reroll", f"Reroll {used} of {rerolls}: {pool} die "
                               f"{roll.reason.rsplit(' ', 1)[1]} ({before}) → {roll.face}.",
                     (roll,), {"pool": pool})
        else:
            flow.steps.extend(_explosion_steps([roll], pool, flow.stage))


def _attack_roll(flow: _Attack) -> None:
    """The attack dice, each miss re-rolled while rerolls last, a crit adding a die (recursively)."""
    plan = flow.plan
    a, card = plan.attacker, plan.card
    hit_face = HIT_FACE[card.kind]
    spec = RollSpec(attack_die(flow.board), plan.attack_dice, plan.pools[0], POOLS[plan.pools[0]],
                    frozenset({hit_face}), plan.attack_rerolls, a.label, "attack")
    got = roll_with_rerolls(flow.dice, spec)
    _faq_check(flow.dice, spec, got.crits_rerolled)
    base = got.rolls[: plan.attack_dice]
    flow.log("roll", f"{a.label} rolls {plural(plan.attack_dice, 'attack die', 'attack dice')} "
                     f"({card.name}, {card.kind}): {_names(base)}.",
             base, {"pool": "attack", "count": plan.attack_dice})
    _roll_steps(flow, got.rolls, plan.attack_dice, "attack", plan.attack_rerolls)
    flow.hits = _final_numbers(got.rolls, {hit_face, CRIT})
    flow.crits = got.crits


def _faq_check(dice: DiceSource, spec: RollSpec, crits_rerolled: int) -> None:
    """A physical roll with faces left over after a re-rolled CRIT: the FAQ's timing rule says why."""
    if not crits_rerolled or not isinstance(dice, ScriptedDice):
        return
    extra = dice.leftover().get(spec.pool_name)
    if extra:
        raise FacesError(
            f"the {spec.pool_name} pool has {plural(len(extra), 'extra face')} "
            f"({' '.join(str(f) for f in extra)}): a CRIT re-rolled adds no extra die, and a CRIT "
            "may be rerolled only before its extra die is rolled (FAQ)", pool=spec.pool_name)


def _final_numbers(rolls: Sequence[DieRoll], counting: set[str]) -> list[int]:
    """The numbers (1-based, in the log's order) of the dice whose final face counts."""
    replaced = {int(r.reason.rsplit(" ", 1)[1]) for r in rolls if r.reason.startswith("reroll")}
    return [i for i, r in enumerate(rolls, 1) if i not in replaced and r.face in counting]


def _hits(flow: _Attack) -> None:
    """Swords hit in melee, bows in a ranged attack, crits always; a card may add hits on a CRIT."""
    hits, card = flow.hits, flow.plan.card
    flow.log("tally", f"{plural(len(hits), 'hit')}: {HIT_FACE[card.kind]}s and crits hit in a "
                      f"{card.kind} attack" + (f" (dice {', '.join(map(str, hits))})." if hits else "."),
             data={"hits": len(hits), "dice": hits})
    crit = card.crit
    flow.bonus_hits = (crit.hits_once if flow.crits else 0) + crit.hits_each * flow.crits
    if flow.bonus_hits:
        flow.log("tally", f"{card.name} on a CRIT: {plural(flow.bonus_hits, 'more hit')} "
                          f"({crit.words()}).", data={"bonus_hits": flow.bonus_hits})


def _defence_roll(flow: _Attack) -> None:
    """The defence dice (misses re-rolled while rerolls last, a crit adding a die); none for a
    dazed target or one without defence."""
    plan = flow.plan
    rolls: Sequence[DieRoll] = ()
    spec = RollSpec(defence_die(flow.board), plan.defence_dice, plan.pools[1], POOLS[plan.pools[1]],
                    frozenset({SHIELD}), plan.defence_rerolls, plan.target.label, "defence")
    if plan.defence_dice:
        got = roll_with_rerolls(flow.dice, spec)
        _faq_check(flow.dice, spec, got.crits_rerolled)
        rolls = got.rolls
    check_used = getattr(flow.dice, "check_used", None)
    if callable(check_used):
        check_used([POOLS[i] for i in plan.pools])
    if plan.defence_dice:
        base = rolls[: plan.defence_dice]
        flow.log("roll", f"{plan.target.label} rolls "
                         f"{plural(plan.defence_dice, 'defence die', 'defence dice')}: {_names(base)}.",
                 base, {"pool": "defence", "count": plan.defence_dice})
        _roll_steps(flow, rolls, plan.defence_dice, "defence", plan.defence_rerolls)
    else:
        flow.log("note", plan.defence_note)
    flow.saves = _final_numbers(rolls, {SHIELD, CRIT})


def _saves(flow: _Attack) -> None:
    """Shields and crits save."""
    saves = flow.saves
    if flow.plan.defence_dice:
        flow.log("tally", f"{plural(len(saves), 'save')}: shields and crits save"
                          + (f" (dice {', '.join(map(str, saves))})." if saves else "."),
                 data={"saves": len(saves), "dice": saves})


def _compare(flow: _Attack) -> None:
    """Wounds = hits − saves (never below 0), plus a card's wounds on a CRIT."""
    hits, saves = len(flow.hits) + flow.bonus_hits, len(flow.saves)
    crit = flow.plan.card.crit
    extra = (crit.wounds_once if flow.crits else 0) + crit.wounds_each * flow.crits
    flow.damage = damage = max(0, hits - saves) + extra
    verdict = f"{plural(damage, 'wound')}" if damage else "no wound"
    more = f" + {extra} on a CRIT ({flow.plan.card.name})" if extra else ""
    flow.log("compare", f"{plural(hits, 'hit')} − {plural(saves, 'save')}{more}: {verdict}.",
             data={"hits": hits, "saves": saves, "damage": damage})


def _wound(flow: _Attack) -> None:
    """The target takes the wounds; wounds reaching life kill it; a card may daze it on a CRIT."""
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
        if not is_monster(t):
            flow.log("note", not_applied_line(_hero_killed(plan)))
    if plan.card.crit.daze and flow.crits and not flow.killed:
        flow.log("status", f"{plan.card.name} on a CRIT: {t.label} is Dazed.",
                 data={"figure_id": t.id, "dazed": True})


def _hero_killed(plan: _Plan) -> str:
    """The consequences of a killed Hero that the engine does not play."""
    pvp = "" if is_monster(plan.attacker) else f"; {plan.attacker.label}'s PvP reward"
    return (f"a killed Hero's consequences: the Death Curse {plan.target.label} draws when it "
            f"comes back{pvp} (track them yourself)")


def _exhaust(flow: _Attack) -> None:
    """The attack card is exhausted (a monster's reaction exhausts nothing: no Guild token)."""
    a, card = flow.plan.attacker, flow.plan.card
    if flow.plan.reaction:
        return
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
    if plan.card.crit.daze and flow.crits and not killed:
        target_stats["dazed"] = True
    flow.changes.append(FigureChange(t.id, target_stats))
    if len(plan.path) > 1:  # the walk before a Payback (after the target: the damage lands there)
        flow.changes.append(FigureChange(a.id, {}, square=plan.path[-1]))
    hits, saves = len(flow.hits) + flow.bonus_hits, len(flow.saves)
    flow.outcome.update({
        "hits": hits, "saves": saves, "damage": damage, "killed": killed, "wounds": wounds,
        "life": plan.life, "attack": card.name, "kind": card.kind,
        "attack_dice": plan.attack_dice, "defence_dice": plan.defence_dice,
        "attacker": a.id, "target": t.id, "crits": flow.crits,
    })
    if plan.reaction:
        flow.outcome["reaction"] = plan.reaction
    if not damage:
        result = f"{t.label} takes no wound"
    elif killed:
        result = f"{t.label} takes {plural(damage, 'wound')} and is killed"
    else:
        of = f" of {plan.life}" if plan.life is not None else ""
        result = f"{t.label} takes {plural(damage, 'wound')} (wounds {wounds}{of})"
    lead = f"{plan.reaction}: " if plan.reaction else ""
    flow.summary = f"{lead}{plural(hits, 'hit')} against {plural(saves, 'save')}: {result}."


#: an Arcadia Quest attack, step by step (:mod:`game.rules.steps`)
STAGES: tuple[Stage[_Attack], ...] = (
    Stage("not applied", _not_applied),
    Stage("move", _move),
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
    pools = POOLS
    stages = stage_names(STAGES)
    face_names = frozenset({"sword", "bow", "crit", "shield", "blank"})
    face_rerolls = True
    known_properties = frozenset(
        {
            "side", "life", "defense", "defence", "attacks", "wounds", "exhausted", "dazed",
            "killed", "attack_bonus", "defense_bonus", "defence_bonus",
            "attack_die", "defense_die", "defence_die", "ruleset", "capacity",
            "reroll", "movement", "monster", "huge",
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
        "Rerolls: a figure's reroll (and a card's reroll=N) is spent in each of its rolls; seeded "
        "dice re-roll every die that is no success while rerolls last (never a success), and a "
        "die may be re-rolled again (the rulebook leaves the choice to the player).",
        "A card's on_crit effect happens once when the attack roll shows at least one CRIT, or "
        "for each CRIT with 'each'; +N hit is saved as usual, +N wound comes after the saves.",
        "Reactions follow a Hero's attack: Guard by every Monster Close to the Hero (when the "
        "attack targets no Monster Close to him), then the target's Payback; a killed monster "
        "pays nothing back; reactions exhaust no card (a monster has no Guild token).",
        "A reacting monster uses the first of its attack cards legal on the Hero; a Payback walks "
        "the fewest steps (up to its movement) to a Space from which one is legal, the first such "
        "Space found by a walk that tries up, left, right, down; it does not walk when it cannot "
        "attack within its movement.",
        "On a hex board a Space is a hex: Close is the same hex or one of the six next to it "
        "across an open edge, a walk steps to those (tried in the grid's order of neighbours), and "
        "line of sight is the map's hex rule (hexside unless the map says otherwise).",
    )
    grids = ("square", "hex")
    special_rules = (
        RuleStatus("CRIT", "modelled", "a CRIT hits (or saves) and adds one more die, without cap"),
        RuleStatus("Dazed", "modelled", "a Dazed target rolls no defence dice"),
        RuleStatus("Defence icons on exhausted cards", "modelled", "defense_bonus counts them"),
        RuleStatus("Rerolls", "modelled", "reroll and a card's reroll=N, with the FAQ's timing rule"),
        RuleStatus("Card effects on a CRIT", "modelled", "on_crit=+N hit, +N wound (each) or daze"),
        RuleStatus("Other card effects", "refused", "an on_crit effect outside the grammar is refused "
                   "with one line naming it (a second target, a teleport ...)"),
        RuleStatus("Guard", "modelled", "every Monster Close to a Hero whose attack targets no "
                   "Monster Close to him attacks him, without moving"),
        RuleStatus("Payback", "modelled", "the attacked Monster walks up to its movement and attacks "
                   "the attacker, even after a miss"),
        RuleStatus("Payback movement", "noted", "a Monster without a movement property pays back "
                   "only from where it stands"),
        RuleStatus("A killed Hero's consequences", "noted", "the Death Curse and the PvP reward"),
        RuleStatus("Huge characters", "noted", "a Huge figure (huge = true) fills a Space alone and "
                   "counts as two characters; Full and Blocked Spaces do not count it so"),
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
        if not options.get(REACTION) and card.name.casefold() in {c.casefold() for c in stat_list(a, "exhausted")}:
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
        return self._make_plan(board, a, t, card, options, where)

    def _make_plan(self, board: Board, a: Figure, t: Figure, card: AttackCard,
                   options: Mapping[str, object], where: str) -> tuple[_Plan, str]:
        """The plan of a legal attack: the dice on each side, rerolls, the reaction's walk, the
        rules that apply but are not modelled; and the sentence that allows it."""
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
        reaction = str(options.get(REACTION) or "")
        plan = _Plan(a, t, card, max(0, n_att), n_def, note, None if life < 0 else life,
                     stat_int(t, "wounds"), stat_int(a, "reroll") + card.reroll, stat_int(t, "reroll"),
                     reaction, path_option(options), _static_notes(board, a, t, options))
        verb = f"{reaction}: {a.label} may attack" if reaction else f"{a.label} may attack"
        reason = (
            f"{verb} {t.label} with {card.name} ({card.kind}, "
            f"{plural(plan.attack_dice, 'die', 'dice')}): {t.label} is {where}."
        )
        return plan, reason

    def check(self, request: AttackRequest) -> Legality:
        """Legal when the card is unexhausted, the target an enemy not killed, Close / in LOS (a
        reaction: from the end of its walk)."""
        board, attacker, targets, attack, options = request.parts()
        plan, reason = self._plan(walked_along(board, attacker, options), attacker, targets, attack, options)
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
        counts = ("life", "defense", "defence", "wounds", "reroll", "movement")
        return (
            parse_problem(figure, lambda: parse_attacks(figure))
            + int_problems(figure, counts + ("attack_bonus", "defense_bonus", "defence_bonus"),
                           non_negative=counts)
            + bool_problems(figure, ("dazed", "killed", "monster", "huge"))
        )

    def not_applied(self, request: AttackRequest) -> tuple[str, ...]:
        """Huge figures, a Payback's missing movement; for a Hero target, its Death Curse (and the
        PvP reward) if it is killed."""
        board, attacker, targets, attack, options = request.parts()
        plan, _ = self._plan(walked_along(board, attacker, options), attacker, targets, attack, options)
        return () if plan is None else _plan_notes(plan)

    # --- resolution -----------------------------------------------------------------------

    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """A reaction walks first; roll attack then defence (rerolls, explosions), compare, wound,
        maybe kill; exhaust the card (:data:`STAGES`)."""
        board, attacker, targets, attack, options = request.parts()
        seed = dice.seed if isinstance(dice, SeededDice) else None
        walked = walked_along(board, attacker, options)
        plan, reason = self._plan(walked, attacker, targets, attack, options)
        if plan is None:
            return Resolution.illegal(reason, seed=seed)
        return run_stages(STAGES, _Attack(dice=dice, board=walked, plan=plan)).resolution(reason, seed)

    # --- exact odds -----------------------------------------------------------------------

    def odds(self, request: AttackRequest) -> Odds:
        """Exact distribution of the wounds this attack inflicts (0 … life left), kill chance, mean."""
        board, attacker, targets, attack, options = request.parts()
        board = walked_along(board, attacker, options)
        plan, reason = self._plan(board, attacker, targets, attack, options)
        if plan is None:
            raise IllegalAttackError(reason)
        left = None if plan.life is None else max(0, plan.life - plan.wounds)
        dist, cut, extra = _plan_odds(board, plan, left)
        kill = None if left is None else dist.get(left, Fraction(0))
        highest = max((k for k, p in dist.items() if p), default=0)
        dist = {k: p for k, p in dist.items() if k <= highest}  # no impossible outcomes above
        expected = sum((k * p for k, p in dist.items()), Fraction(0))
        note = (
            f"{plan.attack_dice} {plan.card.kind} attack dice vs {plan.defence_dice} defence dice{extra}; "
            f"explosion chains cut below 1e-12 per die (mass moved ≤ {float(cut):.1e})"
        )
        notes = _plan_notes(plan)  # what not_applied says, without planning the attack again
        if notes:
            note += "; " + "; ".join(not_applied_clause(n) for n in notes)
        return Odds(dist, expected, kill, "wounds", cut, note)

    # --- reactions ------------------------------------------------------------------------

    def reactions(self, board: Board, request: AttackRequest, resolution: Resolution) -> list[Reaction]:
        """After a Hero's attack: Guard by each Monster Close to him (when the attack targets no
        Monster Close to him), then the target's Payback (unless it was killed)."""
        if not resolution.legal or request.attacker not in board.figures:
            return []
        hero = board.figure(request.attacker)
        if is_monster(hero) or request.options.get(REACTION):
            return []
        targets = [board.figure(t) for t in request.targets if t in board.figures]
        out = []
        if not any(is_monster(t) and _is_close(board, t, hero) for t in targets):
            for m in sorted(board.figures.values(), key=lambda f: f.id):
                if is_monster(m) and m.id not in request.targets and not self.condition(m).down \
                        and _is_close(board, m, hero):
                    out.append(self._guard(board, m, hero))
        for t in targets:
            if is_monster(t) and self.condition(t).down:
                out.append(Reaction("Payback", t.id, hero.id, None, f"No Payback: {t.label} is killed."))
            elif is_monster(t):
                out.append(self._payback(board, t, hero))
        return out

    def _first_card(self, board: Board, monster: Figure, hero: Figure, kind: str,
                    path: tuple[Square, ...]) -> tuple[str | None, str]:
        """The first of the monster's cards legal on the Hero (and the reason), or None and why."""
        options: dict[str, object] = {REACTION: kind}
        if len(path) > 1:
            options[PATH] = [list(sq) for sq in path]
        reasons = []
        for card in parse_attacks(monster):
            plan, reason = self._plan(board, monster.id, [hero.id], card.name, options)
            if plan is not None:
                return card.name, reason
            reasons.append(f"{card.name}: {reason.rstrip('.')}")
        return None, "; ".join(reasons) or f"{monster.label} has no attack cards"

    def _guard(self, board: Board, monster: Figure, hero: Figure) -> Reaction:
        card, why = self._first_card(board, monster, hero, "Guard", ())
        text = (f"Guard: {monster.label} is Close to {hero.label} and attacks with {card}." if card
                else f"Guard: {monster.label} cannot attack {hero.label} ({why}).")
        return Reaction("Guard", monster.id, hero.id, card, text, (), {REACTION: "Guard"})

    def _payback(self, board: Board, monster: Figure, hero: Figure) -> Reaction:
        steps = max(0, stat_int(monster, "movement"))
        probe = board.copy()
        for square, path in walks(board, monster, steps):
            probe.move_figure(monster.id, square)
            card, _ = self._first_card(probe, probe.figure(monster.id), hero, "Payback", path)
            if card is None:
                continue
            options: dict[str, object] = {REACTION: "Payback"}
            if len(path) > 1:
                options[PATH] = [list(sq) for sq in path]
                route = " → ".join(fmt_square(sq) for sq in path)
                text = f"Payback: {monster.label} walks {route} and attacks {hero.label} with {card}."
            else:
                text = f"Payback: {monster.label} attacks {hero.label} with {card} from where it stands."
            return Reaction("Payback", monster.id, hero.id, card, text, path if len(path) > 1 else (), options)
        _, why = self._first_card(board, monster, hero, "Payback", ())
        if "movement" in monster.stats:
            text = (f"No Payback: {monster.label} cannot attack {hero.label} within "
                    f"{plural(steps, 'step')} ({why}).")
        else:
            text = (f"No Payback: {monster.label} cannot attack {hero.label} from where it stands "
                    f"({why}). {not_applied_line(f'{monster.label} has no movement property, so it does not walk')}")
        return Reaction("Payback", monster.id, hero.id, None, text)

    def exchange_odds(self, request: AttackRequest) -> Odds | None:
        """The wounds the attacker takes in the reactions to this attack (Guard, and the Payback
        unless the target is killed), exactly; None when no reaction follows."""
        return exchange_odds(self, request)

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


def _static_notes(board: Board, a: Figure, t: Figure, options: Mapping[str, object]) -> tuple[str, ...]:
    """The rules that apply to this attack, known before the dice, that are not modelled."""
    notes = []
    for figure in (a, t):
        if stat_bool(figure, "huge"):
            notes.append(f"{figure.label} is Huge: it fills a Space alone and counts as two "
                         "characters, which Full and Blocked Spaces do not count")
    return tuple(notes)


def _plan_notes(plan: _Plan) -> tuple[str, ...]:
    """The rules not applied to a planned attack (:meth:`ArcadiaRuleset.not_applied`): the plan's
    notes and, for a Hero target, what its death would bring."""
    killed = () if is_monster(plan.target) else (f"if {plan.target.label} is killed, {_hero_killed(plan)}",)
    return plan.notes + killed


def _plan_odds(board: Board, plan: _Plan, left: int | None) -> tuple[dict[int, Fraction], Fraction, str]:
    """The exact wounds of a planned attack (capped at ``left``), the mass the explosion cut
    moved, and what the odds' note adds (rerolls, CRIT effects). Without rerolls and CRIT
    effects it is the fast convolution of ``game.core.odds``; else :mod:`game.rules.arcadia.rolls`."""
    hit_face = HIT_FACE[plan.card.kind]
    adie, ddie = attack_die(board), defence_die(board)
    crit = plan.card.crit
    counting = crit.hits_once or crit.hits_each or crit.wounds_once or crit.wounds_each
    if not plan.attack_rerolls and not plan.defence_rerolls and not counting:
        a_spec = (adie.sides, adie.faces.count(hit_face), adie.faces.count(CRIT))
        d_spec = (ddie.sides, ddie.faces.count(SHIELD), ddie.faces.count(CRIT))
        pairs, cut = wounds_distribution(a_spec, plan.attack_dice, d_spec, plan.defence_dice, left, DEFAULT_TAIL)
        return dict(pairs), cut, ""
    att = roll_distribution(DieOdds(adie.sides, adie.faces.count(hit_face), adie.faces.count(CRIT)),
                            plan.attack_dice, plan.attack_rerolls, DEFAULT_TAIL,
                            hits_once=crit.hits_once, hits_each=crit.hits_each,
                            wounds_once=crit.wounds_once, wounds_each=crit.wounds_each)
    saves: dict[int, Fraction] = {0: Fraction(1)}
    cut = att.cut
    if plan.defence_dice:
        dfn = roll_distribution(DieOdds(ddie.sides, ddie.faces.count(SHIELD), ddie.faces.count(CRIT)),
                                plan.defence_dice, plan.defence_rerolls, DEFAULT_TAIL)
        saves, cut = dfn.successes(), cut + dfn.cut
    dist = wounds_after_saves(att, saves, left)
    top = max(dist, default=0) if left is None else left
    dist = {k: dist.get(k, Fraction(0)) for k in range(top + 1)}
    extra = f"; rerolls: {plan.attack_rerolls} attack, {plan.defence_rerolls} defence (misses re-rolled)"
    if crit.any:
        extra += f"; on a CRIT ({plan.card.name}): {crit.words()}"
    return dist, cut, extra


def exchange_odds(rules: ArcadiaRuleset, request: AttackRequest) -> Odds | None:
    """The wounds the attacking Hero takes in the reactions to ``request`` (Guard, then the
    Payback unless the attack kills its target), exactly; None when no reaction follows."""
    board, attacker, targets, attack, options = request.parts()
    if options.get(REACTION):
        return None
    plan, reason = rules._plan(board, attacker, targets, attack, options)
    if plan is None:
        raise IllegalAttackError(reason)
    hero = plan.attacker
    reactions = rules.reactions(board, request, Resolution(True, reason))
    if not reactions:
        return None
    kill = rules.odds(request).kill or Fraction(0)
    life = stat_int(hero, "life", -1)
    left = None if life < 0 else max(0, life - stat_int(hero, "wounds"))
    total: dict[int, Fraction] = {0: Fraction(1)}
    cut = Fraction(0)
    for reaction in reactions:
        if reaction.attack is None:
            continue
        moved = walked_along(board, reaction.reactor, reaction.options)
        rplan, _ = rules._plan(moved, reaction.reactor, [hero.id], reaction.attack, reaction.options)
        assert rplan is not None
        dist, moved_mass, _ = _plan_odds(moved, rplan, left)
        if reaction.kind == "Payback":
            dist = mixed(dist, 1 - kill)
        total, cut = capped_sum(total, dist, left), cut + moved_mass
    expected = sum((k * p for k, p in total.items()), Fraction(0))
    dead = None if left is None else total.get(left, Fraction(0))
    chances = [(f"{hero.label} wounded", sum((p for k, p in total.items() if k), Fraction(0)))]
    if dead is not None:
        chances.append((f"{hero.label} killed", dead))
    said = [r.why.rstrip(".") for r in reactions]
    if any(r.kind == "Payback" and r.attack for r in reactions):
        said.append(f"the Payback comes unless {plan.target.label} is killed ({float(kill) * 100:.1f}%)")
    return Odds(total, expected, dead, f"wounds to {hero.label}", cut, "; ".join(said),
                tuple(chances), kill_label=f"{hero.label} killed")


def _int_option(options: Mapping[str, object], key: str) -> int:
    value = options.get(key)
    if value is None:
        return 0
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise UsageError(f"option {key} must be a whole number, not {value!r}") from None


RULESET = ArcadiaRuleset()
