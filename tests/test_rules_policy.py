"""One policy in all four games: every special rule and ability a ruleset lists
(``Ruleset.special_rules``) is modelled, refused with a reason, or noted "Not applied: ..." in
``attack``, ``odds`` and the window; and a value ``sightline check`` rejects is refused with the
same sentence by ``odds``, ``attack`` and the window.

Each rule of each catalogue has a situation here that meets it; a rule without one, or a
situation for a rule the catalogue does not list, fails the test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from game.core.board import Board, Figure
from game.core.dice import ScriptedDice, SeededDice, parse_faces
from game.core.errors import SightlineError, UsageError
from game.designer.lint import lint_board
from game.play.attack import AttackController
from game.play.session import Session
from game.rules.base import AttackRequest, NoDice, Ruleset
from game.rules.exchange import play_exchange
from game.rules.registry import get_ruleset, ruleset_names


@dataclass
class Situation:
    """A board, the attack made on it (the window builds the same with ``attack``, ``play`` and
    the first choice) and the words that show the rule at work (or refused, or noted)."""

    board: Board
    attack: str | None
    words: str
    options: dict[str, object] = field(default_factory=dict)
    faces: str | None = None
    attacker: int = 1
    target: int = 2

    def request(self) -> AttackRequest:
        return AttackRequest(self.board, self.attacker, [self.target], self.attack, self.options)


def arcadia(hero: dict[str, object], monster: dict[str, object], *, words: str, attack: str | None = None,
            faces: str | None = None, monster_at: tuple[int, int] = (1, 0), side: str = "monsters") -> Situation:
    board = Board.from_ascii(["......"], ruleset="arcadia")
    board.place_figure(Figure(1, "Mark", "red", (0, 0), {"life": 5, "defense": 1, **hero}))
    board.place_figure(Figure(2, "Goblin", side, monster_at, {"life": 3, **monster}))
    return Situation(board, attack, words, faces=faces)


def mage_knight(enemy: dict[str, object], phase: str, play: str, *, words: str,
                props: dict[str, object] | None = None, more: dict[str, object] | None = None) -> Situation:
    board = Board(6, 1, ruleset="mage_knight", properties=props or {})
    board.place_figure(Figure(1, "Tovak", "hero", (0, 0), {"armor": 2, "hand_limit": 5}))
    board.place_figure(Figure(2, "Orcs", "enemies", (1, 0), {"attack": 3, "armor": 3, "fame": 2, **enemy}))
    if more is not None:
        board.place_figure(Figure(3, "Guardians", "enemies", (2, 0), more))
    return Situation(board, {"ranged": "Ranged/Siege", "block": "Block", "assign": "Assign damage",
                             "attack": "Attack"}[phase], words, {"phase": phase, "play": play})


def conquest(attacker: dict[str, object], defender: dict[str, object], *, words: str, attack: str = "Clash",
             faces: str | None = None, options: dict[str, object] | None = None) -> Situation:
    apart = attack == "Volley"
    board = Board.from_ascii(["......"], ruleset="conquest")
    board.place_figure(Figure(1, "Knight", "HK", (0, 0), {"wound_limit": 3, "resolve": 3, **attacker}))
    board.place_figure(Figure(2, "Drone", "Spires", (4 if apart else 1, 0), {"wound_limit": 3, "resolve": 3,
                                                                           **defender}))
    return Situation(board, attack, words, options or {}, faces)


def folklore(attacker: dict[str, object], defender: dict[str, object], *, words: str, attack: str = "Sword",
             props: dict[str, object] | None = None, faces: str | None = None) -> Situation:
    board = Board.from_ascii(["......"], ruleset="folklore", properties=props or {})
    base = {"valour": 3, "senses": 3, "hp": 20, "armour": 0, "weapons": "Sword:valour:1:melee"}
    board.place_figure(Figure(1, "Aya", "party", (0, 0), {**base, **attacker}))
    board.place_figure(Figure(2, "Oni", "foes", (1, 0), {**base, **defender}))
    return Situation(board, attack, words, faces=faces)


GOBLIN = {"attacks": "Claws:melee:1", "movement": 2}
SITUATIONS: dict[str, dict[str, Callable[[], Situation]]] = {
    "arcadia": {
        "CRIT": lambda: arcadia({"attacks": "Blade:melee:1"}, {}, words="Crit: one more attack die",
                                faces="crit sword"),
        "Dazed": lambda: arcadia({"attacks": "Blade:melee:1"}, {"defense": 2, "dazed": True},
                                 words="Goblin is dazed: no defence roll", faces="sword"),
        "Defence icons on exhausted cards": lambda: arcadia({"attacks": "Blade:melee:1"},
                                                            {"defense": 1, "defense_bonus": 1},
                                                            words="Goblin rolls 2 defence dice", faces="sword | blank blank"),
        "Rerolls": lambda: arcadia({"attacks": "Blade:melee:1", "reroll": 1}, {}, words="Reroll 1 of 1",
                                   faces="bow>sword"),
        "Card effects on a CRIT": lambda: arcadia({"attacks": "Blade:melee:1:on_crit=+1 wound"}, {},
                                                  words="+ 1 on a CRIT (Blade)", faces="crit bow"),
        "Other card effects": lambda: arcadia({"attacks": "Nova Bolt:ranged:2:on_crit=second target"}, {},
                                              words="on_crit 'second target' is not modelled"),
        "Guard": lambda: _guard(),
        "Payback": lambda: arcadia({"attacks": "Bow:ranged:1"}, GOBLIN, monster_at=(3, 0),
                                   words="Payback: Goblin walks (3,0) → (2,0) → (1,0)"),
        "Payback movement": lambda: arcadia({"attacks": "Bow:ranged:1"}, {"attacks": "Claws:melee:1"},
                                            monster_at=(3, 0), words="Goblin has no movement property"),
        "A killed Hero's consequences": lambda: arcadia({"attacks": "Blade:melee:1"},
                                                        {"attacks": "Axe:melee:1", "life": 1}, side="blue",
                                                        words="the Death Curse Goblin draws", faces="sword"),
        "Huge characters": lambda: arcadia({"attacks": "Blade:melee:1"}, {"huge": True},
                                           words="Goblin is Huge"),
    },
    "mage_knight": {
        "Fortified": lambda: mage_knight({"abilities": "fortified"}, "ranged", "ranged 3",
                                         words="cannot be used while a target is fortified"),
        "Unfortified": lambda: mage_knight({"abilities": "unfortified", "site_fortified": True}, "ranged",
                                           "ranged 3", words="every target is defeated"),
        "Elusive": lambda: mage_knight({"abilities": "elusive", "elusive_armor": 6}, "attack", "5",
                                       words="Orcs, elusive"),
        "Swift": lambda: mage_knight({"abilities": "swift"}, "block", "5", words="Swift: twice the Attack"),
        "Brutal": lambda: mage_knight({"abilities": "brutal"}, "block", "2", words="Brutal: doubled"),
        "Poison": lambda: mage_knight({"abilities": "poison"}, "assign", "", words="into the discard pile (Poison)"),
        "Paralyze": lambda: mage_knight({"abilities": "paralyze"}, "assign", "",
                                        words="Paralyze: Tovak discards every non-Wound card"),
        "Assassination": lambda: _assassins(),
        "Summon": lambda: mage_knight({"abilities": "summon"}, "block", "6", props={"summon_pile": "Medusa:6::"},
                                      words="Summon: Orcs draws Medusa"),
        "Cumbersome": lambda: mage_knight({"abilities": "cumbersome"}, "block", "move 1, block 2",
                                          words="Cumbersome: 1 Move point lowers"),
        "Vampiric": lambda: mage_knight({"abilities": "vampiric"}, "assign", "", words="Vampiric: Orcs gains +2 Armor"),
        "Arcane Immunity": lambda: mage_knight({"abilities": "arcane immunity"}, "attack", "3",
                                               words="Arcane Immunity: Orcs ignores"),
        "Physical, Fire and Ice Resistance": lambda: mage_knight({"resistances": "physical"}, "attack", "6",
                                                                 words="halved by resistance (physical)"),
        "Cold Fire": lambda: mage_knight({"resistances": "fire, ice"}, "attack", "6 coldfire",
                                         words="halved by resistance (coldfire, fire, ice)"),
        "City bonuses": lambda: mage_knight({}, "attack", "4", props={"city": "white"},
                                            words="Orcs defends a white city: +1 Armor"),
        "Defend": lambda: mage_knight({"abilities": "defend"}, "attack", "5", words="has Defend"),
        "Defend of another enemy": lambda: mage_knight({}, "attack", "3",
                                                       more={"attack": 3, "armor": 5, "abilities": "defend"},
                                                       words="Defend of Guardians: it may protect Orcs"),
        "Combat between players (PvP)": lambda: _pvp(),
    },
    "conquest": {
        "Relentless Blows": lambda: conquest({"attacks": 1, "clash": 2, "rules": "Relentless Blows"}, {},
                                             words="adds an extra attack (Relentless Blows)", faces="1 3"),
        "Parry": lambda: conquest({"barrage": 1, "volley": 1, "range": 9}, {"rules": "Parry"}, attack="Volley",
                                  words="is re-rolled (Parry)", faces="1 3"),
        "Extra Hits": lambda: conquest({"attacks": 1, "clash": 1}, {}, options={"extra_hits": 1},
                                       words="1 extra Hit from effects", faces="2 4"),
        "Defender special rules on Block dice": lambda: conquest({"attacks": 1, "clash": 1}, {"defence": 1},
                                                                 words="rolls 1 Block die (defence)", faces="2 | 3"),
        **{name.title(): (lambda n=name: conquest({"attacks": 1, "clash": 1, "rules": f"{n.title()} 1"}, {},
                                                  words=f"{n.title()} 1 (Knight's special rule)"))
           for name in ("cleave", "flurry", "torrential fire", "deadly blades", "brutal impact",
                        "armour piercing", "support")},
        "Any other special rule": lambda: conquest({"attacks": 1, "clash": 1}, {"rules": "Shield Wall"},
                                                   words="Shield Wall (Drone's special rule)"),
    },
    "folklore": {
        "Attack skills": lambda: folklore({"skills": "Smash:attack:Sword:+2 damage"}, {}, attack="Smash",
                                          words="(Sword, Smash) (+2 damage)"),
        "Reaction skills": lambda: folklore({}, {"skills": "Sidestep:reaction:+1 dodge"},
                                            words="with Sidestep (reaction)"),
        "After N or more damage": lambda: folklore({"skills": "Rend:attack:Sword:after 1: +Bleeding"}, {},
                                                   attack="Rend", words="Oni suffers Bleeding",
                                                   faces="6 5 | 1 2 | 6"),
        "Other skill effects": lambda: folklore({"skills": "Blink:reaction:teleport"}, {},
                                                words="effect 'teleport' is not modelled"),
        "Bad statuses with a stated effect": lambda: folklore({"statuses": "Poison"}, {},
                                                              props={"status_effects": "Poison: -1 hit"},
                                                              words="valour 3 - 1"),
        "Bad statuses without a stated effect": lambda: folklore({"statuses": "Cursed"}, {},
                                                                 words="bad status 'Cursed' of Aya"),
        "Max-HP damage": lambda: folklore({"weapons": "Curse:valour:1:melee:maxhp"}, {}, attack="Curse",
                                          words="real damage to max HP", faces="6 5 | 1 2 | 3"),
        "Death check": lambda: folklore({}, {"hp": 1}, words="death check 2D6", faces="6 5 | 1 2 | 3 | 5 5"),
    },
}


def _guard() -> Situation:
    s = arcadia({"attacks": "Bow:ranged:1"}, GOBLIN, words="Guard: Goblin is Close to Mark")
    s.board.place_figure(Figure(3, "Troll", "monsters", (4, 0), {"life": 3, "attacks": "Club:melee:1"}))
    s.target = 3
    return s


def _assassins() -> Situation:
    s = mage_knight({"abilities": "assassination"}, "assign", "Peasants",
                    words="has Assassination: no damage can be assigned to Units")
    s.board.place_figure(Figure(9, "Peasants", "hero", (5, 0), {"unit": True, "armor": 1}))
    return s


def _pvp() -> Situation:
    s = mage_knight({}, "attack", "3", words="combat between players (PvP)")
    s.board.update_figure(2, hand_limit=5, armor=2)
    return s


CASES = [(name, rule) for name in ruleset_names() for rule in get_ruleset(name).special_rules]


def test_every_ruleset_lists_its_rules_and_each_has_a_situation() -> None:
    for name in ruleset_names():
        listed = [r.name for r in get_ruleset(name).special_rules]
        assert listed, f"{name} lists no special rules"
        assert sorted(listed) == sorted(SITUATIONS[name]), name


def dice_for(rules: Ruleset, situation: Situation) -> object:
    if situation.faces is None:
        return SeededDice(11) if rules.pools else NoDice()
    return ScriptedDice(parse_faces(situation.faces, pools=rules.pools, names=rules.face_names,
                                    numeric=rules.face_names is None, rerolls=rules.face_rerolls), rules.pools)


def attack_text(rules: Ruleset, situation: Situation) -> str:
    """What ``sightline attack`` would print: the steps, the sentence, each reaction and its steps."""
    done = play_exchange(rules, situation.request(), dice_for(rules, situation))  # type: ignore[arg-type]
    lines = [s.text for s in done.attack.steps] + [done.attack.sentence()]
    for reaction, result in done.reactions:
        lines.append(reaction.why)
        lines += [] if result is None else [s.text for s in result.steps]
    return "\n".join(lines)


def odds_text(rules: Ruleset, situation: Situation) -> str:
    odds = rules.odds(situation.request())
    exchange = rules.exchange_odds(situation.request())
    return odds.note + ("\n" + exchange.note if exchange is not None else "")


class _Loaded:
    path = "policy.tmx"

    def __init__(self, board: Board) -> None:
        self.board = board


def window_text(situation: Situation) -> str:
    """The attack panel's lines and the status line after Roll, through the real controller."""
    session = Session(_Loaded(situation.board), autosave=False)  # type: ignore[arg-type]
    session.selected, session.seed_source = situation.attacker, lambda: 11
    said: list[str] = []
    flow = AttackController(lambda: session, on_message=lambda text, kind: said.append(text))
    flow.set_target(situation.target)
    if situation.attack is not None:
        flow.set_attack(situation.attack)
    flow.play = str(situation.options.get("play", ""))
    lines = flow.not_applied()
    verdict = flow.verdict()
    lines.append("" if verdict is None else flow.reason_of(verdict))
    flow.roll()
    return "\n".join(lines + said)


