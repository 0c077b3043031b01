"""The balance report's HTML text: ``DIR/index.html`` beside its PNGs, all local (pure).

One page: the verdict (the differences a designer should look at), the zones, one table with
every number under every rule, then a section per measure with its picture under the first
rule and the numbers behind it. Pictures are named by the caller (:data:`PICTURES`); the
numbers are :class:`~game.designer.balance.Balance`'s. Definitions: docs/balance.md.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from fractions import Fraction

from game import __version__
from game.core.board import Board, fmt_square
from game.designer.balance import DAMAGE_RANGES, Balance, RuleNumbers

_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1180px; color: #222;
       background: #faf8f2; padding: 0 1em; }
h2 { border-bottom: 2px solid #ddd3bd; padding-bottom: 0.2em; margin-top: 2em; }
.meta, .note { color: #666; }
img { max-width: 100%; border: 1px solid #ccc; background: #fff; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ddd3bd; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #efe9da; }
.finding { background: #fff3e0; border-left: 4px solid #d9822b; padding: 0.4em 0.8em; margin: 0.3em 0; }
.fair { background: #e8f5e9; border-left: 4px solid #2a7a2a; padding: 0.4em 0.8em; }
.cols { display: flex; gap: 1.5em; flex-wrap: wrap; align-items: flex-start; }
.cols figure { margin: 0; max-width: 560px; } figcaption { color: #555; }
"""

#: picture file names: the map's pictures, then per rule (``{i}`` = the rule's number from 1)
PICTURES = {
    "zones": "zones.png", "chokes": "chokes.png", "exposure": "exposure-{i}.png",
    "vantage": "vantage-{i}.png", "strikes": "strikes-{i}.png", "safe": "safe-{i}-{side}.png",
    "symmetry": "symmetry-{i}.png",
}


def _pct(value: Fraction | float) -> str:
    return f"{float(value) * 100:.0f}%"


def _img(images: Mapping[str, str], key: str, alt: str, caption: str = "") -> str:
    if key not in images:
        return ""
    name = html.escape(images[key])
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure><a href="{name}"><img src="{name}" alt="{html.escape(alt)}"></a>{cap}</figure>'


def _nouns(report: Balance) -> tuple[str, str]:
    """What one cell and several are called: ``square``/``squares``, ``hex``/``hexes``."""
    return ("hex", "hexes") if report.cells == "hexes" else ("square", "squares")


def _summary(report: Balance) -> str:
    """Every number under every rule: one row per rule and side."""
    one, many = _nouns(report)
    head = (f"<table><tr><th>rule</th><th>side</th><th>sees of the other zone</th><th>mean per {one}</th>"
            f"<th>first strike</th><th>safe {many}</th><th>safe for "
            f"{report.turns} turn{'s' if report.turns != 1 else ''}</th><th>vantage {many}</th>"
            "<th>symmetry</th></tr>")
    rows = []
    for numbers in report.rules:
        for s in numbers.sides:
            sym = "; ".join(f"{c.transform}: {c.broken} pairs differ" for c in numbers.symmetry) or "—"
            rows.append(
                f"<tr><td>{html.escape(numbers.rule.spec())}</td><td>{html.escape(s.side)} → {html.escape(s.other)}</td>"
                f"<td>{s.exposure.seen}/{s.exposure.size} ({_pct(s.exposure.share)})</td><td>{_pct(s.exposure.mean)}</td>"
                f"<td>{html.escape(s.first_strike.words())}</td><td>{int(s.safe.sum())}</td>"
                f"<td>{'—' if s.safe_turns is None else int(s.safe_turns.sum())}</td><td>{int(numbers.vantage.sum())}</td>"
                f"<td>{html.escape(sym)}</td></tr>")
    return head + "".join(rows) + "</table>"


def _zones(report: Balance) -> str:
    one, many = _nouns(report)
    rows = []
    for zone in report.zones:
        where = (f"deploy objects {', '.join(map(str, zone.object_ids))}" if zone.source == "objects"
                 else f"the side's figures' {many}")
        strikers = "<br>".join(f"{html.escape(s.name)} (move {s.move}; {html.escape(s.words(one))})"
                               for s in report.strikers.get(zone.side, ()))
        rows.append(f"<tr><td>{html.escape(zone.side)}</td><td>{len(zone.squares)}</td><td>{where}</td>"
                    f"<td>{strikers or '—'}</td></tr>")
    return (f"<table><tr><th>side</th><th>{many}</th><th>from</th><th>strikes with (move, reach)</th></tr>"
            + "".join(rows) + "</table>")


