"""The ``conquest`` ruleset: Conquest: First Blood (3rd edition, individual warriors).

Clash (A dice, keep the lowest C, needs Close) and Volley (X dice, keep the lowest V, needs line of
sight and ``range``, counted in squares with diagonal steps as one). The dice arithmetic and exact
odds are in :mod:`game.rules.conquest.dice`. Special rules (figure property ``rules``, a comma
list) are looked up in :data:`game.rules.conquest.special.HOOKS`; Relentless Blows and Parry are
implemented (as in the seed's worked example), every other rule is reported in a note step as not
applied.

Pools of a physical roll: ``attack`` (the primary roll, then re-rolled and extra dice in order: for each
triggering die, its re-roll first, then its extra dice) | ``block`` | ``resolve``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.core.board import Board, Figure, Stat
from game.core.dice import D6, DiceSource, DieRoll
from game.core.errors import IllegalAttackError, OptionError, UsageError
from game.core.words import plural
from game.rules.base import (
    AttackOption,
    AttackRequest,
    Choice,
    Condition,
    FigureChange,
    Legality,
    Odds,
    Resolution,
    Ruleset,
    RuleStatus,
    counts_faces,
    not_applied_clause,
    not_applied_steps,
)
from game.rules.conquest import dice as cd
from game.rules.conquest.special import PARRY_VOLLEY_REASON, UNKNOWN_TEXT, ActiveRules, active_rules
from game.rules.figure_stats import bool_problems, int_problems, stat_bool, stat_int
from game.rules.reach import close_reason, range_distance, sight_reason
from game.rules.steps import Flow, Stage, run_stages, stage_names

POOLS = ("attack", "block", "resolve")
#: the most extra Hits from effects an attack may have (the exact odds stay quick)
MAX_EXTRA_HITS = 10
#: the most dice one roll may have: the exact odds stay quick
MAX_DICE = 30
ATTACK, BLOCK, RESOLVE = range(3)


# --- the ruleset ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Profile:
    action: str  # clash | volley
    dice: int
    keep: int


def _profile(figure: Figure, action: str) -> _Profile:
    if action == "clash":
        return _Profile("clash", stat_int(figure, "attacks"), stat_int(figure, "clash"))
    return _Profile("volley", stat_int(figure, "barrage"), stat_int(figure, "volley"))


def block_stat(target: Figure, options: Mapping[str, object]) -> tuple[str, int]:
    """The defender's Block stat: ``options["block_stat"]`` (defence|evasion) or the higher one."""
    defence, evasion = stat_int(target, "defence"), stat_int(target, "evasion")
    choice = options.get("block_stat")
    if choice in (None, "", "auto", "best"):
        return ("defence", defence) if defence >= evasion else ("evasion", evasion)
    text = str(choice).strip().lower()
    if text in ("defence", "defense", "d"):
        return "defence", defence
    if text in ("evasion", "e"):
        return "evasion", evasion
    raise OptionError("block_stat", choice, ("defence", "evasion"))


def _names(attack: str | None) -> str | None:
    if attack is None:
        return None
    key = attack.strip().lower()
    if key in ("clash", "melee"):
        return "clash"
    if key in ("volley", "ranged", "barrage"):
        return "volley"
    raise UsageError(f"unknown Conquest attack {attack!r} (use Clash or Volley)")


def block_dice(target: Figure, options: Mapping[str, object], active: ActiveRules) -> tuple[str, int]:
    """The defender's Block stat and how many Block dice it rolls once the special rules that
    change the pool have (the roll and the exact odds both ask here)."""
    stat_name, block_count = block_stat(target, options)
    for rule, hooks in active.defender + active.attacker:
        if hooks.modify_block_pool is not None:
            block_count = hooks.modify_block_pool(block_count, rule)
    return stat_name, block_count


@dataclass(kw_only=True)
class _Attack(Flow):
    """One Clash or Volley being resolved: its inputs and what each stage leaves for the next."""

    dice: DiceSource
    fig: Figure
    target: Figure
    action: str
    profile: _Profile
    active: ActiveRules
    options: Mapping[str, object]
    #: Hits from effects (``extra_hits``): each rolled for its value
    extra: int = 0
    final: list[int] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    stat_name: str = ""
    block_faces: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    wounds: int = 0
    total: int = 0
    limit: int = 1
    resolve: int = 0
    test: cd.ResolveOutcome | None = None
    stats: dict[str, Stat | None] = field(default_factory=dict)