@pytest.mark.parametrize(("name", "rule"), CASES, ids=[f"{n}-{r.name}" for n, r in CASES])
def test_each_rule_is_modelled_refused_or_noted(name: str, rule: object) -> None:
    rules = get_ruleset(name)
    status = rule.status  # type: ignore[attr-defined]
    situation = SITUATIONS[name][rule.name]()  # type: ignore[attr-defined]
    if status == "refused":
        try:
            verdict = rules.check(situation.request())
        except UsageError as exc:
            assert situation.words in str(exc)
            return
        assert not verdict.legal and situation.words in verdict.reason, verdict.reason
        return
    text = attack_text(rules, situation)
    if status == "modelled":
        assert situation.words in text, text
        assert f"Not applied: {rule.name}" not in text  # type: ignore[attr-defined]
        return
    assert status == "noted"
    noted = [line for line in text.splitlines() if "Not applied:" in line]
    assert any(situation.words in line for line in noted), text
    assert "Not applied:" in odds_text(rules, situation) and situation.words in odds_text(rules, situation)
    assert situation.words in window_text(situation)


@pytest.mark.parametrize(
    ("ruleset", "stats", "options"),
    [
        ("arcadia", {"defense": -1}, {}),
        ("mage_knight", {"abilities": "guard duty"}, {"phase": "attack", "play": "3"}),
        ("conquest", {"defence": -2}, {}),
        ("folklore", {"armour": -1}, {}),
    ],
)
def test_a_value_check_rejects_is_refused_with_the_same_sentence(ruleset: str, stats: dict[str, object],
                                                                options: dict[str, object]) -> None:
    situation = {
        "arcadia": lambda: arcadia({"attacks": "Blade:melee:1"}, stats, words=""),
        "mage_knight": lambda: mage_knight(stats, "attack", "3", words=""),
        "conquest": lambda: conquest({"attacks": 1, "clash": 1}, stats, words=""),
        "folklore": lambda: folklore({}, stats, words=""),
    }[ruleset]()
    rules = get_ruleset(ruleset)
    finding = next(f for f in lint_board(situation.board) if f.code == "property-value" and f.object_id == 2)
    sentence = finding.message.removeprefix("figure ")
    request = AttackRequest(situation.board, 1, [2], None, options)
    for ask in (rules.check, rules.odds, lambda r: rules.resolve(r, SeededDice(1) if rules.pools else NoDice())):
        with pytest.raises(SightlineError) as caught:
            ask(request)
        assert str(caught.value) == sentence
    window = window_text(situation)
    assert sentence[:1].upper() + sentence[1:] in window or sentence in window