def _rule_sections(numbers: RuleNumbers, images: Mapping[str, str], turns: int, note: str = "",
                   nouns: tuple[str, str] = ("square", "squares")) -> list[str]:
    spec = html.escape(numbers.rule.spec())
    one, many = nouns
    parts = [
        f"<h2>Exposure and vantage {many} ({spec})</h2>",
        f"<p>Left: the {many} of each zone some {one} of the other zone sees (orange, with how many) and "
        f"those it does not (green). Right: the {many} outside both zones that see into both, shaded by how "
        f"many zone {many} see them.</p>",
        '<div class="cols">', _img(images, "exposure", "exposure heat map"), _img(images, "vantage", f"vantage {many}"),
        "</div>",
        f"<h2>First strike ({spec})</h2>",
        f"<p>The earliest turn each side can attack a {one} of the other zone: the path from its zone, the "
        f"{one} it attacks from (ring) and the {one} attacked (cross).</p>",
        _img(images, "strikes", "first strikes"),
        "<ul>" + "".join(f"<li>{html.escape(s.side)}: {html.escape(s.first_strike.words())}"
                         + (f" — path {html.escape(' '.join(fmt_square(q) for q in s.first_strike.path))}"
                            if len(s.first_strike.path) > 1 else "") + "</li>" for s in numbers.sides) + "</ul>",
        f"<h2>Safe {many} ({spec})</h2>",
        f"<p>For each side, the {many} no {one} of the other zone sees (light) and those still unseen and "
        f"unreached after the other side moves {turns} turn{'s' if turns != 1 else ''} (dark).</p>",
        '<div class="cols">', _img(images, "safe1", f"safe {many}"), _img(images, "safe2", f"safe {many}"), "</div>",
    ]
    parts.append(f"<h2>Symmetry ({spec})</h2>")
    if not numbers.symmetry:
        parts.append(f"<p>{html.escape(note)}</p>" if note else
                     "<p>No reflection or rotation of the board maps the zones onto each other, so there is no "
                     "symmetry to check.</p>")
    for check in numbers.symmetry:
        verdict = ("sight keeps the symmetry" if not check.broken
                   else f"{check.broken} pairs of {many} (one in a zone) do not see each other as their images do")
        parts.append(f"<p><b>{html.escape(check.transform)}</b> maps the zones onto each other: {verdict}.</p>")
        if check.examples:
            parts.append(f"<table><tr><th>{one}</th><th>{one}</th><th>sees</th><th>their images see</th></tr>"
                         + "".join(f"<tr><td>{fmt_square(p)}</td><td>{fmt_square(q)}</td><td>{'yes' if s else 'no'}"
                                   f"</td><td>{'no' if s else 'yes'}</td></tr>" for p, q, s in check.examples)
                         + "</table>")
        if check.geometry:
            parts.append("<p>The geometry it does not map: " + html.escape("; ".join(check.geometry[:12]))
                         + (" …" if len(check.geometry) > 12 else "") + "</p>")
    parts.append(_img(images, "symmetry", f"{many} breaking the symmetry"))
    return parts


def render_html(name: str, board: Board, report: Balance, images: Mapping[str, str],
                rule_images: Mapping[str, str] | None = None) -> str:
    """The report page; ``images`` maps a picture key of :data:`PICTURES` to its file (the first
    rule's), ``rule_images`` the other rules' exposure pictures by rule spec."""
    esc = html.escape
    one, many = _nouns(report)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Sightline balance: {esc(name)}</title>", f"<style>{_CSS}</style></head><body>",
        f"<h1>Balance report: {esc(name)}</h1>",
        f'<p class="meta">{board.width}×{board.height} {many} · ruleset {esc(board.ruleset or "arcadia")} · '
        f"{len(report.zones)} sides · rules {esc(', '.join(r.rule.spec() for r in report.rules))} · "
        f"sightline {esc(__version__)} · definitions: docs/balance.md</p>",
    ]
    caption = board.properties.get("caption")
    if caption:
        parts.append(f"<p>{esc(str(caption))}</p>")
    parts.append("<h2>Verdict</h2>")
    if report.findings:
        parts += [f'<div class="finding">{esc(text)}</div>' for text in report.findings]
    else:
        parts.append('<div class="fair">No difference between the sides passes the report\'s thresholds.</div>')
    parts += ["<h2>Zones</h2>", '<div class="cols">', _img(images, "zones", "deployment zones"), _zones(report), "</div>",
              "<h2>Every number under every rule</h2>", _summary(report)]
    if rule_images:
        parts.append('<div class="cols">' + "".join(_img(rule_images, spec, f"exposure under {spec}", f"exposure, {spec}")
                                                    for spec in rule_images) + "</div>")
    parts += _rule_sections(report.rules[0], images, report.turns, report.symmetry_note, (one, many))
    parts += ["<h2>Choke points</h2>",
              f"<p>The share of shortest paths between the zones (from each {one} of one zone to the other zone, "
              f"both ways, averaged) that pass through each {one}; zone {many} left out. Movement only: the "
              "same under every rule.</p>",
              _img(images, "chokes", "choke points"),
              f"<table><tr><th>{one}</th><th>share of shortest paths</th></tr>"
              + "".join(f"<tr><td>{fmt_square(sq)}</td><td>{_pct(v)}</td></tr>" for sq, v in report.choke_points())
              + "</table>",
              "<h2>Expected damage per turn</h2>",
              f"<p>Each figure of the side attacks once with its best attack legal at that distance, averaged over "
              f"the other side's figures; exact odds, in {esc(report.damage_unit or 'the ruleset’s unit')}. "
              "The same under every rule (the figures stand in the open).</p>",
              "<table><tr><th>side</th>" + "".join(f"<th>{'Close' if d == 1 else f'{d} {many}'}</th>"
                                                  for d in DAMAGE_RANGES) + "</tr>"
              + "".join(f"<tr><td>{esc(side)}</td>" + "".join(f"<td>{v:.3f}</td>" for v in by.values()) + "</tr>"
                        for side, by in report.damage.items()) + "</table>",
              "</body></html>"]
    return "\n".join(p for p in parts if p) + "\n"
