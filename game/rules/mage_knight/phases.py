"""Mage Knight block and assign-damage phases as resolutions (steps, outcome, changes); pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from game.core.board import Board, Figure, Stat
from game.core.words import plural
from game.rules.base import FigureChange, Resolution, Step, not_applied_steps
from game.rules.figure_stats import stat_bool, stat_int
from game.rules.mage_knight import combat as mk
from game.rules.mage_knight.figures import hero_numbers, units_of
from game.rules.steps import Flow, Stage, run_stages, stage_names


def and_names(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def possessive(name: str) -> str:
    """``Fire Mages'`` / ``Tovak's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def plays_text(plays: Sequence[mk.Play]) -> str:
    """``Ranged 3 fire + Siege 2 physical`` (or ``nothing``)."""
    return " + ".join(str(p) for p in plays) if plays else "nothing"


def resolve_attack(
    hero: Figure,
    figs: Sequence[Figure],
    enemies: Sequence[mk.Enemy],
    plays: Sequence[mk.Play],
    phase: str,
    reason: str,
    notes: Notes = (),
) -> Resolution:
    """A ranged, siege or melee attack on ``enemies`` (:data:`ATTACK_STAGES`): the tally against
    their summed Armor; defeated enemies are marked and the Hero gains their Fame. ``notes``:
    the abilities and bonuses at work, and the rules not applied (:func:`_abilities`)."""
    flow = _Attack(hero=hero, figs=figs, enemies=enemies, plays=plays,
                   result=mk.attack_result(plays, enemies, phase=phase), phase=phase, notes=notes)
    return run_stages(ATTACK_STAGES, flow).resolution(reason)


#: what a phase says before its tally: ``(said, not applied)`` sentences
Notes = tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]


@dataclass(kw_only=True)
class _Noted(Flow):
    """A phase that first says which abilities and bonuses are at work and what is not applied."""

    notes: Notes = ()


def _abilities(flow: _Noted) -> None:
    """The abilities and city bonuses at work, then the rules that apply but are not modelled."""
    if not flow.notes:
        return
    said, skipped = flow.notes
    for text in said:
        flow.log("note", text.rstrip(".") + ".")
    flow.steps.extend(not_applied_steps(skipped, flow.stage))


@dataclass(kw_only=True)
class _Attack(_Noted):
    """An attack being resolved: the Hero, the enemies, the plays and their tally."""

    hero: Figure
    figs: Sequence[Figure]
    enemies: Sequence[mk.Enemy]
    plays: Sequence[mk.Play]
    result: mk.AttackResult
    phase: str


def _attack_tally(flow: _Attack) -> None:
    """The attack played: efficient at full value, the rest (resisted) pooled and halved."""
    flow.steps.extend(tally_steps(flow.result.tally, flow.result.halved_elements, "attack",
                                  stage=flow.stage))


def _attack_armor(flow: _Attack) -> None:
    """The total against the summed Armor (an Elusive enemy's higher Armor where it applies)."""
    result, enemies = flow.result, flow.enemies
    # "Armor 7 (Prowlers 3 + Diggers 4)": the total the attack must reach, then whose it is
    armor_parts = " + ".join(
        (f"{e.name} {a}" if len(enemies) > 1 else e.name)
        + (", elusive" if e.elusive and a != e.armor else "")
        for e, a in zip(enemies, result.armors, strict=True)
    )
    flow.log(
        "compare",
        f"Attack {result.effective} against Armor {result.armor} ({armor_parts}): "
        + ("every target is defeated." if result.defeated else "not enough, no effect."),
        data={"effective": result.effective, "armor": result.armor},
    )


def _attack_fame(flow: _Attack) -> None:
    """Defeated enemies are marked; the Hero gains their Fame. The outcome and the summary."""
    result, enemies, hero = flow.result, flow.enemies, flow.hero
    names = and_names([e.name for e in enemies])
    verb = "is" if len(enemies) == 1 else "are"
    summary = f"Attack {result.effective} against Armor {result.armor}: "
    if result.defeated:
        summary += f"{names} {verb} defeated; {hero.label} gains {result.fame} Fame."
        flow.log("status", f"{hero.label} gains {result.fame} Fame.")
        flow.changes.extend(FigureChange(f.id, {"defeated": True}) for f in flow.figs)
        flow.changes.append(FigureChange(hero.id, {"fame": stat_int(hero, "fame") + result.fame}))
    else:
        summary += f"not enough, {names} {verb} not defeated."
    flow.summary = summary
    flow.outcome.update({
        "phase": flow.phase,
        "plays": [str(p) for p in flow.plays],
        "effective": result.effective,
        "armor": result.armor,
        "halved": sorted(result.halved_elements),
        "defeated": [e.name for e in enemies] if result.defeated else [],
        "fame": result.fame,
    })


