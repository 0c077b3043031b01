"""Mage Knight block and assign-damage phases as resolutions (steps, outcome, changes); pure."""

from __future__ import annotations

from collections.abc import Sequence

from game.core.board import Board, Figure, Stat
from game.core.words import plural
from game.rules.base import FigureChange, Resolution, Step, stat_bool, stat_int
from game.rules.mage_knight import combat as mk
from game.rules.mage_knight.figures import hero_numbers, units_of


def and_names(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def possessive(name: str) -> str:
    """``Fire Mages'`` / ``Tovak's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def plays_text(plays: Sequence[mk.Play]) -> str:
    """``Ranged 3 fire + Siege 2 physical`` (or ``nothing``)."""
    return " + ".join(str(p) for p in plays) if plays else "nothing"


def resolve_block(
    board: Board,
    hero: Figure,
    fig: Figure,
    enemy: mk.Enemy,
    groups: Sequence[Sequence[mk.Play]],
    reason: str,
) -> Resolution:
    """Block one enemy, attack by attack (``groups[i]`` blocks attack i): all or nothing; an
    unblocked enemy's damage is reported for the assign phase, a blocked one is marked."""
    steps: list[Step] = []
    results = []
    for index, value in enumerate(enemy.attacks):
        plays = groups[index] if index < len(groups) else []
        res = mk.block_result(plays, enemy, value)
        results.append(res)
        label = f"attack {index + 1} ({value})" if len(enemy.attacks) > 1 else f"Attack {value}"
        inefficient = sorted(set(mk.ELEMENTS) - mk.EFFICIENT_BLOCKS[enemy.element])
        steps.extend(
            tally_steps(
                res.tally,
                frozenset(inefficient),
                "block",
                against=f"{possessive(enemy.name)} {enemy.element} attack",
            )
        )
        swift = " (Swift: twice the Attack)" if enemy.has("swift") else ""
        steps.append(
            Step(
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
        )
    all_blocked = all(r.blocked for r in results)
    damage = sum(r.damage for r in results)
    outcome: dict[str, object] = {
        "phase": "block",
        "plays": [[str(p) for p in g] for g in groups]
        if len(groups) > 1
        else [str(p) for p in groups[0]],
        "block": results[0].block if len(results) == 1 else [r.block for r in results],
        "needed": results[0].needed if len(results) == 1 else [r.needed for r in results],
        "blocked": all_blocked,
        "damage": damage,
    }
    changes: tuple[FigureChange, ...] = ()
    blocks = " + ".join(str(r.block) for r in results)
    needed = " + ".join(str(r.needed) for r in results)
    summary = f"Block {blocks} against {needed} needed: {enemy.name} " + (
        "is blocked and deals no damage."
        if all_blocked
        else f"is not blocked; {damage} damage to assign."
    )
    if all_blocked:
        changes = (FigureChange(fig.id, {"blocked": True}),)
    else:
        armor, hand = hero_numbers(hero)
        outcome["hero_wounds_if_all_to_hero"] = mk.hero_wounds(damage, armor)
        steps.append(
            Step(
                "note",
                f"Unblocked: {damage} damage to assign in the assign phase "
                f"({plural(mk.hero_wounds(damage, armor), 'Wound')} if all go to "
                f"{hero.label}, Armor {armor}).",
            )
        )
    return Resolution(True, reason, tuple(steps), outcome, changes, summary=summary)


def resolve_assign(
    board: Board,
    hero: Figure,
    figs: Sequence[Figure],
    enemies: Sequence[mk.Enemy],
    order_text: str,
    reason: str,
) -> Resolution:
    """Assign each enemy's damage, attack by attack: to the Units named in ``order_text`` (a
    comma list, in order), the rest to the Hero; Units' and the Hero's state carry over."""
    armor, hand = hero_numbers(hero)
    order = [n.strip().casefold() for n in order_text.split(",") if n.strip()]
    unit_map = {f.label.casefold(): (f, u) for f, u in units_of(board, hero)}
    chosen = [unit_map[n] for n in order]
    state = {u.name: u for _, u in chosen}
    hero_before = stat_int(hero, "wounds")
    wounds, discard = hero_before, stat_int(hero, "wounds_discard")
    knocked = stat_bool(hero, "knocked_out")
    paralyzed = False
    steps: list[Step] = []
    unit_stats: dict[int, dict[str, Stat | None]] = {}
    for enemy in enemies:
        for value in enemy.attacks:
            damage = mk.unblocked_damage(enemy, value)
            units = [state[u.name] for _, u in chosen]
            result = mk.assign_damage(
                enemy, damage, units, hero_armor=armor, hand_limit=hand, wounds_before=wounds
            )
            brutal = " (Brutal: doubled)" if enemy.has("brutal") else ""
            steps.append(
                Step("tally", f"{enemy.name} deals {damage} {enemy.element} damage{brutal}.")
            )
            steps.extend(Step("note", n) for n in result.notes)
            for taken in result.units:
                unit = state[taken.name]
                if taken.no_wound_used:
                    text = f"{taken.name} absorbs {taken.absorbed} with its resistance, no Wound; it cannot take damage again this combat."
                    state[taken.name] = mk.Unit(
                        unit.name, unit.armor, unit.resistances, False, True, unit.figure_id
                    )
                    unit_stats.setdefault(taken.figure_id or 0, {})["absorbed"] = True
                else:
                    fate = (
                        "is destroyed (Paralyze)"
                        if taken.destroyed
                        else f"takes {plural(taken.wounds, 'Wound')}"
                    )
                    text = f"{taken.name} absorbs {taken.absorbed} and {fate}."
                    state[taken.name] = mk.Unit(
                        unit.name,
                        unit.armor,
                        unit.resistances,
                        True,
                        unit.absorbed,
                        unit.figure_id,
                    )
                    stats = unit_stats.setdefault(taken.figure_id or 0, {})
                    stats["wounded"] = True
                    stats["wounds"] = taken.wounds
                    if taken.destroyed:
                        stats["destroyed"] = True
                steps.append(Step("damage", text))
            if result.hero is not None and result.hero.damage > 0:
                h = result.hero
                wounds = h.wounds_this_combat
                discard += h.wounds_in_discard
                extra = (
                    f", and {h.wounds_in_discard} more into the discard pile (Poison)"
                    if h.wounds_in_discard
                    else ""
                )
                steps.append(
                    Step(
                        "damage",
                        f"{hero.label} takes {h.damage} damage against Armor {armor}: "
                        f"{h.wounds_in_hand} Wound{'s' if h.wounds_in_hand != 1 else ''} into the hand{extra}.",
                    )
                )
                if h.paralyzed:
                    paralyzed = True
                    steps.append(
                        Step(
                            "status",
                            f"Paralyze: {hero.label} discards every non-Wound card in hand.",
                        )
                    )
                if h.knocked_out and not knocked:
                    knocked = True
                    steps.append(
                        Step(
                            "status",
                            f"{hero.label} has taken {wounds} Wounds into the hand this combat "
                            f"(hand limit {hand}): knocked out, every non-Wound card is discarded.",
                        )
                    )
    changes = [FigureChange(fid, stats) for fid, stats in unit_stats.items()]
    hero_stats: dict[str, Stat | None] = {"wounds": wounds}
    if discard:
        hero_stats["wounds_discard"] = discard
    if knocked:
        hero_stats["knocked_out"] = True
    changes.append(FigureChange(hero.id, hero_stats))
    outcome = {
        "phase": "assign",
        "hero_wounds": wounds - hero_before,
        "wounds_in_hand": wounds,
        "wounds_discard": discard,
        "knocked_out": knocked,
        "paralyzed": paralyzed,
        "units": {board.figure(fid).label: stats for fid, stats in unit_stats.items()},
    }
    hero_taken = wounds - hero_before
    parts = [f"{hero.label} takes {plural(hero_taken, 'Wound') if hero_taken else 'no Wound'} into the hand"]
    for fid, stats in unit_stats.items():
        name = board.figure(fid).label
        if stats.get("destroyed"):
            parts.append(f"{name} is destroyed")
        elif stats.get("wounded"):
            parts.append(f"{name} is wounded")
        elif stats.get("absorbed"):
            parts.append(f"{name} absorbs damage without a Wound")
    summary = "; ".join(parts) + (f"; {hero.label} is knocked out." if knocked else ".")
    return Resolution(True, reason, tuple(steps), outcome, tuple(changes), summary=summary)


def tally_steps(
    tally: mk.Tally, halved: frozenset[str], what: str, against: str = ""
) -> list[Step]:
    """The tally as log steps: efficient plays at full value, then the inefficient pool halved
    once (``against`` names the enemy attack for blocks; else the resistances are named)."""
    steps = []
    if tally.efficient_plays or not tally.inefficient_plays:
        steps.append(
            Step(
                "tally",
                f"{what.capitalize()}: {plays_text(tally.efficient_plays)} "
                f"= {tally.efficient} at full value.",
                data={"efficient": tally.efficient},
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
            )
        )
    return steps
