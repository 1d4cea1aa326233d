"""Atomic facts of one CFG node: which access paths it reads, writes, dereferences, lets escape, ...

Facts are about *access paths* (``p``, ``s->buf``, ``g.count``), recorded generically; what a call
to ``free`` or to a project function means is decided later from the call table and the project,
so the facts of an unchanged function stay valid when other files change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tree_sitter import Node as TSNode

from checker.sharing import shared
from extractors.parse import strip_parens, text_of
from extractors.prototypes import borrowed

NULL_NAMES = frozenset({"NULL", "nullptr", "0", "-1", "((void*)0)", "(void*)0", "((void *)0)", "(void *)0"})


@dataclass(frozen=True)
class Call:
    """A call in a node: ``args`` are (access path or None, passed by address) per argument."""

    name: str | None
    args: tuple[tuple[str | None, bool], ...]
    result: str | None  # access path the result is stored to; "<return>" when returned
    discarded: bool
    guarded: frozenset[str] = frozenset()  # arguments known not NULL where the call runs (p && f(p))
    # discarded, and its callee's result must be checked (set by the CFG builder from the call table,
    # which knows the file's and its headers' warn_unused_result declarations besides the library)
    unchecked: bool = False
    strings: tuple[tuple[int, str], ...] = ()  # (position, text) of the string-literal arguments
    # positions a prototype of the callee declares ``const T *`` (extractors.prototypes): read, not
    # kept, when the callee is neither a project function nor in the call table
    borrowed: frozenset[int] = frozenset()
    # positions whose escape the result's NULL tests carry instead (extractors.conditional_takes)
    deferred: tuple[int, ...] = ()
    # positions of arguments that point into the caller's frame: ``&x``, ``&x.f``, an automatic
    # local array ``buf`` (extractors.parking)
    framed: frozenset[int] = frozenset()


@dataclass
class Facts:
    events: list[tuple[str, str]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    flag_sets: list[tuple[str, int | None]] = field(default_factory=list)
    addr_taken: set[str] = field(default_factory=set)  # roots of every address taken (&x, &s.f, &p->f)
    frame_addressed: set[str] = field(default_factory=set)  # those whose own storage it is (not &p->f)
    arrays: set[str] = field(default_factory=set)  # names a declaration declares as arrays
    copies: list[tuple[str, str]] = field(default_factory=list)  # (target, source) of ``target = source``
    # targets of ``target = place`` where the place is no access path (``arena->pool[i]``): it still
    # holds what the target got
    shared: list[str] = field(default_factory=list)


def path_of(node: TSNode | None) -> str | None:
    """The access path an lvalue-like expression names, or None if it is not a simple path."""
    node = strip_parens(node)
    if node is None:
        return None
    if node.type == "identifier":
        return text_of(node)
    if node.type == "field_expression":
        base = path_of(node.child_by_field_name("argument"))
        op = node.child_by_field_name("operator")
        fld = node.child_by_field_name("field")
        if base is None or op is None or fld is None:
            return None
        return f"{base}{text_of(op)}{text_of(fld)}"
    return None


def address_operand(node: TSNode | None) -> TSNode | None:
    """The operand of ``&x``, also when a cast to an unknown typedef made it parse as ``(T) & x``."""
    node = strip_parens(node)
    if node is None:
        return None
    if node.type == "pointer_expression" and text_of(node.child_by_field_name("operator")) == "&":
        return node.child_by_field_name("argument")
    if node.type == "binary_expression" and text_of(node.child_by_field_name("operator")) == "&":
        left = node.child_by_field_name("left")
        inner = [c for c in left.named_children if c.type != "comment"] if left is not None else []
        if left is not None and left.type == "parenthesized_expression" and len(inner) == 1 and \
                inner[0].type == "identifier":
            return node.child_by_field_name("right")
    return None


def pointee_path(node: TSNode | None) -> str | None:
    """``*p`` for ``*p`` (``p`` a plain name): the object ``p`` points to, as an access path. A
    caller that hands ``&x`` to a parameter ``p`` sees what is done to ``*p`` done to ``x``
    (:mod:`extractors.projection`); only stores into it and copies out of it are recorded."""
    node = strip_parens(node)
    if node is None or node.type != "pointer_expression" or text_of(node.child_by_field_name("operator")) != "*":
        return None
    inner = strip_parens(node.child_by_field_name("argument"))
    return "*" + text_of(inner) if inner is not None and inner.type == "identifier" else None


def _indexed_base(node: TSNode | None) -> TSNode | None:
    """What ``a[i]`` (``a[i][j]`` too) indexes: ``a``; None when ``node`` is no element."""
    node = strip_parens(node)
    if node is None or node.type != "subscript_expression":
        return None
    while node is not None and node.type == "subscript_expression":
        node = strip_parens(node.child_by_field_name("argument"))
    return node


def element_base(node: TSNode | None) -> str | None:
    """``a`` for an element ``a[i]`` (``a[i][j]`` too), ``a`` a plain name: the buffer a store to
    the element writes into (extractors.contents)."""
    base = _indexed_base(node)
    return text_of(base) if base is not None and base.type == "identifier" else None


def member_array(node: TSNode | None) -> str | None:
    """``p->f`` for an element ``p->f[i]`` of an array member reached through a pointer: the
    block a store to the element writes into (extractors.contents)."""
    base = _indexed_base(node)
    if base is None or base.type != "field_expression" or text_of(base.child_by_field_name("operator")) != "->":
        return None
    return path_of(base)


def in_frame(path: str) -> bool:
    """Whether the object at ``path`` is (part of) its root's own storage (``x``, ``s.f``), not
    something the root points at (``p->f``, ``*p``): taking its address lets the root change."""
    return "->" not in path and not path.startswith("*")


def root_of(path: str) -> str:
    for i, ch in enumerate(path):
        if ch in ".-":
            return path[:i]
    return path


_CAPITALS = re.compile(r"[A-Z][A-Z0-9_]+")


def named_constant(node: TSNode | None) -> bool:
    """Whether ``node`` is a name in capitals (under parentheses, casts and a sign): a macro or an
    enumerator by C's convention, whose value a header this run did not read may hold
    (``WebPMuxError err = WEBP_MUX_OK;``). An initialiser of one is a defensive default, as a
    literal is, not a value computed to be read."""
    node = strip_parens(node)  # (and casts)
    while node is not None and node.type == "unary_expression":
        if text_of(node.child_by_field_name("operator")) not in ("-", "+", "~"):
            return False
        node = strip_parens(node.child_by_field_name("argument"))
    return node is not None and node.type == "identifier" and _CAPITALS.fullmatch(text_of(node)) is not None


def const_value(node: TSNode | None, consts: dict[str, int]) -> int | None:
    """Integer value of a constant expression built from literals and known constants."""
    node = strip_parens(node)
    if node is None:
        return None
    t = node.type
    if t == "number_literal":
        s = text_of(node).rstrip("uUlL")
        try:
            return int(s, 0)
        except ValueError:
            return None
    if t in ("true", "false"):
        return 1 if t == "true" else 0
    if t == "null":
        return 0
    if t == "identifier":
        name = text_of(node)
        if name in ("NULL", "false", "FALSE"):
            return 0 if name != "TRUE" else 1
        if name in ("true", "TRUE"):
            return 1
        return consts.get(name)
    if t == "call_expression":  # a helper that returns one constant (extractors.project_facts)
        callee = node.child_by_field_name("function")
        return consts.get(f"{text_of(callee)}()") if callee is not None and callee.type == "identifier" else None
    if t == "unary_expression":
        v = const_value(node.child_by_field_name("argument"), consts)
        op = text_of(node.child_by_field_name("operator"))
        if v is None:
            return None
        return {"-": -v, "!": int(not v), "~": ~v, "+": v}.get(op)
    return None


ConstForm = int | str | tuple[str, "ConstForm"] | None
"""A constant expression read apart from the constants it names, for :func:`const_of`: a number,
a name (a constant of the file, looked up later), ``("()", name)`` (a helper's constant result),
``(op, form)`` (a unary ``-``, ``!``, ``~`` or ``+``), or None (no constant whatever is known)."""

_UNARY: dict[str, Callable[[int], int]] = {
    "-": lambda v: -v,
    "!": lambda v: int(not v),
    "~": lambda v: ~v,
    "+": lambda v: v,
}


def const_form(node: TSNode | None) -> ConstForm:
    """``node`` as a :data:`ConstForm`: ``const_of(const_form(n), consts) == const_value(n, consts)``
    for every ``consts``, so a file's pieces can be read before the constants of the pieces above
    them are known."""
    node = strip_parens(node)
    if node is None:
        return None
    t = node.type
    if t in ("number_literal", "true", "false", "null"):
        return const_value(node, {})
    if t == "identifier":
        known = const_value(node, {})
        return known if known is not None else text_of(node)
    if t == "call_expression":
        callee = node.child_by_field_name("function")
        return ("()", text_of(callee)) if callee is not None and callee.type == "identifier" else None
    if t == "unary_expression":
        op = text_of(node.child_by_field_name("operator"))
        inner = const_form(node.child_by_field_name("argument"))
        return (op, inner) if op in _UNARY and inner is not None else None
    return None


def const_of(form: ConstForm, consts: Mapping[str, int]) -> int | None:
    """The value of a :data:`ConstForm` given the constants known at its place."""
    if form is None or isinstance(form, int):
        return form
    if isinstance(form, str):
        return consts.get(form)
    op, inner = form
    if op == "()":
        assert isinstance(inner, str)
        return consts.get(f"{inner}()")
    v = const_of(inner, consts)
    return None if v is None else _UNARY[op](v)


def is_null(node: TSNode | None) -> bool:
    node = strip_parens(node)
    if node is None:
        return False
    if node.type == "null":
        return True
    if node.type == "identifier" and text_of(node).endswith("_NULL"):
        return True  # a library's own NULL macro: zlib's Z_NULL
    return " ".join(text_of(node).split()) in NULL_NAMES


# what a failed Windows call returns for a handle, tested as a failed descriptor's -1 is
# (``if (sock == INVALID_SOCKET)``); never a NULL pointer that is assigned
_FAILED_HANDLES = frozenset({"INVALID_SOCKET", "INVALID_HANDLE_VALUE"})


def _failed_handle(node: TSNode | None) -> bool:
    node = strip_parens(node)
    return node is not None and node.type == "identifier" and text_of(node) in _FAILED_HANDLES


def _prefix_value_used(node: TSNode) -> bool:
    """Whether update ``node`` is a prefix one (``++p``) whose value the expression around it uses
    (``*++p``, ``f(--n)``): the new value is read where it is stored."""
    first = node.children[0] if node.children else None
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    prefix = first is not None and first.type in ("++", "--")
    discarded = ("expression_statement", "for_statement", "comma_expression")
    return prefix and parent is not None and parent.type not in discarded


def is_null_pointer(node: TSNode | None) -> bool:
    """Whether the expression is a NULL pointer constant (``-1``, a failed descriptor, is not)."""
    return is_null(node) and text_of(strip_parens(node)) != "-1"


def _no_returned(call: TSNode) -> TSNode | None:
    return None


# the argument a call returns (``memcpy``'s destination: the call table's ``returns_arg``), or None
ReturnedArg = Callable[[TSNode], "TSNode | None"]


def null_test(expr: TSNode | None, returned: ReturnedArg = _no_returned) -> tuple[str, bool] | None:
    """``(path, true_means_null)`` if the condition tests a path against NULL (or a handle against -1/0).
    A call that returns one of its arguments (``returned``) tests that argument:
    ``if (PyObject_Init(op, tp) == NULL)`` tests ``op``."""
    e = strip_parens(expr)
    if e is None:
        return None
    if e.type in ("identifier", "field_expression"):
        p = path_of(e)
        return (p, False) if p else None
    if e.type == "assignment_expression":
        p = path_of(e.child_by_field_name("left"))
        return (p, False) if p else None
    if e.type == "unary_expression" and text_of(e.child_by_field_name("operator")) == "!":
        inner = null_test(e.child_by_field_name("argument"), returned)
        return (inner[0], not inner[1]) if inner else None
    if e.type == "binary_expression":
        op = text_of(e.child_by_field_name("operator"))
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        if op in ("==", "!="):
            failed = is_null(right) or _failed_handle(right), is_null(left) or _failed_handle(left)
            side = left if failed[0] else right if failed[1] else None
            if side is None:
                return None
            p = _tested_path(side, returned)
            return (p, op == "==") if p else None
        if op in ("<", ">=") and text_of(strip_parens(right)) == "0":
            p = _tested_path(left, returned)
            return (p, op == "<") if p else None
        if op in (">", "<=") and text_of(strip_parens(left)) == "0":  # 0 > fd: fd < 0
            p = _tested_path(right, returned)
            return (p, op == ">") if p else None
    if e.type == "call_expression":
        p = _tested_path(e, returned)
        return (p, False) if p else None
    return None


def nonnull_when(expr: TSNode | None, truth: bool) -> frozenset[str]:
    """The paths that are not NULL whenever ``expr`` evaluates to ``truth`` (``p && p->n``: ``p``)."""
    e = strip_parens(expr)
    if e is None:
        return frozenset()
    if e.type == "unary_expression" and text_of(e.child_by_field_name("operator")) == "!":
        return nonnull_when(e.child_by_field_name("argument"), not truth)
    if e.type == "binary_expression" and text_of(e.child_by_field_name("operator")) in ("&&", "||"):
        both = (text_of(e.child_by_field_name("operator")) == "&&") == truth
        left = nonnull_when(e.child_by_field_name("left"), truth)
        right = nonnull_when(e.child_by_field_name("right"), truth)
        return left | right if both else left & right
    nt = null_test(e)
    return frozenset({nt[0]}) if nt is not None and nt[1] != truth else frozenset()


def chained_store(node: TSNode | None) -> TSNode | None:
    """The inner assignment of ``x = y = v`` (``y = v``), or None."""
    if node is None or node.type != "assignment_expression" or text_of(node.child_by_field_name("operator")) != "=":
        return None
    inner = strip_parens(node.child_by_field_name("right"))
    if inner is None or inner.type != "assignment_expression":
        return None
    return inner


def _tested_path(node: TSNode | None, returned: ReturnedArg = _no_returned) -> str | None:
    node = strip_parens(node)
    if node is not None and node.type == "assignment_expression":
        return path_of(node.child_by_field_name("left"))
    if node is not None and node.type == "call_expression":
        arg = returned(node)
        return _tested_path(arg, returned) if arg is not None else None
    return path_of(node)


def args_of(call: TSNode) -> list[TSNode]:
    al = call.child_by_field_name("arguments")
    if al is None:
        return []
    return [c for c in al.named_children if c.type != "comment"]


def call_name(call: TSNode) -> str | None:
    fn = strip_parens(call.child_by_field_name("function"))
    return text_of(fn) if fn is not None and fn.type == "identifier" else None


def literal_text(node: TSNode | None) -> str | None:
    """The text between the quotes of a string literal (its pieces joined when it is several
    ``"a" "b"``), as written (escapes not decoded); None when a piece is not a literal
    (``"%" PRId64``: a macro whose text the front end does not know)."""
    node = strip_parens(node)
    if node is None:
        return None
    pieces = [node] if node.type == "string_literal" else node.named_children
    if node.type not in ("string_literal", "concatenated_string") or any(
        p.type != "string_literal" for p in pieces
    ):
        return None
    out = []
    for p in pieces:
        text = text_of(p)
        out.append(text[text.find('"') + 1 : text.rfind('"')])
    return "".join(out)


def pointer_base(node: TSNode | None) -> str | None:
    """The access path a pointer expression points into: ``buf`` for ``buf``, ``buf + len - 1``,
    ``(char *)p + 4``, ``p++``.  Dereferencing the expression reads the block ``buf`` points to,
    so it is a use of ``buf``.  The pointer of ``p + i`` is taken on the left (the convention;
    ``i + p`` is not followed)."""
    node = strip_parens(node)
    while node is not None and (
        node.type == "update_expression"
        or node.type == "binary_expression" and text_of(node.child_by_field_name("operator")) in ("+", "-")
    ):
        node = strip_parens(node.child_by_field_name("argument" if node.type == "update_expression" else "left"))
    return path_of(node)


def tested_argument(node: TSNode | None) -> str | None:
    """The path an argument tests against NULL: ``RETURN_ERROR_IF(p == NULL, e)``,
    ``CHECK(p != NULL)``.  The call is a checking macro (a function handed a comparison can act on
    it too), so past it the path counts as tested (``notnull``), as after ``assert(p)``; a bare
    ``p`` is handed on, not tested."""
    a = strip_parens(node)
    if a is None or a.type not in ("binary_expression", "unary_expression"):
        return None
    nt = null_test(a)
    return nt[0] if nt is not None else None


RETURNED = "<return>"  # the value a ``return`` statement hands back, as an access path


def pointee(node: TSNode | None) -> tuple[str | None, bool]:
    """The named object a pointer expression points into, and whether through ``&``: (``x``,
    True) for ``&x``, ``&x.f``, ``&x[i]``; (``buf``, False) for a plain name, which points into
    ``buf`` if it is an array; (None, _) for anything else (``&p->f`` is in ``*p``)."""
    taken = address_operand(node)
    base = strip_parens(taken if taken is not None else node)
    while taken is not None and base is not None and (
        base.type == "subscript_expression"
        or base.type == "field_expression" and text_of(base.child_by_field_name("operator")) == "."
    ):
        base = strip_parens(base.child_by_field_name("argument"))
    if base is None or base.type != "identifier":
        return None, taken is not None
    return text_of(base), taken is not None


def _indexed(node: TSNode | None) -> bool:
    """Whether the operand of ``&`` in ``node`` indexes its named object itself (``&x[i]``,
    ``&x[i].f``; not ``&s.v[i]``, an element of a member)."""
    base = strip_parens(address_operand(node))
    last = None
    while base is not None and base.type in ("subscript_expression", "field_expression"):
        last = base.type
        base = strip_parens(base.child_by_field_name("argument"))
    return last == "subscript_expression"


class FactWalker:
    """Collects the facts of one expression or declaration; ``consts`` gives known constant values,
    ``frame`` the function's automatic locals declared so far (name -> whether it is an array),
    ``returned`` the argument a call returns (the call table's ``returns_arg``)."""

    def __init__(
        self,
        consts: dict[str, int],
        frame: dict[str, bool] | None = None,
        returned: ReturnedArg = _no_returned,
        array_types: frozenset[str] = frozenset(),
    ) -> None:
        self.consts = consts
        self.frame = frame if frame is not None else {}
        self.returned = returned
        self.array_types = array_types  # typedef names of array types (extractors.array_types)
        self.f = Facts()
        # (start, end) bytes of subexpressions another node reads (a ternary the CFG made branches of)
        self.skip: frozenset[tuple[int, int]] = frozenset()

    def not_heap(self, value: TSNode | None, target: str) -> bool:
        """Whether ``target = value`` makes ``target`` point where ``free`` must not go: a string
        literal, the address of a named object (``&x``, ``&g.f``), a local array, or ``target``
        moved forward into its own block (``target + k``)."""
        if value is None:
            return False
        if value.type in ("string_literal", "concatenated_string"):
            return True
        name, taken = pointee(value)
        if name is not None and (taken or self.frame.get(name)):
            return True
        if value.type == "binary_expression" and text_of(value.child_by_field_name("operator")) == "+":
            return path_of(value.child_by_field_name("left")) == target
        return False

    def frame_address(self, node: TSNode | None) -> str | None:
        """The local whose storage ``node`` points into (``&x``, ``&x.f``, ``&x[i]``, an array
        ``buf``), or None: what must not outlive the function's frame."""
        name, taken = pointee(node)
        if name not in self.frame or not (taken or self.frame[name]):
            return None
        # ``&p[i]`` of a pointer ``p`` is an address in what ``p`` points to, not in the frame
        return name if self.frame[name] or not _indexed(node) else None

    def ev(self, path: str | None, atom: str) -> None:
        if path:
            self.f.events.append((path, atom))

    def read(self, path: str | None) -> None:
        if path:
            self.ev(path, "read")
            r = root_of(path)
            if r != path:
                self.ev(r, "read")

    def deref(self, base: TSNode | None, guarded: frozenset[str]) -> None:
        p = pointer_base(base)
        if p and p not in guarded:
            self.ev(p, "use")

    def walk(
        self, node: TSNode | None, guarded: frozenset[str] = frozenset(), discarded: bool = False
    ) -> None:
        if node is None or (self.skip and (node.start_byte, node.end_byte) in self.skip):
            return
        t = node.type
        if t == "cast_expression" and text_of(node.child_by_field_name("type")) == "void":
            self.ev(path_of(strip_parens(node.child_by_field_name("value"))), "voided")  # (void)x: said, not used
        if t in ("identifier", "field_expression"):
            p = path_of(node)
            if p:
                self.read(p)
            if t == "field_expression":
                base = node.child_by_field_name("argument")
                if text_of(node.child_by_field_name("operator")) == "->":
                    self.deref(base, guarded)
                self.walk(base, guarded)
            return
        if t == "binary_expression" and text_of(node.child_by_field_name("operator")) in ("==", "!="):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if not is_null(left) and not is_null(right):
                for side in (left, right):  # buf != small: which object buf holds is tested
                    self.ev(path_of(side), "cmp")
        if t == "binary_expression" and address_operand(node) is not None:
            self.address_of(address_operand(node), guarded)
            return
        if t in (
            "sizeof_expression",
            "alignof_expression",
            "string_literal",
            "number_literal",
            "char_literal",
            "comment",
            "type_descriptor",
            "offsetof_expression",
        ):
            return
        if t == "pointer_expression":
            op = text_of(node.child_by_field_name("operator"))
            arg = node.child_by_field_name("argument")
            if op == "&":
                self.address_of(arg, guarded)
                return
            self.walk(arg, guarded)
            self.deref(arg, guarded)
            return
        if t == "subscript_expression":
            arg = node.child_by_field_name("argument")
            self.walk(arg, guarded)
            self.walk(node.child_by_field_name("index"), guarded)
            self.deref(arg, guarded)
            return
        if t == "assignment_expression":
            self.assignment(node, guarded)
            return
        if t == "update_expression":
            arg = node.child_by_field_name("argument")
            p = path_of(arg)
            self.walk(arg, guarded)
            if p:
                if not _prefix_value_used(node):
                    self.ev(p, "write")  # (``*++p``: the stored value is read at once, no dead store)
                self.ev(p, "def")
                if "++" in text_of(node):
                    self.ev(p, "nonheap")  # p++ points past the start of any block p held
                if strip_parens(arg) is not None and strip_parens(arg).type == "identifier":  # type: ignore[union-attr]
                    self.f.flag_sets.append((p, None))
            return
        if t == "call_expression":
            self.call(node, None, guarded, discarded)
            return
        if t == "gnu_asm_expression":
            self.asm(node, guarded)
            return
        if t == "conditional_expression":
            c = node.child_by_field_name("condition")
            self.walk(c, guarded)
            self.walk(node.child_by_field_name("consequence"), guarded | nonnull_when(c, True))
            self.walk(node.child_by_field_name("alternative"), guarded | nonnull_when(c, False))
            return
        if t == "binary_expression" and (op := text_of(node.child_by_field_name("operator"))) in ("&&", "||"):
            left = node.child_by_field_name("left")
            self.walk(left, guarded)
            self.walk(node.child_by_field_name("right"), guarded | nonnull_when(left, op == "&&"))
            return
        if t == "initializer_list":
            for c in node.named_children:
                v = c.child_by_field_name("value") if c.type == "initializer_pair" else c
                p = path_of(v)
                if p:
                    self.ev(p, "escape")
                self.walk(v, guarded)
            return
        for c in node.named_children:
            self.walk(c, guarded)

    def address_of(self, arg: TSNode | None, guarded: frozenset[str]) -> None:
        p = path_of(arg)
        if p:
            self.ev(p, "def")
            self.f.addr_taken.add(root_of(p))
            if in_frame(p):
                self.f.frame_addressed.add(root_of(p))
            a = strip_parens(arg)
            if a is not None and a.type == "field_expression":
                base = a.child_by_field_name("argument")
                self.read(path_of(base))
                if text_of(a.child_by_field_name("operator")) == "->":
                    self.deref(base, guarded)
        else:
            self.walk(arg, guarded)
            if (array := element_base(arg)) is not None and self.frame.get(array):
                self.f.addr_taken.add(array)  # &b[i] of a local array: its elements are reached unseen
                self.f.frame_addressed.add(array)

    def asm(self, node: TSNode, guarded: frozenset[str]) -> None:
        """GNU inline assembly (``asm``/``__asm__``/``__asm``, any qualifiers): each output
        operand's lvalue is stored by the assembly (``"=r"(out)``, ``"=&r"``, ``"=m"(*p)``) and
        one whose constraint has ``+`` is read first; input operands are read.  A store is a
        ``def``, not a ``write``: the assembly must name every register it sets, so an output the
        C code never reads is no dead store.  Templates, clobbers, operand names (``[o]``) and the
        labels of ``asm goto`` (the CFG's edges, :class:`extractors.cfg.CfgBuilder`) are read as
        nothing."""
        outs = node.child_by_field_name("output_operands")
        for operand in outs.children_by_field_name("operand") if outs is not None else ():
            value = operand.child_by_field_name("value")
            if value is None:
                continue
            both = "+" in text_of(operand.child_by_field_name("constraint"))
            self.lvalue(value, "+=" if both else "=", None, guarded)
            lp = path_of(value)
            if lp:
                self.ev(lp, "def")
                sl = strip_parens(value)
                if sl is not None and sl.type == "identifier":
                    self.f.flag_sets.append((lp, None))
        ins = node.child_by_field_name("input_operands")
        for operand in ins.children_by_field_name("operand") if ins is not None else ():
            self.walk(operand.child_by_field_name("value"), guarded)

    def assignment(self, node: TSNode, guarded: frozenset[str]) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        op = text_of(node.child_by_field_name("operator"))
        lp = path_of(left)
        if op == "+=" and lp:
            self.ev(lp, "nonheap")
        self.lvalue(left, op, right, guarded)
        self.rhs(lp, right, guarded, copy=op == "=")
        sl = strip_parens(left)
        if sl is not None and sl.type == "identifier" and lp:
            self.f.flag_sets.append((lp, const_value(right, self.consts) if op == "=" else None))

    def outer_store(self, node: TSNode, inner: TSNode) -> None:
        """Events of ``x = y = v`` once ``y = v`` ran as a node of its own (``inner``): ``x = y``.
        The events of one node are a set, so as one node ``y``'s new value and its store into
        ``x`` would be simultaneous, and an allocation stored that way would look lost."""
        left = node.child_by_field_name("left")
        lp = path_of(left)
        self.lvalue(left, "=", inner, frozenset())
        self.rhs(lp, inner.child_by_field_name("left"), frozenset())
        sl = strip_parens(left)
        if sl is not None and sl.type == "identifier" and lp:
            self.f.flag_sets.append((lp, const_value(inner.child_by_field_name("right"), self.consts)))

    def lvalue(self, left: TSNode | None, op: str, right: TSNode | None, guarded: frozenset[str]) -> None:
        """What storing into ``left`` with ``op`` reads and stores besides ``left``'s own path
        (which the caller labels): a compound store reads it all, ``s.f = v`` sets part of ``s``,
        ``p->f = v`` and ``*q = v`` dereference, ``a[i] = v`` fills ``a``; ``right`` is the
        stored value (None when there is no expression for it, as for an ``asm`` output)."""
        lp = path_of(left)
        sl = strip_parens(left)
        if op != "=":
            self.walk(left, guarded)
        elif sl is not None and sl.type == "field_expression":
            base = sl.child_by_field_name("argument")
            plain = strip_parens(base)
            if text_of(sl.child_by_field_name("operator")) == "->":
                self.walk(base, guarded)
                self.deref(base, guarded)
            elif plain is not None and plain.type == "identifier":
                self.ev(path_of(plain), "def")  # s.f = v assigns part of s and reads nothing of it
            else:
                self.walk(base, guarded)
                if (filled := element_base(plain)) is not None:
                    self.ev(filled, "fill")  # a[i].f = v stores into an element of a
        elif sl is not None and lp is None:
            self.walk(sl, guarded)  # *q = ..., a[i] = ...: reads q / a and dereferences
            if op == "=" and (filled := element_base(sl) or member_array(sl)) is not None:
                self.ev(filled, "fill")  # a[i] = v stores an element of a (extractors.contents)
            if sl.type == "pointer_expression" and text_of(sl.child_by_field_name("operator")) == "*":
                self.ev(path_of(right), "ret")  # *out = v hands v to the caller
                stored = pointee_path(sl)
                if stored is not None and op == "=":
                    self.ev(stored, "def")  # the caller's x of f(&x) gets a new value
                    if is_null_pointer(right):
                        self.ev(stored, "null")

    def rhs(
        self,
        target: str | None,
        right: TSNode | None,
        guarded: frozenset[str],
        initialiser: bool = False,
        copy: bool = True,
    ) -> None:
        """Events of ``target = right`` (assignment or initialiser); ``copy``: a plain ``=`` (or an
        initialiser), after which a path on the right is held by the target too."""
        r = strip_parens(right)
        if r is not None and r.type == "call_expression":
            self.call(r, target, guarded, False)
            handed = path_of(strip_parens(self.returned(r)))
            if handed and copy and target and target != handed:  # r = memcpy(buf, ...): r holds buf
                self.ev(handed, "escape")
                self.f.copies.append((target, handed))
        elif r is not None and r.type == "assignment_expression":
            self.walk(r, guarded)
            inner = path_of(r.child_by_field_name("left"))
            if inner and text_of(r.child_by_field_name("operator")) == "=":  # x = y = v: x holds y's new value
                self.ev(inner, "escape")
                if copy and target and target != inner:
                    self.f.copies.append((target, inner))
        else:
            rp = path_of(r)
            if rp:
                self.ev(rp, "escape")
                if copy and target and target != rp:
                    self.f.copies.append((target, rp))
            elif copy and target and (deref := pointee_path(r)) is not None:
                self.f.copies.append((target, deref))  # c = *pc: c holds the caller's x of f(&x)
            elif copy and target and r is not None and r.type in ("subscript_expression", "field_expression"):
                self.f.shared.append(target)
            taken = path_of(address_operand(r))
            if taken:
                self.ev(taken, "escape")
            self.walk(right, guarded)
        if target:
            if is_null_pointer(right):
                self.ev(target, "null")
            if self.frame_address(right) is not None:
                self.ev(target, "stack")
            if self.not_heap(r, target):
                self.ev(target, "nonheap")
            trivial = is_null(right) or initialiser and (
                const_value(right, self.consts) is not None
                or named_constant(right)
                or is_null(right)
                or (r is not None and r.type in ("initializer_list", "string_literal"))
            )
            if not trivial:
                self.ev(target, "write")
            elif not initialiser and target.isidentifier():
                self.ev(target, "reset")  # err = -1: a write where err is a plain value (error_codes)
            self.ev(target, "def")

    def call(self, node: TSNode, result: str | None, guarded: frozenset[str], discarded: bool) -> None:
        name = call_name(node)
        if name is None:
            self.walk(node.child_by_field_name("function"), guarded)
        args: list[tuple[str | None, bool]] = []
        strings: list[tuple[int, str]] = []
        framed: set[int] = set()
        for a in args_of(node):
            if self.frame_address(a) is not None:
                framed.add(len(args))
            if (literal := literal_text(a)) is not None:
                strings.append((len(args), literal))  # a printf format (extractors.formats)
            target = address_operand(a)
            if target is not None:
                args.append((path_of(target), True))
            else:
                args.append((path_of(a), False))
            self.walk(a, guarded)
            self.ev(tested_argument(a), "notnull")
        sure = shared(frozenset(a for a, _ in args if a in guarded))
        lent = shared(borrowed(self.consts, name))
        framed_at = shared(frozenset(framed))
        self.f.calls.append(
            Call(name, tuple(args), result, discarded, sure, strings=tuple(strings), borrowed=lent, framed=framed_at)
        )

    def declaration(self, decl: TSNode) -> list[tuple[str, bool]]:
        """Facts of a declaration; returns the declared (name, uninitialised scalar) pairs."""
        out: list[tuple[str, bool]] = []
        ty = decl.child_by_field_name("type")
        aggregate = ty is not None and ty.type in ("struct_specifier", "union_specifier")
        # ``DataBlock pad;`` of ``typedef uint8_t DataBlock[16]``: the plain name declares an array
        typed_array = ty is not None and ty.type == "type_identifier" and text_of(ty) in self.array_types
        for d in decl.children_by_field_name("declarator"):
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            name, scalar = _declared(inner)
            if name is None:
                continue
            typed = typed_array and inner is not None and inner.type == "identifier"
            if typed:
                scalar = False
            if typed or _is_array(inner):
                self.f.arrays.add(name)
                self.ev(name, "nonheap")
                if value is None and _dimensions(inner) + typed_array == 1:
                    # its elements start unset (extractors.contents); not an array of arrays,
                    # whose ``b[i]`` is a row's address, no element read
                    self.ev(name, "contents")
            pointer = inner is not None and inner.type == "pointer_declarator"
            if value is None:
                if scalar and (pointer or not aggregate):
                    self.ev(name, "decl")
                elif scalar and ty is not None and ty.type == "struct_specifier" and not _is_array(inner):
                    self.ev(name, "fields")  # its fields start unset (extractors.struct_fields)
                out.append((name, scalar and (pointer or not aggregate)))
                self.f.flag_sets.append((name, None))
            else:
                self.rhs(name, value, frozenset(), initialiser=True)
                self.f.flag_sets.append((name, const_value(value, self.consts)))
                out.append((name, False))
        return out


def macro_statement_facts(node: TSNode) -> Facts:
    """Facts of a ``macro_type_specifier`` that stands as a statement (``BRET(b)`` before ``}``,
    no semicolon): a discarded call of the macro whose one argument, a plain name, it reads."""
    f = Facts()
    name = node.child_by_field_name("name")
    desc = node.child_by_field_name("type")
    inner = [c for c in desc.named_children if c.type != "comment"] if desc is not None else []
    arg = text_of(inner[0]) if len(inner) == 1 and inner[0].type == "type_identifier" else None
    if arg is not None:
        f.events.append((arg, "read"))
    if name is not None:
        f.calls.append(Call(text_of(name), ((arg, False),) if arg is not None else (), None, True))
    return f


def _is_array(d: TSNode | None) -> bool:
    """Whether a declarator declares an array (``char buf[8]``; ``char *v[4]`` too, not ``char (*p)[4]``)."""
    return _dimensions(d) > 0


def _dimensions(d: TSNode | None) -> int:
    """How many array dimensions a declarator gives its name: the array declarators nearest the
    name (``char b[4][8]``: 2; ``char *v[4]``, an array of pointers: 1; ``char (*p)[4]``, a
    pointer to an array: 0)."""
    kinds: list[str] = []
    while d is not None and d.type != "identifier":
        if d.type == "parenthesized_declarator":
            inner = list(d.named_children)
            d = inner[0] if inner else None
            continue
        kinds.append(d.type)
        d = d.child_by_field_name("declarator")
    n = 0
    for kind in reversed(kinds):
        if kind != "array_declarator":
            break
        n += 1
    return n


def _declared(d: TSNode | None) -> tuple[str | None, bool]:
    scalar = True
    while d is not None and d.type != "identifier":
        if d.type in ("array_declarator", "function_declarator"):
            scalar = False
        if d.type == "parenthesized_declarator":
            inner = [c for c in d.named_children]
            d = inner[0] if inner else None
            continue
        d = d.child_by_field_name("declarator")
    return (text_of(d) if d is not None else None), scalar
