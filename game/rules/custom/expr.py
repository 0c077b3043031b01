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
import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import CodeType, FunctionType

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
    tree: ast.AST | None = field(default=None, repr=False, compare=False)

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
        return self.bind_globals(globals_of(scope))

    def bind_globals(self, env: dict[str, object]) -> Callable[..., object]:
        """:meth:`bind` with the globals :func:`globals_of` made (shared by many expressions)."""
        return _guarded(FunctionType(_inner(self.code), env), self.text)

    def evaluate(self, scope: Mapping[str, object], values: Mapping[str, object]) -> object:
        """The value with these stats and step values (a step value not given counts 0)."""
        if self.constant is not None:
            return self.constant
        return self.bind(scope)(*(values.get(n, 0) for n in self.names))

    def truth_monotone(self, name: str) -> int | None:
        """How the expression's truth moves as the step value ``name`` grows from 0 up,
        everything else fixed: ``1`` never from true to false, ``-1`` never from false to true,
        ``0`` not at all, None when it cannot be told (a sign analysis, conservative).

        >>> parse("target.wounds + damage >= target.life").truth_monotone("damage")
        1
        >>> parse("damage < 3 and not tested").truth_monotone("damage"), parse("damage - 3").truth_monotone("damage")
        (-1, None)
        """
        if name not in self.names or self.tree is None:
            return 0
        return _truth(self.tree, name)


@dataclass(frozen=True)
class Block:
    """Several expressions run as one function: named values in order (each may read the ones
    before, or the value of that name from before the block), then the results to return.

    >>> b = block([("a", parse("hits + 1")), ("hits", parse("a * 2"))], [parse("hits"), parse("a > 2")])
    >>> b.params, b.bind({})(3)
    (('hits',), (8, True))
    """

    text: str
    params: tuple[str, ...]
    code: CodeType = field(repr=False, compare=False)

    def bind(self, scope: Mapping[str, object]) -> Callable[..., tuple[object, ...]]:
        """The block as a function of :attr:`params`, the stats of ``scope`` fixed."""
        return self.bind_globals(globals_of(scope))

    def bind_globals(self, env: dict[str, object]) -> Callable[..., tuple[object, ...]]:
        """:meth:`bind` with the globals :func:`globals_of` made."""
        return _guarded(FunctionType(_inner(self.code), env), self.text)  # type: ignore[return-value]


def globals_of(scope: Mapping[str, object]) -> dict[str, object]:
    """The globals compiled expressions run with: the functions and the stats of ``scope``
    (``"attacker.life"`` becomes the name the compiled code reads)."""
    env: dict[str, object] = {"__builtins__": {}, **FUNCTIONS}
    for key, value in scope.items():
        scope_name, _, stat = key.partition(".")
        env[f"{scope_name}{_SEP}{stat}"] = value
    return env


def _inner(code: CodeType) -> CodeType:
    """The code of the one function (lambda or ``def``) a compiled expression or block makes."""
    for const in code.co_consts:
        if isinstance(const, CodeType):
            return const
    raise ValueError("no function in this code")  # pragma: no cover - every compile makes one


def _name_expr(name: str) -> Expr:
    """The expression that is one value's name."""
    return Expr(name, (name,), frozenset(), compile("0", "<name>", "eval"), None,
                ast.Name(name, ast.Load()))


class _Rename(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        """A renamed value."""
        return ast.Name(self.names.get(node.id, node.id), ast.Load())


def block(assignments: list[tuple[str, Expr]], results: list[Expr | str]) -> Block:
    """Compile named values and results (expressions, or value names) into one :class:`Block`."""
    current: dict[str, str] = {}
    params: list[str] = []
    body: list[ast.stmt] = []

    def tree(expr: Expr) -> ast.expr:
        for name in expr.names:
            if name not in current and name not in params:
                params.append(name)
        if expr.tree is None:
            return ast.Constant(expr.constant)  # type: ignore[arg-type]
        renamed: ast.expr = _Rename(dict(current)).visit(copy.deepcopy(expr.tree))
        return renamed

    for i, (name, expr) in enumerate(assignments):
        value = tree(expr)
        current[name] = f"{name}{_SEP}{i}"
        body.append(ast.Assign([ast.Name(current[name], ast.Store())], value))
    returned = [tree(e) if isinstance(e, Expr) else tree(_name_expr(e)) for e in results]
    body.append(ast.Return(ast.Tuple(returned, ast.Load())))
    args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in params], kwonlyargs=[],
                         kw_defaults=[], defaults=[])
    function = ast.FunctionDef(name="_block", args=args, body=body, decorator_list=[])
    module = ast.fix_missing_locations(ast.Module([function], []))
    text = "; ".join([f"{n} = {e.text}" for n, e in assignments]
                     or [e.text if isinstance(e, Expr) else e for e in results])
    return Block(text, tuple(params), compile(module, "<block>", "exec"))


