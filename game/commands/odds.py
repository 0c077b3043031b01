"""``sightline odds MAP ATTACKER TARGET``: the exact outcome distribution of an attack.

JSON: ``{"legal", "reason", "distribution": {"0": p0, "1": p1, ...}, "expected": e, "kill": k,
..., "ruleset", "los_rule", "exchange"}`` (probabilities as floats summing to 1; ``exact`` holds them
as fractions; ``los_rule``: the map's sight rule, by which the attack is judged). Text: a small bar
chart. When the attack calls for reactions (Arcadia Quest's Guard and Payback), the whole exchange
follows beside the attack alone: the wounds the attacker takes (``exchange`` in the JSON, null when
no reaction follows). An illegal attack prints its reason (``legal: false``, exit 0).
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from game.commands.attack import (
    add_attack_arguments,
    figures_named,
    load_request,
    sight_rule_line,
    sight_rule_spec,
)
from game.commands.wording import cli_reason
from game.core.errors import IllegalAttackError
from game.core.words import plural
from game.rules.base import Odds

BAR_WIDTH = 40


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``sightline odds``."""
    add_attack_arguments(parser)


def bar_chart(odds: Odds, width: int = BAR_WIDTH) -> list[str]:
    """The distribution as text bars, one line per outcome.

    >>> from fractions import Fraction
    >>> for line in bar_chart(Odds({0: Fraction(1, 4), 1: Fraction(3, 4)}, Fraction(3, 4), None, "wounds"), 8):
    ...     print(line)
      0 wounds  25.0% ███
      1 wound   75.0% ████████
    """
    top = max(odds.distribution.values(), default=0) or 1
    highest = max((v for v, p in odds.distribution.items() if p), default=0)
    rows = sorted((v, p) for v, p in odds.distribution.items() if v <= highest)
    # a long tail that prints as 0.0% is folded into one "n or more" row
    shown = max((i for i, (_, p) in enumerate(rows) if float(p) * 100 >= 0.05), default=0)
    tail = rows[shown + 1:]
    if len(tail) > 1:
        rows = rows[: shown + 1]
    pad = max((len(label_for(odds.label, v)) for v, _ in rows), default=0)
    lines = []
    for value, p in rows:  # impossible outcomes above the most the attack can do are left out
        bar = "█" * round(float(p / top) * width) if p else ""
        label = label_for(odds.label, value).ljust(pad)
        lines.append(f"{value:>3} {label}  {float(p) * 100:5.1f}% {bar}".rstrip())
    if len(tail) > 1:
        rest = sum((p for _, p in tail), Fraction(0))
        lines.append(f"{tail[0][0]:>3} or more{'':{max(0, pad - 8)}}  {float(rest) * 100:5.1f}% "
                     f"({len(tail)} outcomes of less than 0.05% each)")
    return lines


#: the nouns outcome labels count, singular; their plural spelling is game.core.words.plural's
COUNTED_NOUNS = ("wound", "enemy", "hit", "point")


def label_for(label: str, value: int) -> str:
    """The outcome label for ``value``: its counted nouns singular for exactly 1.

    >>> label_for("wounds", 1), label_for("wounds", 2), label_for("enemies defeated", 1)
    ('wound', 'wounds', 'enemy defeated')
    >>> label_for("hero wounds", 1), label_for("HP lost", 1)
    ('hero wound', 'HP lost')
    """
    if value != 1:
        return label
    singular = {plural(2, noun).split(" ", 1)[1]: noun for noun in COUNTED_NOUNS}
    return " ".join(singular.get(word, word) for word in label.split(" "))


def run(args: argparse.Namespace) -> int:
    """Print the exact distribution (or why the attack is illegal)."""
    asked = load_request(args)
    ruleset, request = asked.ruleset, asked.request
    with figures_named(args, asked):
        verdict = ruleset.check(request)
        odds = exchange = None
        reason = cli_reason(verdict.reason, verdict.problem)
        if verdict.legal:
            try:
                odds = ruleset.odds(request)
                exchange = ruleset.exchange_odds(request)
            except IllegalAttackError as exc:
                reason, odds = str(exc), None
    if args.json:
        doc: dict[str, object] = {"legal": odds is not None, "reason": reason}
        if odds is None:
            doc.update({"distribution": {}, "expected": None, "kill": None})
        else:
            doc.update(odds.as_json())
        doc["exchange"] = None if exchange is None else exchange.as_json()
        doc["ruleset"] = ruleset.name
        doc["los_rule"] = sight_rule_spec(request.board)
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    named = sight_rule_line(request.board)
    if odds is None:
        print(f"illegal: {reason}")
        if named is not None:
            print(named)
        return 0
    print(reason)
    if named is not None:
        print(named)
    _print_odds(odds)
    if exchange is not None:
        print(f"The whole exchange, {exchange.label}:")
        _print_odds(exchange)
    return 0


def _print_odds(odds: Odds) -> None:
    """The chart, the summary line and the note."""
    for line in bar_chart(odds):
        print(line)
    print(summary_line(odds))
    if odds.note:
        print(f"note: {odds.note}")


def summary_line(odds: Odds) -> str:
    """``expected 0.796 wounds; kill 1.9%`` with every chance the game's players ask for.

    >>> from fractions import Fraction
    >>> summary_line(Odds({0: Fraction(1)}, Fraction(0), None, "HP lost",
    ...     chances=(("hit", Fraction(1, 2)), ("killed (death)", Fraction(1, 8)))))
    'expected 0.000 HP lost; hit 50.0%; killed (death) 12.5%'
    """
    parts = [f"expected {float(odds.expected):.3f} {odds.label}"]
    parts += [f"{label} {float(p) * 100:.1f}%" for label, p in odds.shown_chances()]
    return "; ".join(parts)