def _not_applied(flow: _Attack) -> None:
    """The special rules that are listed but not applied, one note each."""
    flow.steps.extend(not_applied_steps(flow.active.skipped, flow.stage))


def _primary_roll(flow: _Attack) -> None:
    """The primary roll: A (Clash) or X (Volley) dice."""
    prof = flow.profile
    primary = [
        DieRoll("attack", "d6", flow.dice.roll(D6, ATTACK), "rolled") for _ in range(prof.dice)
    ]
    flow.final = [int(r.face) for r in primary]
    flow.log("roll", f"{flow.fig.label} rolls {plural(prof.dice, 'die', 'dice')} for a "
                     f"{flow.action.capitalize()}: {_faces(primary)}.", primary)


def _secondary(flow: _Attack) -> None:
    """The secondary roll: special rules re-roll primary dice or add dice."""
    final, secondary, texts = _secondary_roll(flow.dice, flow.final, flow.active)
    flow.final = final
    if secondary:
        flow.log("reroll", "Secondary roll: " + "; ".join(texts) + ".", secondary)
        if flow.action == "volley" and any(rule.name == "parry" for rule, _ in flow.active.all()):
            flow.log("reroll", PARRY_VOLLEY_REASON + ".")  # a decision, so its reason is shown


def _keep(flow: _Attack) -> None:
    """Keep the lowest C (Clash) or V (Volley) dice as Hits; a 6 never hits."""
    final, keep = flow.final, flow.profile.keep
    flow.hits = hits = cd.keep_hits(final, keep)
    sixes = final.count(cd.NEVER_HITS)
    letter = "C" if flow.action == "clash" else "V"
    flow.log(
        "keep",
        f"Keep the lowest {keep} ({letter}) of {_list(sorted(final))}"
        + (f", never a 6 ({sixes} discarded)" if sixes else "")
        + f": Hits {_list(hits) if hits else 'none'}.",
        data={"dice": sorted(final), "hits": hits},
    )


def _extra_hits(flow: _Attack) -> None:
    """Hits from effects: one die rolled for each to give it its value (seed step ①); they join
    the kept Hits and are blocked as usual (a 6 too: it is a Hit given, not a die kept)."""
    if flow.extra <= 0:
        return
    rolls = [DieRoll("attack", "d6", flow.dice.roll(D6, ATTACK), "extra hit") for _ in range(flow.extra)]
    faces = [int(r.face) for r in rolls]
    flow.hits = sorted(flow.hits + faces)
    flow.log("roll", f"{plural(flow.extra, 'extra Hit')} from effects, rolled for their values: "
                     f"{_faces(rolls)}; Hits {_list(flow.hits)}.", rolls,
             {"extra_hits": faces, "hits": flow.hits})


def _block_roll(flow: _Attack) -> None:
    """The defender rolls its Block dice (Defence or Evasion)."""
    flow.stat_name, block_count = block_dice(flow.target, flow.options, flow.active)
    blocks = [
        DieRoll("block", "d6", flow.dice.roll(D6, BLOCK), "rolled")
        for _ in range(max(block_count, 0))
    ]
    flow.block_faces = [int(r.face) for r in blocks]
    flow.log("roll", f"{flow.target.label} rolls {plural(len(blocks), 'Block die', 'Block dice')} "
                     f"({flow.stat_name}): {_faces(blocks) if blocks else 'none'}.", blocks)


def _cancel(flow: _Attack) -> None:
    """Block dice cancel Hits of their value or more (matched optimally)."""
    pairs = cd.match_blocks(flow.hits, flow.block_faces)
    flow.left = left = cd.unblocked_hits(flow.hits, flow.block_faces)
    pair_text = (
        ", ".join(f"Block {b} cancels Hit {h}" for b, h in pairs) or "No Hit is cancelled"
    )
    flow.log("compare", f"{pair_text}; unblocked: {_list(left) if left else 'none'}.",
             data={"pairs": [list(p) for p in pairs], "unblocked": left})