#: the stages of a ranged, siege or melee attack (:mod:`game.rules.steps`)
ATTACK_STAGES: tuple[Stage[_Attack], ...] = (
    Stage("abilities", _abilities),
    Stage("attack", _attack_tally),
    Stage("against armor", _attack_armor),
    Stage("defeated and fame", _attack_fame),
)


def resolve_block(
    board: Board,
    hero: Figure,
    fig: Figure,
    enemy: mk.Enemy,
    groups: Sequence[Sequence[mk.Play]],
    reason: str,
    notes: Notes = (),
    summoned: str | None = None,
) -> Resolution:
    """Block one enemy, attack by attack (``groups[i]`` blocks attack i): all or nothing; an
    unblocked enemy's damage is reported for the assign phase, a blocked one is marked
    (:data:`BLOCK_EACH` for each attack, then :data:`BLOCK_END`). ``summoned``: ``enemy`` is
    the brown token the summoner ``fig`` drew (its text, recorded on the summoner)."""
    flow = _Block(hero=hero, fig=fig, enemy=enemy, groups=groups, notes=notes, summoned=summoned)
    run_stages(BLOCK_START, flow)
    for index, value in enumerate(enemy.attacks):
        flow.index, flow.value = index, value
        run_stages(BLOCK_EACH, flow)
    return run_stages(BLOCK_END, flow).resolution(reason)


@dataclass(kw_only=True)
class _Block(_Noted):
    """A block being resolved: the enemy, the plays, and the result of each of its attacks."""

    hero: Figure
    fig: Figure
    enemy: mk.Enemy
    groups: Sequence[Sequence[mk.Play]]
    summoned: str | None = None
    index: int = 0
    value: int = 0
    results: list[mk.BlockResult] = field(default_factory=list)


def _block_tally(flow: _Block) -> None:
    """The block played against this attack: efficient at full value, the rest halved; Move
    points first lower a Cumbersome enemy's attack."""
    enemy, index = flow.enemy, flow.index
    plays = flow.groups[index] if index < len(flow.groups) else []
    moved = _moved(flow)
    if moved:
        flow.log("tally", f"Cumbersome: {moved} Move point{'s lower' if moved != 1 else ' lowers'} "
                          f"{possessive(enemy.name)} attack {flow.value} → {max(0, flow.value - moved)} "
                          "for the rest of the turn.", data={"moved": moved})
    flow.results.append(mk.block_result(plays, enemy, flow.value))
    inefficient = sorted(set(mk.ELEMENTS) - mk.EFFICIENT_BLOCKS[enemy.element])
    flow.steps.extend(tally_steps(flow.results[-1].tally, frozenset(inefficient), "block",
                                  against=f"{possessive(enemy.name)} {enemy.element} attack",
                                  stage=flow.stage))


def _moved(flow: _Block) -> int:
    """The Move points played against this attack (``move N``: Cumbersome)."""
    plays = flow.groups[flow.index] if flow.index < len(flow.groups) else []
    return sum(p.value for p in plays if p.kind == "move")


def _block_compare(flow: _Block) -> None:
    """The block against the attack (Swift: twice the Attack); Brutal doubles what gets through."""
    enemy, res, value = flow.enemy, flow.results[-1], flow.value
    if _moved(flow):  # Cumbersome: the attack blocked is the lowered one
        value = max(0, value - _moved(flow))
    label = f"attack {flow.index + 1} ({value})" if len(enemy.attacks) > 1 else f"Attack {value}"
    swift = " (Swift: twice the Attack)" if enemy.has("swift") else ""
    flow.log(
        "compare",
        f"Block {res.block} against {possessive(enemy.name)} {label}, needed {res.needed}{swift}: "
        + (
            "blocked."
            if res.blocked
            else f"not enough, no effect; {res.damage} damage gets through"
            + (" (Brutal: doubled)." if enemy.has("brutal") else ".")
        ),
        data={"block": res.block, "needed": res.needed, "blocked": res.blocked},
    )


