"""Small safe expressions of a ruleset file: ``"attacker.melee + attacker.attack_bonus"``,
``"max(0, hits - saves)"``, ``"tested and modified > 0"``, ``"2 if attack.kind == 'melee' else 1"``.

An expression is Python expression syntax restricted to a whitelist: whole numbers, ``true`` /
``false``, quoted text (only to compare with ``==`` / ``!=``), ``+ - * // %``, comparisons,
``and or not``, ``x if c else y`` and the functions ``min max abs``. Names are either a figure's
or the attack's value (``attacker.life``, ``target.armour``, ``figure.wounds``, ``attack.dice``)
or a value an earlier step wrote (``hits``). Nothing else parses: no attribute but those four
scopes, no subscripts, no other calls (a file cannot run code).

Pure: the whitelisted tree is compiled once into a function of the step values it reads, whose
globals are the figures' stats of one request (:meth:`Expr.bind`).

>>> e = parse("max(0, hits - target.armour)")
>>> e.names, sorted(e.stats)
(('hits',), [('target', 'armour')])
>>> e.bind({"target.armour": 1})(3)
2
>>> parse("attack.kind == 'melee'").evaluate({"attack.kind": "melee"}, {})
True
>>> parse("open('x')")
Traceback (most recent call last):
...
game.rules.custom.expr.ExprError: open(...) is not allowed (the functions are min, max and abs)
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import CodeType

#: the scopes a dotted name may start with, and what they name
SCOPES = ("attacker", "target", "figure", "attack")
FUNCTIONS: dict[str, Callable[..., object]] = {"min": min, "max": max, "abs": abs}
_CONSTANTS = {"true": True, "false": False, "True": True, "False": False}
_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_UNARY = (ast.USub, ast.UAdd, ast.Not)
#: separates scope and stat in the compiled names (a step value may not contain it)
_SEP = "__"
#: the largest number an expression may produce (stats are at most 10**6)
LIMIT = 10**12


class ExprError(ValueError):
    """An expression that cannot be used: ``problem`` says why, ``fix`` how to mend it."""

    def __init__(self, problem: str, fix: str = "") -> None:
        self.problem = problem
        self.fix = fix
        super().__init__(problem + (f" ({fix})" if fix else ""))


class EvalError(ValueError):
    """An expression failed on the numbers of one attack (a division by zero ...)."""


@dataclass(frozen=True)
class Expr:
    """A parsed expression: its text, the step values it reads (``names``), the stats it reads
    (``stats``, as (scope, stat) pairs) and its compiled code."""

    text: str
    names: tuple[str, ...]
    stats: frozenset[tuple[str, str]]
    code: CodeType = field(repr=False, compare=False)
    constant: object = None

    @property
    def is_constant(self) -> bool:
        """True for a plain number or true/false (no name read)."""
        return self.constant is not None

    def bind(self, scope: Mapping[str, object]) -> Callable[..., object]:
        """The expression as a function of its step values (in :attr:`names` order), the stats
        of ``scope`` (keys ``"attacker.life"`` ...) fixed.

        >>> parse("attacker.life - hits").bind({"attacker.life": 5})(2)
        3
        """
        env: dict[str, object] = {"__builtins__": {}, **FUNCTIONS}
        for scope_name, stat in self.stats:
            env[f"{scope_name}{_SEP}{stat}"] = scope.get(f"{scope_name}.{stat}", 0)
        fn: Callable[..., object] = eval(self.code, env)  # noqa: S307 - a whitelisted tree
        return _guarded(fn, self.text)

    def evaluate(self, scope: Mapping[str, object], values: Mapping[str, object]) -> object:
        """The value with these stats and step values (a step value not given counts 0)."""
        if self.constant is not None:
            return self.constant
        return self.bind(scope)(*(values.get(n, 0) for n in self.names))

    def reads_values(self) -> bool:
        """Whether the expression reads a step value (else it is known before any die)."""
        return bool(self.names)


def _guarded(fn: Callable[..., object], text: str) -> Callable[..., object]:
    def call(*args: object) -> object:
        try:
            value = fn(*args)
        except ZeroDivisionError:
            raise EvalError(f"the expression {text!r} divides by zero") from None
        except TypeError:
            raise EvalError(f"the expression {text!r} mixes text and numbers") from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LIMIT:
            raise EvalError(f"the expression {text!r} gives {value}, too large a number")
        return value

    return call


def parse(text: object) -> Expr:
    """Parse ``text`` (a string, a whole number or true/false) into an :class:`Expr`.

    >>> parse(3).constant, parse("true").constant, parse("hits").names
    (3, True, ('hits',))
    >>> parse("hits +")
    Traceback (most recent call last):
    ...
    game.rules.custom.expr.ExprError: 'hits +' is not an expression (write it like "max(0, hits - saves)")
    """
    if isinstance(text, bool | int):
        return _constant(text)
    if not isinstance(text, str):
        raise ExprError(f"{text!r} is not an expression", "give a number or a quoted expression")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExprError(f"{text!r} is not an expression",
                        'write it like "max(0, hits - saves)"') from None
    checker = _Checker()
    body = checker.visit(tree.body)
    names = tuple(sorted(checker.names))
    if isinstance(body, ast.Constant) and isinstance(body.value, bool | int | str):
        return _constant(body.value, text)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[],
                         kw_defaults=[], defaults=[])
    lam = ast.Expression(ast.Lambda(args, body))
    ast.fix_missing_locations(lam)
    code = compile(lam, f"<{text}>", "eval")
    return Expr(text, names, frozenset(checker.stats), code)


def _constant(value: bool | int | str, text: str | None = None) -> Expr:
    code = compile(ast.fix_missing_locations(ast.Expression(ast.Lambda(
        ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        ast.Constant(value)))), "<constant>", "eval")
    shown = text if text is not None else str(value).lower() if isinstance(value, bool) else str(value)
    return Expr(shown, (), frozenset(), code, value)


class _Checker(ast.NodeTransformer):
    """Refuses every node outside the whitelist; rewrites ``scope.stat`` into one name."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.stats: set[tuple[str, str]] = set()

    def generic_visit(self, node: ast.AST) -> ast.AST:
        raise ExprError(f"{_shown(node)} is not allowed in an expression",
                        "use numbers, names, + - * // %, comparisons, and/or/not, "
                        "x if c else y, min, max, abs")

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, bool | int | str):
            return node
        raise ExprError(f"{node.value!r} is not allowed", "use whole numbers")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _CONSTANTS:
            return ast.Constant(_CONSTANTS[node.id])
        if node.id in SCOPES:
            raise ExprError(f"{node.id!r} alone names no value",
                            f"name one of its stats, e.g. {node.id}.life")
        if node.id in FUNCTIONS:
            raise ExprError(f"{node.id!r} is a function", f"call it: {node.id}(a, b)")
        if _SEP in node.id or node.id.startswith("_"):
            raise ExprError(f"{node.id!r} is not a valid name", "use letters, digits and single _")
        self.names.add(node.id)
        return ast.Name(node.id, ast.Load())

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if not isinstance(node.value, ast.Name) or node.value.id not in SCOPES:
            raise ExprError(f"{_shown(node)} is not a name this file knows",
                            "dotted names start with attacker., target., figure. or attack.")
        self.stats.add((node.value.id, node.attr))
        return ast.Name(f"{node.value.id}{_SEP}{node.attr}", ast.Load())

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if not isinstance(node.op, _BINARY):
            raise ExprError(f"the operator in {_shown(node)} is not allowed",
                            "use + - * // (whole-number division) or %")
        left, right = self.visit(node.left), self.visit(node.right)
        _no_text(left, node)
        _no_text(right, node)
        return ast.BinOp(left, node.op, right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if not isinstance(node.op, _UNARY):
            raise ExprError(f"{_shown(node)} is not allowed", "use -x or not x")
        operand = self.visit(node.operand)
        _no_text(operand, node)
        return ast.UnaryOp(node.op, operand)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        return ast.BoolOp(node.op, [self.visit(v) for v in node.values])

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        for op in node.ops:
            if not isinstance(op, _COMPARE):
                raise ExprError(f"{_shown(node)} is not allowed", "compare with == != < <= > >=")
        left = self.visit(node.left)
        comparators = [self.visit(c) for c in node.comparators]
        ordered = any(not isinstance(op, ast.Eq | ast.NotEq) for op in node.ops)
        if ordered:
            for part in (left, *comparators):
                _no_text(part, node)
        return ast.Compare(left, node.ops, comparators)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        return ast.IfExp(self.visit(node.test), self.visit(node.body), self.visit(node.orelse))

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            called = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            raise ExprError(f"{called}(...) is not allowed",
                            "the functions are min, max and abs")
        if node.keywords or not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            raise ExprError(f"{_shown(node)} is not allowed", f"call {node.func.id}(a, b, ...)")
        if node.func.id == "abs" and len(node.args) != 1:
            raise ExprError(f"{_shown(node)} is not allowed", "abs takes one value")
        if node.func.id != "abs" and len(node.args) < 2:
            raise ExprError(f"{_shown(node)} is not allowed", f"{node.func.id} takes two values or more")
        args = [self.visit(a) for a in node.args]
        for arg in args:
            _no_text(arg, node)
        return ast.Call(ast.Name(node.func.id, ast.Load()), args, [])


def _no_text(node: ast.AST, where: ast.AST) -> None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        raise ExprError(f"text in {_shown(where)} can only be compared with == or !=",
                        "compare text like attack.kind == 'melee'")


def _shown(node: ast.AST) -> str:
    try:
        return repr(ast.unparse(node))
    except Exception:  # pragma: no cover - unparse handles every parsed node
        return "this"