def _wounds(flow: _Attack) -> None:
    """One Wound per unblocked Hit (special rules may add more)."""
    wounds = len(flow.left)
    for rule, hooks in flow.active.all():
        if hooks.on_unblocked_hit is not None:
            wounds += sum(hooks.on_unblocked_hit(h, rule) for h in flow.left)
    flow.wounds = wounds
    flow.total = total = stat_int(flow.target, "wounds") + wounds
    flow.limit = limit = stat_int(flow.target, "wound_limit", 1)
    flow.stats["wounds"] = total
    flow.log("damage", f"{flow.target.label} takes {wounds} Wound{'s' if wounds != 1 else ''} "
                       f"({total} of {limit}).", data={"wounds": wounds, "total": total})
    flow.resolve = stat_int(flow.target, "resolve")


def _resolve_test(flow: _Attack) -> None:
    """At the wound limit a Resolve test: passed, Broken! and Driven Back; failed, Slain."""
    if not (flow.wounds and cd.resolve_needed(flow.total, flow.limit)):
        return
    target, total, limit, resolve_value = flow.target, flow.total, flow.limit, flow.resolve
    roll: int | None = None
    resolve_roll: DieRoll | None = None
    if cd.modified_resolve(total, limit, resolve_value) > 0:
        resolve_roll = DieRoll("resolve", "d6", flow.dice.roll(D6, RESOLVE), "rolled")
        roll = int(resolve_roll.face)
    flow.test = test = cd.resolve_test(
        wounds=total, wound_limit=limit, resolve=resolve_value, roll=roll
    )
    text, rolls, data = _resolve_step(target, test, resolve_value, resolve_roll)
    flow.log("status", text, rolls, data)
    flow.stats["wounds"] = test.wounds_after
    if test.slain:
        flow.stats["slain"] = True
    else:
        flow.stats["broken"] = True


def _result(flow: _Attack) -> None:
    """The outcome, the target's new stats and the summary sentence."""
    target, test, hits, left, wounds = flow.target, flow.test, flow.hits, flow.left, flow.wounds
    slain = bool(test and test.slain)
    flow.outcome.update({
        "attack": flow.action.capitalize(), "dice": sorted(flow.final), "hits": hits,
        "block_stat": flow.stat_name, "blocks": flow.block_faces, "wounds": wounds,
        "wounds_total": flow.stats["wounds"],
        "resolve_test": None if test is None else {
            "modified": test.modified, "roll": test.roll, "passed": test.passed,
            "automatic_failure": test.automatic_failure,
        },
        "broken": bool(test and test.broken) or stat_bool(target, "broken"),
        "driven_back": bool(test and test.driven_back),
        "slain": slain,
    })
    blocked = len(hits) - len(left)
    summary = (
        f"{plural(len(hits), 'Hit')}, {blocked} blocked: {target.label} takes "
        f"{plural(wounds, 'Wound') if wounds else 'no Wound'} ({flow.stats['wounds']} of "
        f"{flow.limit})"
    )
    if slain:
        summary += " and is Slain"
    elif test is not None:
        summary += " and is Broken! and Driven Back"
    flow.summary = summary + "."
    flow.changes.append(FigureChange(target.id, flow.stats))


#: a Clash or Volley, step by step (:mod:`game.rules.steps`)
STAGES: tuple[Stage[_Attack], ...] = (
    Stage("not applied", _not_applied),
    Stage("roll", _primary_roll),
    Stage("secondary roll", _secondary),
    Stage("keep hits", _keep),
    Stage("extra hits", _extra_hits),
    Stage("block", _block_roll),
    Stage("cancel", _cancel),
    Stage("wounds", _wounds),
    Stage("resolve test", _resolve_test),
    Stage("result", _result),
)