def _block_result(flow: _Block) -> None:
    """Blocked only when every attack is: the enemy is marked; else the damage to assign."""
    results, groups, enemy = flow.results, flow.groups, flow.enemy
    all_blocked = all(r.blocked for r in results)
    damage = sum(r.damage for r in results)
    flow.outcome.update({
        "phase": "block",
        "plays": [[str(p) for p in g] for g in groups] if len(groups) > 1
        else [str(p) for p in groups[0]],
        "block": results[0].block if len(results) == 1 else [r.block for r in results],
        "needed": results[0].needed if len(results) == 1 else [r.needed for r in results],
        "blocked": all_blocked,
        "damage": damage,
    })
    blocks = " + ".join(str(r.block) for r in results)
    needed = " + ".join(str(r.needed) for r in results)
    flow.summary = f"Block {blocks} against {needed} needed: {enemy.name} " + (
        "is blocked and deals no damage."
        if all_blocked
        else f"is not blocked; {damage} damage to assign."
    )
    stats: dict[str, Stat | None] = {}
    moves = [sum(p.value for p in g if p.kind == "move") for g in groups]
    if any(moves):
        stats["cumbersome_reduction"] = ";".join(str(m) for m in moves)
    if flow.summoned is not None:
        stats["summoned"] = flow.summoned
        if all_blocked:
            stats["summon_blocked"] = True
            flow.log("status", f"The summoned {enemy.name} is blocked and discarded, with no Fame.")
    elif all_blocked:
        stats["blocked"] = True
    if stats:
        flow.changes.append(FigureChange(flow.fig.id, stats))
    if all_blocked:
        return
    armor, _ = hero_numbers(flow.hero)
    flow.outcome["hero_wounds_if_all_to_hero"] = mk.hero_wounds(damage, armor)
    flow.log("note", f"Unblocked: {damage} damage to assign in the assign phase "
                     f"({plural(mk.hero_wounds(damage, armor), 'Wound')} if all go to "
                     f"{flow.hero.label}, Armor {armor}).")


#: the stages of a block before its attacks: the abilities at work
BLOCK_START: tuple[Stage[_Block], ...] = (Stage("abilities", _abilities),)
#: the stages of a block, for each attack of the enemy (:mod:`game.rules.steps`)
BLOCK_EACH: tuple[Stage[_Block], ...] = (Stage("block", _block_tally),
                                         Stage("block against attack", _block_compare))
#: the stages of a block once every attack is blocked or not
BLOCK_END: tuple[Stage[_Block], ...] = (Stage("block result", _block_result),)


def resolve_assign(
    board: Board,
    hero: Figure,
    figs: Sequence[Figure],
    enemies: Sequence[mk.Enemy],
    order_text: str,
    reason: str,
    notes: Notes = (),
    reductions: Sequence[Sequence[int]] = (),
) -> Resolution:
    """Assign each enemy's damage, attack by attack: to the Units named in ``order_text`` (a
    comma list, in order), the rest to the Hero; Units' and the Hero's state carry over
    (:data:`ASSIGN_EACH` for each attack, then :data:`ASSIGN_END`). ``reductions[i][j]``: the
    Move points a Cumbersome enemy i's attack j lost in the block phase."""
    armor, hand = hero_numbers(hero)
    order = [n.strip().casefold() for n in order_text.split(",") if n.strip()]
    unit_map = {f.label.casefold(): (f, u) for f, u in units_of(board, hero)}
    chosen = [unit_map[n][1] for n in order]
    wounds = stat_int(hero, "wounds")
    flow = _Assign(board=board, hero=hero, armor=armor, hand=hand, chosen=chosen,
                   state={u.name: u for u in chosen}, hero_before=wounds, wounds=wounds,
                   discard=stat_int(hero, "wounds_discard"),
                   knocked=stat_bool(hero, "knocked_out"), notes=notes)
    run_stages(ASSIGN_START, flow)
    for i, enemy in enumerate(enemies):
        cut = reductions[i] if i < len(reductions) else ()
        for j, value in enumerate(enemy.attacks):
            flow.enemy, flow.value = enemy, max(0, value - (cut[j] if j < len(cut) else 0))
            flow.cut = cut[j] if j < len(cut) else 0
            run_stages(ASSIGN_EACH, flow)
    return run_stages(ASSIGN_END, flow).resolution(reason)


