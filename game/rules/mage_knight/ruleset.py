"""The ``mage_knight`` ruleset: Mage Knight Board Game combat against enemy tokens (deterministic).

The attacker is the Hero; the targets are enemy figures; ``options["phase"]`` is ``ranged``,
``block``, ``assign`` or ``attack`` (default ``attack``) and ``options["play"]`` what the player
plays, in the typed-play grammar (:func:`parse_play`). Nothing is rolled: the resolution's steps are
a tally. Combat is abstract: positions, line of sight and Close do not matter.

Figure properties: enemies ``armor``, ``attack`` (``5`` or ``5+3`` for several attacks),
``element``, ``fame``, ``abilities`` and ``resistances`` (comma lists), ``elusive_armor``,
``site_fortified`` (overrides the map property of that name); the Hero ``armor`` and ``hand_limit``
(or ``level``: the level table gives both), ``fame``; Units are figures of the Hero's side with
``unit`` = true, ``armor``, ``resistances``. State written back: enemies ``blocked``,
``defeated``; Hero ``fame``, ``wounds`` (Wounds put into the hand this combat), ``wounds_discard``,
``knocked_out``; Units ``wounded``, ``wounds``, ``destroyed``, ``absorbed``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from game.core.board import Board, Figure
from game.core.dice import DiceSource
from game.core.errors import (
    AttackNameError,
    IllegalAttackError,
    OptionError,
    PlayBlocksError,
    SightlineError,
    UsageError,
)
from game.core.words import plural
from game.rules.base import (
    AttackOption,
    AttackRequest,
    Comparison,
    Condition,
    Legality,
    NoDice,
    Odds,
    Resolution,
    Ruleset,
    RuleStatus,
    not_applied_line,
)
from game.rules.figure_stats import (
    bool_problems,
    int_problems,
    parse_problem,
    stat_bool,
    stat_int,
    stat_list,
)
from game.rules.mage_knight import combat as mk
from game.rules.mage_knight.figures import (
    abilities_of,
    attack_values,
    city_of,
    city_words,
    enemy_from,
    is_enemy_token,
    parse_city,
    parse_token,
    summoned_token,
    units_of,
    with_city,
)
from game.rules.mage_knight.phases import (
    STAGE_NAMES,
    and_names,
    possessive,
    resolve_assign,
    resolve_attack,
    resolve_block,
)
from game.rules.mage_knight.plays import norm_name, parse_element, parse_play

#: enemy abilities the rules know (``abilities`` property, spaces and case ignored); Defend is
#: known but its rules text is not in our sources: an attack on a Defend enemy is refused
ABILITIES = frozenset(
    {"fortified", "unfortified", "elusive", "swift", "brutal", "poison", "paralyze",
     "assassination", "summon", "cumbersome", "vampiric", "arcaneimmunity", "defend"}
)
#: why an attack on a Defend enemy is refused (docs/mage-knight.md)
DEFEND_REFUSAL = ("has Defend (it protects itself or other enemies when attacked), whose rules text "
                  "is not in our sources (how much Armor, whom it protects): the attack is refused")

#: the Hero's menu: attack name → phase (``attack`` may name one instead of the ``phase`` option)
_PHASE_NAMES: dict[str, str] = {
    "Ranged/Siege": "ranged",
    "Block": "block",
    "Assign damage": "assign",
    "Attack": "attack",
}
#: what the Hero does to the targets in each phase (the window's titles)
PHASE_VERBS: dict[str, str] = {
    "ranged": "shoots at",
    "block": "blocks",
    "assign": "takes the damage of",
    "attack": "attacks",
}
#: what the player types in each phase (the window's hint for ``options["play"]``)
PLAY_HINTS: dict[str, str] = {
    "ranged": "e.g. ranged 3 fire, siege 2",
    "attack": "e.g. 5, 3 ice",
    "block": "e.g. 6 ice, 2",
    "assign": "Units taking damage, e.g. Peasants",
}
#: phases that take one enemy (a block is against one enemy); the others take any number
_ONE_TARGET_PHASES = frozenset({"block"})
#: phases that need a play typed (damage may go to the Hero alone, with no Units named)
_PLAY_OPTIONAL_PHASES = frozenset({"assign"})


class MageKnight(Ruleset):
    """Mage Knight combat: ranged/siege, block, assign damage and attack phases."""

    name = "mage_knight"
    doc_page = "docs/mage-knight.md"
    title = "Mage Knight"
    pools = ()
    face_names = None
    deterministic = True
    stages = STAGE_NAMES
    known_properties = frozenset(
        {
            "side",
            "armor",
            "attack",
            "element",
            "fame",
            "abilities",
            "resistances",
            "elusive_armor",
            "site_fortified",
            "hand_limit",
            "level",
            "unit",
            "blocked",
            "defeated",
            "wounds",
            "wounds_discard",
            "knocked_out",
            "wounded",
            "destroyed",
            "absorbed",
            "city",
            "summon_pile",
            "summoned",
            "summon_blocked",
            "vampiric_armor",
            "cumbersome_reduction",
        }
    )
    assumptions = (
        "Rules from a transcription of the Mage Knight rulebook (the WizKids PDF was not read).",
        "Combat is abstract: figure positions, line of sight and Close do not matter.",
        "An enemy with several attacks (attack = 5+3) is blocked attack by attack: separate the "
        "blocks for each attack with ';' in the play.",
        "Summon: the summoned token is the next of the map's summon_pile (top first) unless the "
        "summoner names the one it drew (summoned); a city's bonus applies to it as to its summoner.",
        "Vampiric: a Unit destroyed by Paralyze counts as a Unit it wounds.",
        "Cumbersome: Move points (move N in the block play) lower each attack separately; Swift "
        "doubles the lowered attack, Brutal doubles the lowered damage.",
        "Arcane Immunity changes nothing here: the tallies count only attacks and blocks, which it "
        "does not ignore.",
        "City bonuses (map or figure property city) go to every enemy token of that map; a figure "
        "writes city = none to opt out.",
        "Armor, not Elusive, is used in the attack phase only once the enemy's block was recorded "
        "(its 'blocked' property).",
    )
    #: combat is abstract (positions do not matter), and the game's own map is made of hexes
    grids = ("square", "hex")

    special_rules = (
        *(RuleStatus(name, "modelled", why) for name, why in (
            ("Fortified", "only Siege in the ranged phase; double-fortified: no attack at all"),
            ("Unfortified", "site fortification is ignored"),
            ("Elusive", "the higher Armor unless all its attacks were blocked"),
            ("Swift", "a block needs twice the attack"),
            ("Brutal", "unblocked damage is doubled"),
            ("Poison", "Wounds into the discard pile too; a Unit takes 2 Wounds"),
            ("Paralyze", "a Unit is destroyed; the Hero discards the hand"),
            ("Assassination", "no damage to Units"),
            ("Summon", "the block and the damage come from a brown token of the map's summon_pile"),
            ("Cumbersome", "move N in the block play lowers its attack, for the rest of the turn"),
            ("Vampiric", "+1 Armor for each Unit it wounds and each Wound it puts into a hand"),
            ("Arcane Immunity", "said; the tallies count only attacks and blocks, which it does not ignore"),
            ("Physical, Fire and Ice Resistance", "resisted plays are pooled and halved once"),
            ("Cold Fire", "halved only by a single target with both Fire and Ice Resistance"),
            ("City bonuses", "map or figure property city: white, blue, red or green"),
        )),
        RuleStatus("Defend", "refused", "an attack on a Defend enemy is refused: its rules text (how "
                   "much Armor, whom it protects) is not in our sources"),
        RuleStatus("Defend of another enemy", "noted", "an enemy with Defend in the combat may "
                   "protect the targets: not applied"),
        RuleStatus("Combat between players (PvP)", "refused", "a Hero target is refused: PvP blocks "
                   "reduce partially (only the function pvp_remaining_attack models it)"),
    )

    # --- helpers -------------------------------------------------------------------------

    @staticmethod
    def _phase(options: Mapping[str, object]) -> str:
        phase = str(options.get("phase") or "attack").strip().lower()
        aliases = {
            "siege": "ranged",
            "ranged/siege": "ranged",
            "damage": "assign",
            "melee": "attack",
        }
        phase = aliases.get(phase, phase)
        if phase not in mk.PHASES:
            raise OptionError("phase", phase, tuple(mk.PHASES))
        return phase

    @staticmethod
    def _with_phase(options: Mapping[str, object], attack: str | None) -> Mapping[str, object]:
        """``options`` with the phase: ``options["phase"]``, else the phase an attack name from
        :meth:`attacks` stands for (``Block`` → block), else the attack phase."""
        if options.get("phase") or not attack:
            return options
        key = attack.strip().lower()
        for name, phase in _PHASE_NAMES.items():
            if key in (name.lower(), phase):
                return {**options, "phase": phase}
        raise AttackNameError("Mage Knight", attack, tuple(_PHASE_NAMES), or_option="phase")

    def _default_phase(
        self, board: Board, attacker: int, targets: Sequence[int], options: Mapping[str, object]
    ) -> Mapping[str, object]:
        """``options`` with a phase: the one given, else the attack phase when it is legal, else
        the first legal one of the menu (ranged, block, assign), else the attack phase."""
        if options.get("phase"):
            return options
        first = {**options, "phase": "attack"}
        if self._illegal(board, attacker, targets, first) is None:
            return first
        for phase in _PHASE_NAMES.values():
            trial = {**options, "phase": phase}
            try:
                if phase != "attack" and self._illegal(board, attacker, targets, trial) is None:
                    return trial
            except UsageError:
                continue
        return first

    def figure_problems(self, figure: Figure) -> list[str]:
        """Unreadable ``attack``, non-numeric or negative numbers, unknown elements and abilities.

        >>> RULESET.figure_problems(Figure(1, "Orcs", "enemies", (0, 0),
        ...     {"attack": "3x", "element": "lava", "abilities": "swfit", "armor": -1}))
        ["property 'attack' must be a number or N+M, not '3x'", "property 'armor' must be 0 or more, not -1", "element: unknown element 'lava' (physical, fire, ice or coldfire)", "abilities: unknown ability 'swfit' (arcane immunity, assassination, brutal, cumbersome, defend, elusive, fortified, paralyze, poison, summon, swift, unfortified, vampiric)"]
        """
        counts = ("armor", "fame", "elusive_armor", "hand_limit", "level", "wounds",
                  "wounds_discard", "vampiric_armor")
        out = parse_problem(figure, lambda: attack_values(figure))
        out += int_problems(figure, counts, non_negative=counts)
        element = str(figure.stats.get("element", "") or "").strip()
        if element:
            out += [f"element: {p}" for p in parse_problem(figure, lambda: parse_element(element))]
        for name in stat_list(figure, "resistances"):
            out += [
                f"resistances: {p}" for p in parse_problem(figure, functools.partial(parse_element, name))
            ]
        for name in stat_list(figure, "abilities"):
            key = norm_name(name).replace(" ", "")
            if key not in ABILITIES:
                known = sorted(a.replace("arcaneimmunity", "arcane immunity") for a in ABILITIES)
                out.append(f"abilities: unknown ability {name!r} ({', '.join(known)})")
        if "city" in figure.stats:
            out += [f"city: {p}" for p in parse_problem(figure, lambda: parse_city(str(figure.stats["city"])))]
        if str(figure.stats.get("summoned", "") or "").strip():
            out += parse_problem(figure, lambda: parse_token(str(figure.stats["summoned"]), figure.label))
        out += [p for p in parse_problem(figure, lambda: _reductions(figure))]
        out += bool_problems(
            figure,
            ("site_fortified", "unit", "blocked", "defeated", "knocked_out", "wounded",
             "destroyed", "absorbed", "summon_blocked"),
        )
        return out

    def condition(self, figure: Figure) -> Condition:
        """No pips (Mage Knight counts Wound cards, not life); down when defeated or destroyed."""
        down = stat_bool(figure, "defeated") or stat_bool(figure, "destroyed")
        note = "knocked out" if stat_bool(figure, "knocked_out") else (
            "wounded" if stat_bool(figure, "wounded") else "")
        return Condition(0, 0, down, note)

    def attacks(self, board: Board, attacker: int) -> list[AttackOption]:
        """The plays a Hero builds, by phase (values come from the typed play, ``options["play"]``); enemies have none."""
        fig = board.figure(attacker)
        if is_enemy_token(fig):  # an enemy token attacks only in the block phase
            return []
        return [
            AttackOption(
                name,
                phase,
                None,
                max_targets=1 if phase in _ONE_TARGET_PHASES else None,
                entry=PLAY_HINTS[phase],
                entry_required=phase not in _PLAY_OPTIONAL_PHASES,
                verb=PHASE_VERBS[phase],
            )
            for name, phase in _PHASE_NAMES.items()
        ]

    def comparison(self, resolution: Resolution) -> Comparison | None:
        """The tally's comparison: attack against Armor, block against the attack to block, or
        the Wounds the Hero takes (against nothing).

        >>> from game.rules.base import Resolution
        >>> RULESET.comparison(Resolution(True, "", outcome={"effective": 5, "armor": 4,
        ...     "halved": [], "defeated": ["Orcs"]}))
        Comparison(value=5, needed=4, caption='attack 5 vs armour 4: defeats Orcs')
        """
        out = resolution.outcome
        if "effective" in out:
            halved = ", ".join(str(h) for h in out.get("halved") or ())  # type: ignore[attr-defined]
            note = f" (halved: {halved})" if halved else ""
            defeated = [str(d) for d in out.get("defeated") or ()]  # type: ignore[attr-defined]
            verdict = "defeats " + ", ".join(defeated) if defeated else "not enough"
            effective, armor = int(out["effective"]), int(out["armor"])  # type: ignore[call-overload]
            return Comparison(effective, armor, f"attack {effective} vs armour {armor}{note}: {verdict}")
        if isinstance(out.get("block"), int):
            block, needed = int(out["block"]), int(out["needed"])  # type: ignore[call-overload]
            verdict = "blocked" if out.get("blocked") else f"{out.get('damage')} damage gets through"
            return Comparison(block, needed, f"block {block} vs needed {needed}: {verdict}")
        if "hero_wounds" in out:
            wounds = int(out["hero_wounds"])  # type: ignore[call-overload]
            return Comparison(wounds, 0, f"{plural(wounds, 'Wound')} to the hero")
        return None

    def nonsense(self, figure: Figure) -> list[str]:
        """An Elusive enemy without ``elusive_armor`` (it would silently not be elusive).

        >>> RULESET.nonsense(Figure(1, "Shocktroops", "enemies", (0, 0), {"armor": 3, "abilities": "Elusive"}))
        ['abilities lists Elusive but elusive_armor is missing: an Elusive enemy has two Armor values (add elusive_armor, the higher one)']
        """
        abilities = {norm_name(a).replace(" ", "") for a in stat_list(figure, "abilities")}
        if "elusive" in abilities and "elusive_armor" not in figure.stats:
            return ["abilities lists Elusive but elusive_armor is missing: an Elusive enemy has two "
                    "Armor values (add elusive_armor, the higher one)"]
        return []

    def _illegal(
        self, board: Board, attacker: int, targets: Sequence[int], options: Mapping[str, object]
    ) -> str | PlayBlocksError | None:
        nonsense = self.nonsense_reason(board, [attacker, *targets])
        if nonsense:
            return nonsense.rstrip(".")
        phase = self._phase(options)
        hero = board.figure(attacker)
        if is_enemy_token(hero) or stat_bool(hero, "unit"):
            return (
                f"{hero.label} is not a Hero: in Mage Knight the Hero attacks, blocks and takes "
                "damage (name the Hero as the attacker)"
            )
        if not targets:
            return "choose at least one enemy"
        figs = [board.figure(t) for t in targets]
        for fig in figs:
            if fig.side == hero.side:
                return f"{fig.label} is on {possessive(hero.label)} side"
            if "hand_limit" in fig.stats or "level" in fig.stats:
                return (f"{fig.label} is a Hero: combat between players (PvP) follows its own rules "
                        "(blocks reduce partially), which only pvp_remaining_attack models")
            if self.condition(fig).down:
                return f"{fig.label} is already defeated"
        if phase in ("block", "assign"):
            for fig in figs:
                if "summon" in abilities_of(fig) and summoned_token(board, fig) is None:
                    return (f"Summon: {fig.label} summons a brown token in the block and assign "
                            "phases, and none is named: give the map a summon_pile or the figure "
                            "its summoned token (docs/mage-knight.md)")
        else:
            for fig in figs:
                if "defend" in abilities_of(fig):
                    return f"{fig.label} {DEFEND_REFUSAL}"
        enemies = [self._combatant(board, f, phase)[0] for f in figs]
        if phase == "block":
            return self._block_illegal(figs[0], enemies, options)
        if phase == "assign":
            plays_text = str(options.get("play") or "")
            names = [n.strip() for n in plays_text.split(",") if n.strip()]
            units = {f.label.casefold() for f, _ in units_of(board, hero)}
            for name in names:
                if name.casefold() not in units:
                    return f"{name} is not a Unit of {possessive(hero.label)} side"
            for fig in figs:
                if stat_bool(fig, "blocked") or stat_bool(fig, "summon_blocked"):
                    return f"{fig.label} was blocked: it deals no damage"
            return None
        return mk.attack_legality(parse_play(str(options.get("play") or ""), phase), enemies, phase)

    def _block_illegal(self, fig: Figure, enemies: Sequence[mk.Enemy], options: Mapping[str, object]
                       ) -> str | PlayBlocksError | None:
        """Why a block of ``enemies`` (one; a summoner's token, for a summoner) may not be made."""
        plays = self._block_plays(options)
        flat = [p for group in plays for p in group]
        why: str | PlayBlocksError | None = mk.block_legality(flat, enemies)
        enemy = enemies[0]
        if why is None and (stat_bool(fig, "blocked") or stat_bool(fig, "summon_blocked")):
            why = f"{fig.label} is already blocked"
        if why is None and len(plays) > len(enemy.attacks):
            why = PlayBlocksError(fig.label, len(enemy.attacks), len(plays))
        return why

    def _combatant(self, board: Board, fig: Figure, phase: str) -> tuple[mk.Enemy, str | None]:
        """The enemy that fights in this phase: a summoner's brown token (and its text) in the
        block and assign phases, else the figure's own token."""
        if phase in ("block", "assign") and "summon" in abilities_of(fig):
            text = summoned_token(board, fig)
            if text is not None:
                token = parse_token(text, fig.label)
                token = with_city(token, city_of(board, fig))
                return replace(token, name=f"{token.name} (summoned by {fig.label})"), text
        return enemy_from(board, fig), None

    def _block_plays(self, options: Mapping[str, object]) -> list[list[mk.Play]]:
        text = str(options.get("play") or "")
        return [parse_play(group, "block") for group in text.split(";")] if text.strip() else [[]]

    def check(self, request: AttackRequest) -> Legality:
        """Fortification, phase and play-type rules; a block is against one enemy.

        No phase and no attack named: the attack phase if legal, else the first legal phase."""
        board, attacker, targets, attack, options = request.parts()
        options = self._default_phase(board, attacker, targets, self._with_phase(options, attack))
        why = self._illegal(board, attacker, targets, options)
        if why:
            text = str(why)
            problem = why if isinstance(why, SightlineError) else None
            return Legality(False, text[0].upper() + text[1:] + ".", problem)
        hero = board.figure(attacker).label
        phase = self._phase(options)
        # a summoner's brown token fights in the block and assign phases: the sentence names it
        names = and_names([self._combatant(board, board.figure(t), phase)[0].name if phase in ("block", "assign")
                           else board.figure(t).label for t in targets])
        text = {
            "ranged": f"{hero} may attack {names} in the ranged and siege phase.",
            "block": f"{hero} may block {names}.",
            "assign": f"{possessive(names)} damage is assigned to {hero} and Units.",
            "attack": f"{hero} may attack {names} in the attack phase.",
        }[phase]
        return Legality(True, text)

    # --- resolution ----------------------------------------------------------------------

    def resolve(self, request: AttackRequest, dice: DiceSource) -> Resolution:
        """The phase's tally: attack against summed Armor, block against Attack, or damage."""
        board, attacker, targets, attack, options = request.parts()
        options = self._default_phase(board, attacker, targets, self._with_phase(options, attack))
        verdict = self.check(AttackRequest(board, attacker, targets, attack, options))
        if not verdict.legal:
            return Resolution.refused(verdict)
        phase = self._phase(options)
        hero = board.figure(attacker)
        figs = [board.figure(t) for t in targets]
        fighting = [self._combatant(board, f, phase) for f in figs]
        enemies = [e for e, _ in fighting]
        notes = (self._said(board, figs, enemies, phase), self._skipped(board, figs, phase))
        if phase == "block":
            return resolve_block(board, hero, figs[0], enemies[0], self._block_plays(options),
                                 verdict.reason, notes, fighting[0][1])
        if phase == "assign":
            return resolve_assign(board, hero, figs, enemies, str(options.get("play") or ""),
                                  verdict.reason, notes, [_reductions(f) for f in figs])
        plays = parse_play(str(options.get("play") or ""), phase)
        return resolve_attack(hero, figs, enemies, plays, phase, verdict.reason, notes)

    def _said(self, board: Board, figs: Sequence[Figure], enemies: Sequence[mk.Enemy],
              phase: str) -> tuple[str, ...]:
        """The abilities and bonuses at work in this phase, one sentence each."""
        out = []
        for fig, enemy in zip(figs, enemies, strict=True):
            if enemy.figure_id is None:  # a summoner's token fights in its place
                out.append(f"Summon: {fig.label} draws {enemy.name.split(' (')[0]} (a brown token); "
                           "its attack replaces the summoner's in the block and assign phases")
            city = city_words(enemy, city_of(board, fig))
            if city and (phase in ("block", "assign")) != city.endswith("+1 Armor"):
                out.append(city)
            if phase in ("ranged", "attack") and stat_int(fig, "vampiric_armor"):
                out.append(f"Vampiric: {possessive(fig.label)} Armor is +{stat_int(fig, 'vampiric_armor')} "
                           "for the rest of the combat")
            if "arcaneimmunity" in enemy.abilities or "arcaneimmunity" in abilities_of(fig):
                out.append(f"Arcane Immunity: {fig.label} ignores non-Attack/Block effects; this tally "
                           "counts only attacks and blocks")
        return tuple(out)

    def _skipped(self, board: Board, figs: Sequence[Figure], phase: str) -> tuple[str, ...]:
        """The rules that apply and are not modelled: Defend of an enemy in the combat, in the
        phases where enemies are attacked (an attack on a Defend enemy itself is refused)."""
        if phase not in ("ranged", "attack"):
            return ()
        ids = {f.id for f in figs}
        return tuple(
            f"Defend of {f.label}: it may protect {and_names([g.label for g in figs])} (its rules "
            "text is not in our sources)"
            for f in board.figures.values()
            if f.id not in ids and is_enemy_token(f) and "defend" in abilities_of(f)
            and not self.condition(f).down
        )

    def not_applied(self, request: AttackRequest) -> tuple[str, ...]:
        """Defend of an enemy in the combat that is not a target (see :meth:`_skipped`)."""
        board, attacker, targets, attack, options = request.parts()
        options = self._default_phase(board, attacker, targets, self._with_phase(options, attack))
        if self._illegal(board, attacker, targets, options):
            return ()
        return self._skipped(board, [board.figure(t) for t in targets], self._phase(options))

    # --- odds: deterministic -------------------------------------------------------------

    def odds(self, request: AttackRequest) -> Odds:
        """Probability 1 on the tally's outcome: enemies defeated (ranged/attack), damage getting
        through (block) or Hero Wounds (assign)."""
        board, attacker, targets, attack, options = request.parts()
        res = self.resolve(AttackRequest(board, attacker, targets, attack, options), NoDice())
        if not res.legal:
            raise IllegalAttackError(res.reason)
        out = res.outcome
        phase = out["phase"]
        chances: tuple[tuple[str, Fraction], ...]
        if phase == "block":
            value, label, kill = int(out["damage"]), "damage through", None  # type: ignore[call-overload]
            kill_label, chances = "kill", (("blocked", Fraction(int(value == 0))),)
        elif phase == "assign":
            value, label = int(out["hero_wounds"]), "hero wounds"  # type: ignore[call-overload]
            kill = Fraction(int(bool(out["knocked_out"])))
            kill_label, chances = "knock-out", (("knocked out", kill),)
        else:
            value, label = len(out["defeated"]), "enemies defeated"  # type: ignore[arg-type]
            kill = Fraction(int(value == len(targets)))
            kill_label, chances = "all defeated", (("all defeated", kill),)
        return Odds(
            {value: Fraction(1)},
            Fraction(value),
            kill,
            label,
            note=" ".join(["Mage Knight is deterministic: the tally decides.",
                            *(not_applied_line(t) for t in self.not_applied(request))]),
            chances=chances,
            kill_label=kill_label,
        )


def _reductions(figure: Figure) -> tuple[int, ...]:
    """The Move points each attack of a Cumbersome enemy lost in the block phase
    (``cumbersome_reduction``: ``2`` or ``2;1``, one per attack).

    >>> _reductions(Figure(1, "Ogre", "enemies", (0, 0), {"cumbersome_reduction": "2;0"}))
    (2, 0)
    """
    text = str(figure.stats.get("cumbersome_reduction", "") or "").strip()
    if not text:
        return ()
    parts = [p.strip() for p in text.split(";")]
    if not all(p.isdigit() and len(p) <= 7 for p in parts):
        raise UsageError(f"{figure.label}: property 'cumbersome_reduction' must be N or N;M, not {text!r}")
    return tuple(int(p) for p in parts)


RULESET = MageKnight()