class Conquest(Ruleset):
    """Conquest: First Blood (3rd edition): Clash and Volley, Block dice, Wounds, Resolve."""

    name = "conquest"
    doc_page = "docs/conquest.md"
    title = "Conquest: First Blood"
    pools = POOLS
    face_names = None
    stages = stage_names(STAGES)
    diagonal_distance = True
    squares_because = ("Volley range counts a diagonal step as one (Chebyshev distance), and a hex "
                       "board has no diagonals")
    known_properties = frozenset(
        {
            "side",
            "attacks",
            "clash",
            "barrage",
            "volley",
            "defence",
            "evasion",
            "wound_limit",
            "resolve",
            "range",
            "rules",
            "wounds",
            "broken",
            "slain",
            "extra_hits",
        }
    )
    assumptions = (
        "Rules from the First Blood 3rd edition summary on the Japanese rules wiki (the seed); the "
        "official rulebook text was not available.",
        "The defender rolls Defence or Evasion dice: the higher unless the Block stat is chosen.",
        "Block dice are matched to Hits optimally (as many Hits cancelled as possible).",
        "A Resolve test has no automatic success on 1 nor failure on 6; a modified Resolve of 0 or "
        "less fails without a roll.",
        "Relentless Blows applies to Clash primary dice only (its old text says 'in a Clash'); "
        "re-rolled and extra dice trigger nothing more. A die both rules touch is re-rolled "
        "first, then its extra die rolled.",
        PARRY_VOLLEY_REASON + ".",
        "Other special rules are listed but not applied (their 3rd edition text is unknown).",
        "An extra Hit from an effect (the attacker's extra_hits, or extra Hits given with the attack) is rolled for its value after the "
        "Hits are kept and is blocked as usual; a 6 stays a Hit (it is given, not kept from the "
        "roll), which any Block die cancels.",
        "The seed names a step for the defender's special rules on the Block dice (step 5) but "
        "describes none: no such rule is applied.",
        "A Resolve test happens only when the attack adds Wounds.",
        "Volley range is counted in squares, a diagonal step counting as one (Chebyshev distance).",
        "A missing wound_limit counts as 1 and a missing resolve as 0.",
    )

    special_rules = (
        RuleStatus("Relentless Blows", "modelled", "each primary 1 of a Clash adds one attack die"),
        RuleStatus("Parry", "modelled", "attack dice of 1 against the warrior are re-rolled, in a "
                   "Clash and in a Volley (" + PARRY_VOLLEY_REASON.split(": ", 1)[1] + ")"),
        RuleStatus("Extra Hits", "modelled", "extra_hits and the attack's extra Hits: each rolled for its value, "
                   "then blocked"),
        RuleStatus("Defender special rules on Block dice", "modelled", "step 5 runs the defender's "
                   "Block-pool hooks; the seed describes no such rule, so none acts yet"),
        *(RuleStatus(name.title(), "noted", "its First Blood 3rd edition text is unknown: listed, "
                     "not applied") for name in UNKNOWN_TEXT),
        RuleStatus("Any other special rule", "noted", "a rule the engine does not know is listed, "
                   "not applied"),
    )

    # --- menus and legality --------------------------------------------------------------

    def condition(self, figure: Figure) -> Condition:
        """Wounds of the wound limit; down when Slain; "Broken!" noted."""
        return Condition(
            max(0, stat_int(figure, "wound_limit")),
            max(0, stat_int(figure, "wounds")),
            stat_bool(figure, "slain"),
            "Broken!" if stat_bool(figure, "broken") else "",
        )

    def choices(self, board: Board, attacker: int, targets: Sequence[int]) -> list[Choice]:
        """The defender's Block stat (``options["block_stat"]``): by default the higher of Defence
        and Evasion; with one target the labels carry its numbers (``higher (Evasion 3)``).

        >>> from game.core.board import Figure
        >>> board = Board(2, 1, figures=[Figure(1, "A", "red", (0, 0)),
        ...     Figure(2, "B", "blue", (1, 0), {"defence": 2, "evasion": 3})], ruleset="conquest")
        >>> [label for _, label in RULESET.choices(board, 1, [2])[0].values]
        ['higher (Evasion 3)', 'Defence 2', 'Evasion 3']
        """
        target = board.figure(targets[0]) if len(targets) == 1 else None
        values: list[tuple[str | None, str]] = []
        for value, name in ((None, "higher"), ("defence", "Defence"), ("evasion", "Evasion")):
            label = name
            if target is not None:
                try:
                    stat, count = block_stat(target, {"block_stat": value})
                except UsageError:  # malformed numbers: the verdict says so
                    pass
                else:
                    label += f" ({stat.capitalize()} {count})" if value is None else f" {count}"
            values.append((value, label))
        return [Choice("block_stat", "Block", tuple(values), None)]

    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """Clash (if the warrior has Attacks) and Volley (if it has Barrage)."""
        fig = board.figure(attacker)
        out = []
        slain = self.condition(fig).down
        for action, kind in (("clash", "melee"), ("volley", "ranged")):
            prof = _profile(fig, action)
            if prof.dice <= 0:
                continue
            reason = f"{fig.label} is Slain" if slain else ""
            if not reason and prof.keep <= 0:
                reason = f"{fig.label} keeps no dice for a {action.capitalize()} ({'C' if action == 'clash' else 'V'} = 0)"
            out.append(AttackOption(action.capitalize(), kind, prof.dice, not reason, reason))
        return out

    def _choose(self, board: Board, attacker: Figure, target: Figure, attack: str | None) -> str:
        wanted = _names(attack)
        if wanted is not None:
            return wanted
        if _profile(attacker, "clash").dice > 0 and close_reason(board, attacker, target) is None:
            return "clash"
        if _profile(attacker, "volley").dice > 0:
            return "volley"
        return "clash"

    def _legality(
        self, board: Board, attacker: int, targets: Sequence[int], attack: str | None
    ) -> tuple[str | None, str]:
        fig = board.figure(attacker)
        if (off_grid := self.grid_refusal(board.grid.kind)) is not None:
            return off_grid, _names(attack) or "clash"
        if len(targets) != 1:
            return "a Clash or Volley targets exactly one warrior", "clash"
        target = board.figure(targets[0])
        action = self._choose(board, fig, target, attack)
        verb = action.capitalize()
        prof = _profile(fig, action)
        nonsense = self.nonsense_reason(board, [attacker, *targets])
        if nonsense:
            return nonsense.rstrip("."), action
        if prof.dice > 0 and prof.keep <= 0:
            return (f"{fig.label} keeps no dice for a {verb} "
                    f"({'C' if action == 'clash' else 'V'} = {prof.keep})"), action
        if target.id == fig.id:
            return f"{fig.label} cannot attack itself", action
        if self.condition(fig).down:
            return f"{fig.label} is Slain", action
        if self.condition(target).down:
            return f"{target.label} is already Slain", action
        if target.side == fig.side:
            return f"{target.label} is an ally of {fig.label}", action
        if prof.dice <= 0:
            stat = "attacks" if action == "clash" else "barrage"
            return f"{fig.label} has no {verb} ({stat} is 0)", action
        if action == "clash":
            why = close_reason(board, fig, target)
            if why:
                return f"{fig.label} cannot Clash with {target.label}: {why}", action
        else:
            reach = stat_int(fig, "range")
            dist = range_distance(board, fig.square, target.square, diagonal=True)
            if dist > reach:
                return (
                    f"{target.label} is out of range: {plural(dist, 'square')} away, {fig.label}'s range is "
                    f"{reach}",
                    action,
                )
            why = sight_reason(board, fig, target)
            if why:
                return why, action
        return None, action

    def check(self, request: AttackRequest) -> Legality:
        """Clash needs Close, Volley needs line of sight and range; both need a living enemy.

        No ``attack`` named: the first of Clash and Volley legal on the target."""
        board, attacker, targets, attack, options = request.parts()
        if attack is None:
            attack, reason = self.first_legal_attack(board, attacker, targets, options)
            if attack is None and reason:
                return Legality(False, reason)
        why, action = self._legality(board, attacker, targets, attack)
        if why:
            return Legality(False, why[0].upper() + why[1:] + ".")
        fig, target = board.figure(attacker), board.figure(targets[0])
        return Legality(True, f"{fig.label} can {action.capitalize()} {target.label}.")

    def nonsense(self, figure: Figure) -> list[str]:
        """A Clash or Volley that keeps no dice (C or V 0 with dice to roll), more dice than the
        exact odds count (:data:`MAX_DICE`), a wound limit of 0.

        >>> RULESET.nonsense(Figure(1, "K", "HK", (0, 0), {"attacks": 3, "clash": 0}))
        ["property 'clash' is 0: a Clash of 3 dice keeps no dice (give clash 1 or more, or attacks 0 for no Clash)"]
        """
        out = []
        for dice_key, keep_key, verb in (("attacks", "clash", "Clash"), ("barrage", "volley", "Volley")):
            dice, keep = stat_int(figure, dice_key), stat_int(figure, keep_key)
            if dice > 0 and keep <= 0 and keep_key in figure.stats:
                out.append(f"property {keep_key!r} is {keep}: a {verb} of {dice} dice keeps no dice "
                           f"(give {keep_key} 1 or more, or {dice_key} 0 for no {verb})")
        for key in ("attacks", "barrage", "defence", "evasion"):
            if stat_int(figure, key) > MAX_DICE:
                out.append(f"property {key!r} is {stat_int(figure, key)}: more than the {MAX_DICE} "
                           f"dice the exact odds count (use {MAX_DICE} or fewer)")
        if stat_int(figure, "extra_hits") > MAX_EXTRA_HITS:
            out.append(f"property 'extra_hits' is {stat_int(figure, 'extra_hits')}: more than the "
                       f"{MAX_EXTRA_HITS} extra Hits the exact odds count (use {MAX_EXTRA_HITS} or fewer)")
        if str(figure.stats.get("wound_limit", "")).strip() != "" and stat_int(figure, "wound_limit") <= 0:
            out.append("property 'wound_limit' is 0: the warrior would take a Resolve test "
                       "before any Wound (give it 1 or more, or leave it out for 1)")
        return out

    def figure_problems(self, figure: Figure) -> list[str]:
        """Non-numeric or negative profile values, non-boolean Broken / Slain.

        >>> RULESET.figure_problems(Figure(1, "K", "HK", (0, 0), {"clash": "3+", "defence": -1}))
        ["property 'clash' must be a number, not '3+'", "property 'defence' must be 0 or more, not -1"]
        """
        counts = ("attacks", "clash", "barrage", "volley", "defence", "evasion", "wound_limit",
                  "range", "wounds", "extra_hits")
        return (
            int_problems(figure, counts + ("resolve",), non_negative=counts)
            + bool_problems(figure, ("broken", "slain"))
        )

    def not_applied(self, request: AttackRequest) -> tuple[str, ...]:
        """The special rules the two warriors list that the engine does not know."""
        board, attacker, targets, attack, options = request.parts()
        attack = self.named_attack(board, attacker, targets, attack, options)
        if self._legality(board, attacker, targets, attack)[0] is not None:
            return ()
        fig, target = board.figure(attacker), board.figure(targets[0])
        return active_rules(fig, target, self._choose(board, fig, target, attack)).skipped

    # --- resolution ----------------------------------------------------------------------

    @counts_faces
    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """Roll, re-roll and add dice, keep Hits, Block, Wounds, Resolve test (:data:`STAGES`)."""
        board, attacker, targets, attack, options = request.parts()
        attack = self.named_attack(board, attacker, targets, attack, options)
        verdict = self.check(AttackRequest(board, attacker, targets, attack, options))
        if not verdict.legal:
            return Resolution.refused(verdict, seed=getattr(dice, "seed", None))
        fig, target = board.figure(attacker), board.figure(targets[0])
        action = self._choose(board, fig, target, attack)
        flow = _Attack(dice=dice, fig=fig, target=target, action=action,
                       profile=_profile(fig, action), active=active_rules(fig, target, action),
                       options=options, extra=extra_hits(fig, options))
        return run_stages(STAGES, flow).resolution(verdict.reason, getattr(dice, "seed", None))

    # --- exact odds ----------------------------------------------------------------------

    def odds(self, request: AttackRequest) -> Odds:
        """Exact distribution of Wounds from this attack, and the chance the target is Slain."""
        board, attacker, targets, attack, options = request.parts()
        attack = self.named_attack(board, attacker, targets, attack, options)
        verdict = self.check(AttackRequest(board, attacker, targets, attack, options))
        if not verdict.legal:
            raise IllegalAttackError(verdict.reason)
        fig, target = board.figure(attacker), board.figure(targets[0])
        action = self._choose(board, fig, target, attack)
        prof = _profile(fig, action)
        active = active_rules(fig, target, action)
        _, block_count = block_dice(target, options, active)
        extra = extra_hits(fig, options)
        if extra:
            dist = cd.wounds_with_extra_hits(prof.dice, prof.keep, max(block_count, 0), extra,
                                             active.effects())
        else:
            dist = cd.attack_wounds_distribution(
                prof.dice, prof.keep, max(block_count, 0), active.effects()
            )
        before = stat_int(target, "wounds")
        limit = stat_int(target, "wound_limit", 1)
        resolve_value = stat_int(target, "resolve")
        kill = sum(
            (
                p * cd.slain_chance(before + w, limit, resolve_value)
                for w, p in dist.items()
                if w > 0
            ),
            Fraction(0),
        )
        tested = sum(
            (p for w, p in dist.items() if w > 0 and cd.resolve_needed(before + w, limit)),
            Fraction(0),
        )
        wounded = sum((p for w, p in dist.items() if w > 0), Fraction(0))
        expected = sum((w * p for w, p in dist.items()), Fraction(0))
        chances = (
            ("wounded", wounded),
            ("Broken! and Driven Back", tested - kill),
            ("Slain", kill),
        )
        note = "; ".join(
            [*(not_applied_clause(t) for t in active.skipped),
             *([f"{plural(extra, 'extra Hit')} from effects, each rolled for its value"] if extra else []),
             f"the chart counts Wounds before the Resolve test (taken at {limit} Wounds; "
             f"{target.label} has {before})"]
        )
        return Odds(dist, expected, kill, "wounds", note=note, chances=chances, kill_label="Slain")


