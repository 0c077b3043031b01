"""What a ruleset file's expressions may name (stats, attack values, the values earlier steps
wrote): the loader and the step readers both check names with :class:`Names`."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.rules.custom.expr import Expr
from game.rules.custom.spec import StatSpec
from game.rules.custom.table import Table, suggest

__all__ = ["Names"]


@dataclass
class Names:
    """What expressions may name: stats, attack values, and the step values so far."""

    stats: dict[str, StatSpec]
    attack_values: set[str]
    values: set[str] = field(default_factory=set)

    def check(self, table: Table, key: str, expr: Expr | None, scopes: tuple[str, ...],
              values: bool = True) -> None:
        """Refuse a stat nobody has, a scope not allowed here, a value no step wrote."""
        if expr is None:
            return
        for scope, stat in sorted(expr.stats):
            if scope not in scopes:
                table.fail(key, f"{key} in {table.what}: {scope}.{stat} cannot be read here",
                           "use " + ", ".join(f"{s}." for s in scopes) if scopes else "use numbers")
            known = self.attack_values if scope == "attack" else set(self.stats)
            if stat not in known:
                what = "attack value" if scope == "attack" else "stat"
                fix = suggest(stat, known)
                if scope != "attack" and not fix.startswith("did"):
                    fix = f"declare it under [stats] ({fix})"
                table.fail(key, f"{key} in {table.what}: no {what} {stat!r}", fix)
        for name in expr.names:
            if not values or name not in self.values:
                table.fail(key, f"{key} in {table.what}: no value {name!r} "
                           + ("here" if not values else "written by an earlier step"),
                           suggest(name, self.values) if values and self.values
                           else "write it with an earlier step's into = or set")