@dataclass(kw_only=True)
class _Assign(_Noted):
    """Damage being assigned: the Hero's numbers, the Units in order and their state so far."""

    board: Board
    hero: Figure
    armor: int
    hand: int
    chosen: list[mk.Unit]
    state: dict[str, mk.Unit]
    hero_before: int
    wounds: int
    discard: int
    knocked: bool
    paralyzed: bool = False
    unit_stats: dict[int, dict[str, Stat | None]] = field(default_factory=dict)
    enemy: mk.Enemy | None = None
    value: int = 0
    #: the Move points that lowered this (Cumbersome) attack in the block phase
    cut: int = 0
    assignment: mk.Assignment | None = None
    #: Vampiric: enemy figure id → Units it wounded and Wounds it put into the hand this combat
    vampiric: dict[int, int] = field(default_factory=dict)


def _enemy_attack(flow: _Assign) -> None:
    """This attack's damage (Brutal doubles it), assigned to the Units in order, then the Hero."""
    enemy = flow.enemy
    assert enemy is not None
    damage = mk.unblocked_damage(enemy, flow.value)
    units = [flow.state[u.name] for u in flow.chosen]
    flow.assignment = result = mk.assign_damage(
        enemy, damage, units, hero_armor=flow.armor, hand_limit=flow.hand,
        wounds_before=flow.wounds,
    )
    brutal = " (Brutal: doubled)" if enemy.has("brutal") else ""
    cut = f" (Cumbersome: lowered by {flow.cut} in the block phase)" if flow.cut else ""
    flow.log("tally", f"{enemy.name} deals {damage} {enemy.element} damage{brutal}{cut}.")
    if enemy.has("vampiric") and enemy.figure_id is not None:
        fed = sum(1 for u in result.units if u.wounds or u.destroyed)
        fed += result.hero.wounds_in_hand if result.hero is not None else 0
        flow.vampiric[enemy.figure_id] = flow.vampiric.get(enemy.figure_id, 0) + fed
    for note in result.notes:
        flow.log("note", note)


def _units_absorb(flow: _Assign) -> None:
    """Each Unit named absorbs what it can: a Wound, destruction (Paralyze), or its resistance."""
    assert flow.assignment is not None
    for taken in flow.assignment.units:
        unit = flow.state[taken.name]
        stats = flow.unit_stats.setdefault(taken.figure_id or 0, {})
        if taken.no_wound_used:
            text = (f"{taken.name} absorbs {taken.absorbed} with its resistance, no Wound; it "
                    "cannot take damage again this combat.")
            flow.state[taken.name] = mk.Unit(
                unit.name, unit.armor, unit.resistances, False, True, unit.figure_id
            )
            stats["absorbed"] = True
        else:
            fate = (
                "is destroyed (Paralyze)"
                if taken.destroyed
                else f"takes {plural(taken.wounds, 'Wound')}"
            )
            text = f"{taken.name} absorbs {taken.absorbed} and {fate}."
            flow.state[taken.name] = mk.Unit(
                unit.name, unit.armor, unit.resistances, True, unit.absorbed, unit.figure_id
            )
            stats["wounded"] = True
            stats["wounds"] = taken.wounds
            if taken.destroyed:
                stats["destroyed"] = True
        flow.log("damage", text)


def _hero_takes(flow: _Assign) -> None:
    """The rest goes to the Hero: Wounds into the hand (Poison: more into the discard pile),
    Paralyze, and a knock-out at the hand limit."""
    assert flow.assignment is not None
    h, hero = flow.assignment.hero, flow.hero
    if h is None or h.damage <= 0:
        return
    flow.wounds = h.wounds_this_combat
    flow.discard += h.wounds_in_discard
    extra = (
        f", and {h.wounds_in_discard} more into the discard pile (Poison)"
        if h.wounds_in_discard
        else ""
    )
    flow.log("damage", f"{hero.label} takes {h.damage} damage against Armor {flow.armor}: "
                       f"{h.wounds_in_hand} Wound{'s' if h.wounds_in_hand != 1 else ''} into the "
                       f"hand{extra}.")
    if h.paralyzed:
        flow.paralyzed = True
        flow.log("status", f"Paralyze: {hero.label} discards every non-Wound card in hand.")
    if h.knocked_out and not flow.knocked:
        flow.knocked = True
        flow.log("status", f"{hero.label} has taken {flow.wounds} Wounds into the hand this "
                           f"combat (hand limit {flow.hand}): knocked out, every non-Wound card "
                           "is discarded.")