def extra_hits(figure: Figure, options: Mapping[str, object]) -> int:
    """Hits from effects: the attacker's ``extra_hits`` plus ``options["extra_hits"]``
    (an option of the attack)."""
    given = options.get("extra_hits") or 0
    try:
        more = int(given)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise UsageError(f"option extra_hits must be a whole number, not {given!r}") from None
    if more < 0:
        raise UsageError(f"option extra_hits must be 0 or more, not {more}")
    return stat_int(figure, "extra_hits") + more


def _secondary_roll(
    dice: DiceSource, primary: Sequence[int], active: ActiveRules
) -> tuple[list[int], list[DieRoll], list[str]]:
    """Apply ``on_primary_die`` hooks to each primary die, in order: its re-roll first (if any
    rule asks), then its extra dice. Returns the final faces, the new rolls and log phrases."""
    final = list(primary)
    rolls: list[DieRoll] = []
    texts: list[str] = []
    hooked = [(rule, hooks.on_primary_die) for rule, hooks in active.all() if hooks.on_primary_die]
    for index, face in enumerate(primary, start=1):
        effects = [(rule.text, hook(face, rule)) for rule, hook in hooked]
        reroll_by = ", ".join(text for text, (again, _) in effects if again)
        if reroll_by:
            new = DieRoll(
                "attack", "d6", dice.roll(D6, ATTACK), f"reroll of die {index} ({reroll_by})"
            )
            rolls.append(new)
            final[index - 1] = int(new.face)
            texts.append(f"die {index} ({face}) is re-rolled ({reroll_by}): {new.face}")
        for text, (_, count) in effects:
            for _ in range(count):
                new = DieRoll(
                    "attack", "d6", dice.roll(D6, ATTACK), f"extra attack from die {index} ({text})"
                )
                rolls.append(new)
                final.append(int(new.face))
                texts.append(f"die {index} ({face}) adds an extra attack ({text}): {new.face}")
    return final, rolls, texts


def _resolve_step(
    target: Figure, test: cd.ResolveOutcome, resolve: int, roll: DieRoll | None
) -> tuple[str, tuple[DieRoll, ...], dict[str, object]]:
    """The Resolve test's log line: its text, its die (if rolled) and its data."""
    over = resolve - test.modified
    mod = f"Resolve {resolve}" + (
        f" − {over} (Wounds above the limit) = {test.modified}" if over else ""
    )
    if test.automatic_failure:
        text = f"Resolve test: {mod}, 0 or less fails automatically: {target.label} is Slain."
    elif test.passed:
        text = (
            f"Resolve test: {mod}, rolled {test.roll} ≤ {test.modified}: passed; Wounds drop to "
            f"{test.wounds_after}, {target.label} is Broken! and Driven Back."
        )
    else:
        text = f"Resolve test: {mod}, rolled {test.roll} > {test.modified}: failed; {target.label} is Slain."
    return text, (roll,) if roll else (), {"modified": test.modified, "passed": test.passed}


def _faces(rolls: Sequence[DieRoll]) -> str:
    return " ".join(str(r.face) for r in rolls)


def _list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


RULESET = Conquest()