def _guarded(fn: Callable[..., object], text: str) -> Callable[..., object]:
    def call(*args: object) -> object:
        try:
            value = fn(*args)
        except ZeroDivisionError:
            raise EvalError(f"the expression {text!r} divides by zero") from None
        except TypeError:
            raise EvalError(f"the expression {text!r} mixes text and numbers") from None
        except NameError:
            raise EvalError(f"the expression {text!r} reads a value this attack does not have") from None
        if type(value) is int and (value > LIMIT or value < -LIMIT):
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
    return Expr(text, names, frozenset(checker.stats), code, None, body)


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
        """Refuse a node the whitelist does not name."""
        raise ExprError(f"{_shown(node)} is not allowed in an expression",
                        "use numbers, names, + - * // %, comparisons, and/or/not, "
                        "x if c else y, min, max, abs")

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        """Numbers, true/false and text only."""
        if isinstance(node.value, bool | int | str):
            return node
        raise ExprError(f"{node.value!r} is not allowed", "use whole numbers")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        """A step value's name (``true`` / ``false`` are constants)."""
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
        """``scope.stat`` becomes one name the compiled code reads."""
        if not isinstance(node.value, ast.Name) or node.value.id not in SCOPES:
            raise ExprError(f"{_shown(node)} is not a name this file knows",
                            "dotted names start with attacker., target., figure. or attack.")
        self.stats.add((node.value.id, node.attr))
        return ast.Name(f"{node.value.id}{_SEP}{node.attr}", ast.Load())

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        """``+ - * // %`` on numbers."""
        if not isinstance(node.op, _BINARY):
            raise ExprError(f"the operator in {_shown(node)} is not allowed",
                            "use + - * // (whole-number division) or %")
        left, right = self.visit(node.left), self.visit(node.right)
        _no_text(left, node)
        _no_text(right, node)
        return ast.BinOp(left, node.op, right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        """``-x``, ``+x``, ``not x``."""
        if not isinstance(node.op, _UNARY):
            raise ExprError(f"{_shown(node)} is not allowed", "use -x or not x")
        operand = self.visit(node.operand)
        _no_text(operand, node)
        return ast.UnaryOp(node.op, operand)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        """``and`` / ``or``."""
        return ast.BoolOp(node.op, [self.visit(v) for v in node.values])

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        """Comparisons; text only with ``==`` / ``!=``."""
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
        """``x if c else y``."""
        return ast.IfExp(self.visit(node.test), self.visit(node.body), self.visit(node.orelse))

    def visit_Call(self, node: ast.Call) -> ast.AST:
        """``min``, ``max``, ``abs`` only."""
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


def _both(a: int | None, b: int | None) -> int | None:
    """The direction of a combination that moves with both parts."""
    if a is None or b is None:
        return None
    if a == 0 or a == b:
        return b
    return a if b == 0 else None


def _negated(m: int | None) -> int | None:
    return None if m is None else -m


def _number(node: ast.AST) -> int | None:
    """A whole-number literal's value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    return None


def _scaled(m: int | None, factor: int | None) -> int | None:
    """The direction of ``m`` times (or divided by) a literal ``factor``."""
    if m == 0:
        return 0
    if m is None or not factor:
        return None
    return m if factor > 0 else -m


def _truth(node: ast.AST, name: str) -> int | None:
    """:meth:`Expr.truth_monotone` on a checked tree."""
    if isinstance(node, ast.Compare):
        return _monotone(node, name)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _negated(_truth(node.operand, name))
    if isinstance(node, ast.BoolOp):
        out: int | None = 0
        for value in node.values:
            out = _both(out, _truth(value, name))
        return out
    if isinstance(node, ast.IfExp):
        if _monotone(node.test, name) != 0:
            return None
        return _both(_truth(node.body, name), _truth(node.orelse, name))
    if isinstance(node, ast.Name):
        return 1 if node.id == name else 0  # for values of 0 or more, truth is value > 0
    return 0 if _monotone(node, name) == 0 else None


def _monotone(node: ast.AST, name: str) -> int | None:
    """How a number (or a comparison's result) moves as ``name`` grows (conservative)."""
    if isinstance(node, ast.Constant):
        return 0
    if isinstance(node, ast.Name):
        return 1 if node.id == name else 0
    if isinstance(node, ast.UnaryOp):
        inner = _monotone(node.operand, name)
        return inner if isinstance(node.op, ast.UAdd) else _negated(inner)
    if isinstance(node, ast.BinOp):
        left, right = _monotone(node.left, name), _monotone(node.right, name)
        if isinstance(node.op, ast.Add):
            return _both(left, right)
        if isinstance(node.op, ast.Sub):
            return _both(left, _negated(right))
        if isinstance(node.op, ast.Mult | ast.FloorDiv) and _number(node.right) is not None:
            return _scaled(left, _number(node.right))
        if isinstance(node.op, ast.Mult) and _number(node.left) is not None:
            return _scaled(right, _number(node.left))
        return 0 if left == right == 0 else None
    if isinstance(node, ast.Compare):
        if len(node.ops) != 1:
            parts = [_monotone(n, name) for n in (node.left, *node.comparators)]
            return 0 if all(p == 0 for p in parts) else None
        gap = _both(_monotone(node.left, name), _negated(_monotone(node.comparators[0], name)))
        op = node.ops[0]
        if isinstance(op, ast.Gt | ast.GtE):
            return gap
        if isinstance(op, ast.Lt | ast.LtE):
            return _negated(gap)
        return 0 if gap == 0 else None
    if isinstance(node, ast.BoolOp):
        out: int | None = 0
        for value in node.values:
            out = _both(out, _monotone(value, name))
        return out
    if isinstance(node, ast.IfExp):
        if _monotone(node.test, name) != 0:
            return None
        return _both(_monotone(node.body, name), _monotone(node.orelse, name))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        parts = [_monotone(a, name) for a in node.args]
        if node.func.id == "abs":
            return 0 if parts[0] == 0 else None
        out = 0
        for part in parts:
            out = _both(out, part)
        return out
    return None