def _assign_result(flow: _Assign) -> None:
    """The Units' and the Hero's new stats (and a Vampiric enemy's Armor), the outcome and the
    summary sentence."""
    hero, board, wounds = flow.hero, flow.board, flow.wounds
    flow.changes.extend(FigureChange(fid, stats) for fid, stats in flow.unit_stats.items())
    for fid, fed in flow.vampiric.items():
        if fed:
            fig = board.figure(fid)
            flow.log("status", f"Vampiric: {fig.label} gains +{fed} Armor for the rest of the combat "
                               f"(a Unit wounded or a Wound into the hand counts 1).")
            flow.changes.append(FigureChange(fid, {"vampiric_armor": stat_int(fig, "vampiric_armor") + fed}))
    hero_stats: dict[str, Stat | None] = {"wounds": wounds}
    if flow.discard:
        hero_stats["wounds_discard"] = flow.discard
    if flow.knocked:
        hero_stats["knocked_out"] = True
    flow.changes.append(FigureChange(hero.id, hero_stats))
    flow.outcome.update({
        "phase": "assign",
        "hero_wounds": wounds - flow.hero_before,
        "wounds_in_hand": wounds,
        "wounds_discard": flow.discard,
        "knocked_out": flow.knocked,
        "paralyzed": flow.paralyzed,
        "units": {board.figure(fid).label: stats for fid, stats in flow.unit_stats.items()},
    })
    hero_taken = wounds - flow.hero_before
    parts = [f"{hero.label} takes "
             f"{plural(hero_taken, 'Wound') if hero_taken else 'no Wound'} into the hand"]
    for fid, stats in flow.unit_stats.items():
        name = board.figure(fid).label
        if stats.get("destroyed"):
            parts.append(f"{name} is destroyed")
        elif stats.get("wounded"):
            parts.append(f"{name} is wounded")
        elif stats.get("absorbed"):
            parts.append(f"{name} absorbs damage without a Wound")
    flow.summary = "; ".join(parts) + (f"; {hero.label} is knocked out." if flow.knocked else ".")


#: the stages of assigning damage before the attacks: the abilities at work
ASSIGN_START: tuple[Stage[_Assign], ...] = (Stage("abilities", _abilities),)
#: the stages of assigning damage, for each attack of each enemy (:mod:`game.rules.steps`)
ASSIGN_EACH: tuple[Stage[_Assign], ...] = (
    Stage("enemy attack", _enemy_attack),
    Stage("units absorb", _units_absorb),
    Stage("hero takes damage", _hero_takes),
)
#: the stages of assigning damage once every attack is assigned
ASSIGN_END: tuple[Stage[_Assign], ...] = (Stage("assign result", _assign_result),)


def tally_steps(
    tally: mk.Tally, halved: frozenset[str], what: str, against: str = "", stage: str = ""
) -> list[Step]:
    """The tally as log steps: efficient plays at full value, then the inefficient pool halved
    once (``against`` names the enemy attack for blocks; else the resistances are named);
    ``stage`` is the name of the step that logs them."""
    steps = []
    if tally.efficient_plays or not tally.inefficient_plays:
        steps.append(
            Step(
                "tally",
                f"{what.capitalize()}: {plays_text(tally.efficient_plays)} "
                f"= {tally.efficient} at full value.",
                data={"efficient": tally.efficient},
                stage=stage,
            )
        )
    if tally.inefficient_plays:
        why = (
            f"inefficient against {against}"
            if against
            else f"halved by resistance ({', '.join(sorted(halved))})"
        )
        steps.append(
            Step(
                "tally",
                f"{plays_text(tally.inefficient_plays)} = {tally.inefficient} {why}: pooled and halved "
                f"once, rounded down → {tally.inefficient // 2}. Total {tally.total}.",
                data={"inefficient": tally.inefficient, "halved": tally.inefficient // 2},
                stage=stage,
            )
        )
    return steps


#: the names of every step of Mage Knight combat, phase by phase: attack, block, assign damage
STAGE_NAMES: tuple[str, ...] = (
    *stage_names(ATTACK_STAGES), *stage_names(BLOCK_EACH), *stage_names(BLOCK_END),
    *stage_names(ASSIGN_EACH), *stage_names(ASSIGN_END),
)
