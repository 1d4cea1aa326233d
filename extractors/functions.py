"""Per-file extraction: C functions become :class:`FunctionModel` values (pruned CFG with facts).

A model depends only on the function's own text, the file's constants and the configuration, so
it is keyed by a hash of those and reused whenever a function's text is unchanged, even if it moved
(``shift`` carries the row offset of the move).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from tree_sitter import Node as TSNode
from tree_sitter import Query, QueryCursor

from extractors.calls import CallSpec
from extractors.cfg import Cfg, CfgBuilder, choice_of, directive, elif_chain
from extractors.count_macros import NO_COUNT_MACROS, CountMacros, assigned_names, call_arguments
from extractors.facts import const_value
from extractors.function_marks import marks_of
from extractors.marks import Mark
from extractors.parse import LANGUAGE, parse_c, text_of
from extractors.preprocessor import NO_DEFINES, Assumed, Defines, condition_tokens, variants
from extractors.prune import Graph, prune
from extractors.user_atoms import UserAtoms


@dataclass(frozen=True)
class FunctionModel:
    name: str
    file: str
    params: tuple[str, ...]
    cfg: Cfg
    graph: Graph
    key: str
    base_row: int
    end_row: int
    shift: int = 0
    marks: tuple[Mark, ...] = ()  # what the function-scope rules check (unreachable code, unused locals)
    result: str = ""  # the declared result type's text (``unsigned long``; "" when not written), read by call_outcomes

    @property
    def start_row(self) -> int:
        return self.base_row + self.shift

    @cached_property
    def ident(self) -> str:
        """``file:name``, the function's id across the project (formed once: the projection asks
        for it hundreds of thousands of times per edit of a large file)."""
        return f"{self.file}:{self.name}"

    @property
    def last_row(self) -> int:
        return self.end_row + self.shift

    @cached_property
    def cfg_in_degree(self) -> tuple[int, ...]:
        """Per CFG node, how many edges lead into it (read per value of large functions)."""
        count = [0] * len(self.cfg.nodes)
        for out in self.cfg.succ:
            for dst, _ in out:
                count[dst] += 1
        return tuple(count)

    @cached_property
    def modelled(self) -> frozenset[int]:
        """The CFG nodes the pruned graph keeps (``graph.cfg_of`` as a set)."""
        return frozenset(self.graph.cfg_of)


@dataclass(frozen=True)
class FileModel:
    path: str
    functions: dict[str, FunctionModel]
    globals: frozenset[str]
    consts: dict[str, int]
    macros: dict[str, CallSpec] = field(default_factory=dict)


def _declarator_name(d: TSNode | None) -> TSNode | None:
    while d is not None and d.type not in ("function_declarator",):
        d = d.child_by_field_name("declarator")
    return d


def _params(fdecl: TSNode) -> tuple[str, ...]:
    """The parameter names of a function declarator, in order: declared in the parentheses, or
    only named there (a K&R definition, ``int f(a, b) int a; char *b; {``, whose declarations
    between the parentheses and the body give the types)."""
    out: list[str] = []
    plist = fdecl.child_by_field_name("parameters")
    for p in plist.named_children if plist is not None else []:
        if p.type == "identifier":
            out.append(text_of(p))
            continue
        if p.type != "parameter_declaration":
            continue
        d = p.child_by_field_name("declarator")
        while d is not None and d.type != "identifier":
            if d.type == "parenthesized_declarator":
                d = d.named_children[0] if d.named_children else None
                continue
            d = d.child_by_field_name("declarator")
        out.append(text_of(d) if d is not None else f"<arg{len(out)}>")
    return tuple(out)


def top_level_functions(root: TSNode) -> list[TSNode]:
    """The function definitions among the top-level items (see :func:`_top_level`)."""
    return [n for n in top_level_items(root) if n.type == "function_definition"]


def top_level_items(root: TSNode) -> list[TSNode]:
    """Top-level items, looking inside preprocessor conditionals and ``extern "C"`` blocks."""
    out: list[TSNode] = []
    stack = [root]
    while stack:
        n = stack.pop()
        for c in reversed(n.named_children):
            if c.type.startswith("preproc_if") or c.type in (
                "preproc_else",
                "preproc_elif",
                "linkage_specification",
                "declaration_list",
            ):
                stack.append(c)
            else:
                out.append(c)
    out.sort(key=lambda n: n.start_byte)
    return out


def macro_specs(text: str) -> dict[str, CallSpec]:
    """Function-like macros that assign to a parameter or hand on its address, as call specs that
    define it (``def``; ``read`` too when the body reads it before: lua's ``#define tonumber(o,n)
    (ttype(o)==3||(((o)=luaV_tonumber(o,n))!=NULL))``) or take its address (``addr``), and those
    that assign other names (the caller's variables: lua's ``vmfetch()`` sets ``i``), as specs
    that list them (``assigns``).

    ``lua_number2int(k, n)`` expands to ``((k)=(int)(n))``: without this, passing ``k`` looks like
    a read of an uninitialised variable, the commonest false positive on real code.  Read from the
    text rather than the tree: tree-sitter gives up on multi-line macros with comments inside.
    """
    flat = _COMMENT.sub(" ", text.replace("\\\r\n", " ").replace("\\\n", " "))
    out: dict[str, CallSpec] = {}
    defines = _DEFINE.findall(flat)
    for name, params, body in defines:
        assigned = _assigned_params(params, body)
        free = assigned_names(params, body)
        if assigned or free:
            out[name] = CallSpec(args=assigned, assigns=free)
    for _ in range(MAX_NESTING):  # Pillow's PREBLEND(m, a, b, tmp) is MULDIV255(a, 255 - m, tmp) + b
        handed = [(name, _handed_to_assigning(params, body, out, out.get(name))) for name, params, body in defines]
        grown = [(name, more) for name, more in handed if more]
        if not grown:
            break
        for name, more in grown:
            spec = out.get(name, CallSpec())
            out[name] = CallSpec(args=(*spec.args, *more), assigns=spec.assigns)
    return out


MAX_NESTING = 8  # macros handing a parameter on to a macro that assigns it, at most this deep


def _handed_to_assigning(
    params: str, body: str, specs: Mapping[str, CallSpec], own: CallSpec | None
) -> tuple[tuple[int, str], ...]:
    """The parameters of a macro (whose spec so far is ``own``) that its body hands, as a whole
    argument, to a position another macro of ``specs`` defines, and that it does not define yet."""
    names = [p.strip() for p in params.split(",")]
    known = {i for i, atom in own.args if atom == "def"} if own is not None else set()
    out: list[tuple[int, str]] = []
    data = body.encode("utf-8", "surrogateescape")
    for m in re.finditer(rb"\b([A-Za-z_]\w*)\s*\(", data):
        spec = specs.get(m.group(1).decode())
        args = call_arguments(data, m.end() - 1) if spec is not None else None
        if spec is None or args is None:
            continue
        for j, atom in spec.args:
            if atom != "def" or j >= len(args):
                continue
            arg = args[j].decode("utf-8", "surrogateescape")
            while arg.startswith("(") and arg.endswith(")"):
                arg = arg[1:-1].strip()
            if arg in names and (i := names.index(arg)) not in known and (i, "def") not in out:
                out.append((i, "def"))
    return tuple(out)


@lru_cache(maxsize=65_536)
def _assigned_params(params: str, body: str) -> tuple[tuple[int, str], ...]:
    """Memoised: a large file has hundreds of macros, read again on every edit."""
    out: list[tuple[int, str]] = []
    for i, prm in enumerate(p.strip() for p in params.split(",")):
        if prm.isidentifier() and _assigns(prm, body):
            if _read_first(prm, body):
                out.append((i, "read"))
            out.append((i, "def"))
        elif prm.isidentifier() and _address_handed_on(prm, body):
            out.append((i, "addr"))
    return tuple(out)


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)(.*)$", re.MULTILINE)


def _assigns(param: str, body: str) -> bool:
    """A plain assignment only: ``+=`` and ``++`` read the old value first (``&p`` is
    :func:`_address_handed_on`)."""
    p = re.escape(param)
    target = rf"(?<![\w.>])\(?\s*{p}\s*\)?"
    return re.search(rf"{target}\s*=(?!=)", body) is not None


_STORE_AFTER = re.compile(r"\s*\)?\s*=(?!=)")  # after a name: it is what a plain ``=`` stores to


def _read_first(param: str, body: str) -> bool:
    """Whether the body's first use of ``param`` (not a member after ``.`` or ``->``) reads it
    rather than being the target of a plain ``=``: the caller's value is then read before the
    macro stores a new one, as ``x = x + 1`` reads before it writes."""
    p = re.escape(param)
    first = re.search(rf"(?<![\w.>]){p}\b", body)
    if first is None:
        return False
    return _STORE_AFTER.match(body, first.end()) is None


def _address_handed_on(param: str, body: str) -> bool:
    """``&x`` as an argument or a value (lua's ``loadVar(S,x)`` is ``loadVector(S,&x,1)``): the
    call then counts as ``&x`` written out, which may assign ``x`` or only read it; also under a
    pointer cast (sqlite's ``fts5GetVarint32(a,b)`` is ``sqlite3Fts5GetVarint32(a,(u32*)&(b))``).
    Not ``&x->f`` or ``&x[i]`` (the address of what ``x`` points to) nor ``a && x``."""
    p = re.escape(param)
    before = r"(?:^|[(,=]|\(\s*[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*\s*\*+\s*\))"
    return re.search(rf"{before}\s*&\s*(?:\(\s*{p}\s*\)|{p}\b)(?!\s*(?:->|\.|\[))", body) is not None


_BOOLEANS = {"true": 1, "false": 0}


def file_constants(items: list[TSNode]) -> tuple[dict[str, int], frozenset[str]]:
    consts: dict[str, int] = {}
    globals_: set[str] = set()
    for n in items:
        if n.type == "preproc_def":
            name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
            if name is not None and value is not None:
                body = text_of(value).strip()
                word = body.strip("()").strip()
                if word in _BOOLEANS:
                    # stdbool's (C23's) true and false: ``#define True true`` is 1, as ``#define True 1``
                    consts[text_of(name)] = _BOOLEANS[word]
                with contextlib.suppress(ValueError):
                    consts[text_of(name)] = int(body.rstrip("uUlL").strip("()"), 0)
        elif n.type == "declaration":
            const = any(c.type == "type_qualifier" and text_of(c) == "const" for c in n.children)
            for d in n.children_by_field_name("declarator"):
                inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                while inner is not None and inner.type != "identifier":
                    if inner.type == "function_declarator":
                        inner = None
                        break
                    inner = inner.child_by_field_name("declarator")
                if inner is None:
                    continue
                globals_.add(text_of(inner))
                if const and d.type == "init_declarator":
                    v = const_value(d.child_by_field_name("value"), {})
                    if v is not None:
                        consts[text_of(inner)] = v
        for en in _enumerators(n):
            consts.update(en)
    return consts, frozenset(globals_)


def _enumerators(n: TSNode) -> list[dict[str, int]]:
    out = []
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type == "enumerator_list":
            value = -1
            d: dict[str, int] = {}
            for e in x.named_children:
                if e.type != "enumerator":
                    continue
                v = e.child_by_field_name("value")
                cv = const_value(v, d) if v is not None else value + 1
                if cv is None:
                    break
                value = cv
                d[text_of(e.child_by_field_name("name"))] = value
            out.append(d)
        elif x.type in ("declaration", "type_definition", "enum_specifier"):
            stack.extend(x.named_children)
    return out


_NORETURN = re.compile(r"\b(_Noreturn|noreturn|__noreturn__)\b")


def noreturn_names(n: TSNode) -> frozenset[str]:
    """Functions the item declares ``_Noreturn`` / ``__attribute__((noreturn))`` / ``[[noreturn]]``."""
    if n.type not in ("declaration", "function_definition"):
        return frozenset()
    body = n.child_by_field_name("body")
    head = (n.text or b"")[: (body.start_byte - n.start_byte) if body is not None else None]
    if not _NORETURN.search(head.decode("utf-8", "replace")):
        return frozenset()
    out: set[str] = set()
    for d in [n.child_by_field_name("declarator"), *n.children_by_field_name("declarator")]:
        fd = _declarator_name(d)
        name = fd.child_by_field_name("declarator") if fd is not None else None
        if name is not None and name.type == "identifier":
            out.add(text_of(name))
    return frozenset(out)


def function_key(text_digest: str, context_digest: str) -> str:
    """A function model's key: its text and what reading it depends on besides (the configuration;
    the file's constants, ``noreturn`` functions and macros)."""
    return hashlib.sha256(f"{text_digest}|{context_digest}".encode()).hexdigest()[:32]


def consts_digest(consts: dict[str, int]) -> str:
    return hashlib.sha256(repr(sorted(consts.items())).encode()).hexdigest()[:16]


def function_name(fn: TSNode) -> str | None:
    name = function_name_node(fn)
    return text_of(name) if name is not None else None


def function_name_node(fn: TSNode) -> TSNode | None:
    """The identifier a function definition declares (through pointer and parenthesised declarators)."""
    fd = _declarator_name(fn.child_by_field_name("declarator"))
    if fd is None:
        return None
    name = fd.child_by_field_name("declarator")
    while name is not None and name.type not in ("identifier",):
        name = (
            name.child_by_field_name("declarator")
            if name.type != "parenthesized_declarator"
            else (name.named_children[0] if name.named_children else None)
        )
    return name


def _result_text(fn: TSNode) -> str:
    """The declared result type of definition ``fn`` as written: its type, then the words
    tree-sitter could not place before the declarator (``local int f(...)``, with zlib's ``local``
    a macro for ``static``, parses as type ``local`` and an ERROR ``int``): the words after the
    macro are the type (extractors.return_exits reads ``int`` there)."""
    ty = fn.child_by_field_name("type")
    decl = fn.child_by_field_name("declarator")
    words = [text_of(ty)] if ty is not None else []
    for c in fn.children:
        if decl is not None and c.start_byte >= decl.start_byte:
            break
        if c.type == "ERROR" and ty is not None and c.start_byte > ty.start_byte:
            words.append(text_of(c))
    return " ".join(" ".join(words).split())


def build_function(
    fn: TSNode,
    path: str,
    lines: list[bytes],
    table: dict[str, CallSpec],
    consts: dict[str, int],
    key: str,
    row_base: int = 0,
    defines: Defines = NO_DEFINES,
    facts: frozenset[str] = frozenset(),
    atoms: UserAtoms = (),
    counts: CountMacros = NO_COUNT_MACROS,
    array_types: frozenset[str] = frozenset(),
) -> FunctionModel | None:
    """The model of definition ``fn``, whose first row in its parse tree is ``row_base`` and
    ``lines[0]`` (rows of the model count from there).  ``counts``: the macros the file sees that
    may be a size or a count (:mod:`extractors.count_macros`), which its conditions read through;
    ``array_types``: the typedef names of array types it sees (:mod:`extractors.array_types`)."""
    name = function_name(fn)
    if name is None or fn.child_by_field_name("body") is None:
        return None
    fd = _declarator_name(fn.child_by_field_name("declarator"))
    consts = _unshadowed(consts, facts, _params(fd) if fd is not None else ())
    settings = configurations(fn, defines)

    def built(consts: dict[str, int]) -> Cfg:
        cfgs = [
            CfgBuilder(lines, table, consts, row_base, defines, atoms, counts, a, array_types).build(fn)
            for a in settings
        ]
        return cfgs[0] if len(cfgs) == 1 else choice_of(cfgs)

    cfg = built(consts)
    if facts and (hidden := _unshadowed(consts, facts, tuple(cfg.declared))) is not consts:
        consts = hidden
        cfg = built(consts)
    marks = marks_of([fn], cfg, fn.text or b"", fn.start_byte, lines, row_base, counts)
    return _model(name, path, fn, cfg, consts, key, row_base, marks)


MAX_SHARED_TESTS = 3  # the tests ``configurations`` decides: at most 2**3 copies of a function


def configurations(fn: TSNode, defines: Defines) -> list[Assumed | None]:
    """The configurations a parsed function ``fn`` is built in, its CFG the choice of theirs:
    ``[None]`` (one, where each conditional the defines leave open is a choice of its branches)
    unless a test (:meth:`Assumed.leaves`: ``defined X``, ``X > 1``; ``X`` and ``defined X`` count
    as one, and a name the file defines under a condition it leaves open stands for that condition's
    tests) occurs in the conditions of two conditionals the defines leave open. Then each way of
    deciding the first :data:`MAX_SHARED_TESTS` such tests that can be (:meth:`Assumed.part`) is one
    configuration, so ``#if C`` ... ``#else`` ... ``#endif`` then ``#if C`` takes both first
    branches or neither on every path, never one of each. Other conditionals stay choices of their
    branches in each configuration, and the configurations together run every path a configuration
    of the defines runs: only paths through contradicting decisions are gone."""
    # the conditionals each test occurs in; ``X`` and ``defined X`` are one test here (one name)
    where: dict[tuple[str, ...], set[int]] = {}
    forms: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    given = Assumed(defines)  # nothing assumed: what the defines decide
    for n in _conditional_nodes(fn):
        d = directive(n)
        tokens = condition_tokens(*d) if d is not None else None
        if d is not None and tokens is not None and given.decide(*d) is None:
            for p in sorted(given.leaves(tokens)):
                if given.part_open(p):
                    key = p[1:] if len(p) == 2 and p[0] == "defined" else p
                    where.setdefault(key, set()).add(n.start_byte)
                    if p not in forms.setdefault(key, []):
                        forms[key].append(p)
    shared = [p for key, at in where.items() if len(at) > 1 for p in forms[key]][:MAX_SHARED_TESTS]
    if not shared:
        return [None]
    chains = _enumerated_chains(fn)
    out: list[Assumed | None] = []
    for mask in range(1 << len(shared)):
        a = Assumed(defines)
        if not all(a.part(p, not mask >> i & 1) for i, p in enumerate(shared)):
            continue
        if any(all(a.decide(*d) is False for d in chain) for chain in chains):
            continue  # a build that takes none of an enumerated chain's branches is none it supports
        out.append(a)
    return out or [None]


_CONDITIONALS = Query(LANGUAGE, "[(preproc_if) (preproc_ifdef) (preproc_elif) (preproc_elifdef)] @c")


def _conditional_nodes(fn: TSNode) -> list[TSNode]:
    """The conditionals and ``#elif`` branches inside ``fn``, in the order of their text (the
    order a walk from the top meets them): found by tree-sitter's query engine, as a walk over
    every node of a long function in Python costs more than the rest of deciding them."""
    if b"#" not in (fn.text or b""):
        return []
    return sorted(QueryCursor(_CONDITIONALS).captures(fn).get("c", []), key=lambda n: n.start_byte)


def _enumerated_chains(fn: TSNode) -> list[list[tuple[str, str]]]:
    """The directives of each conditional in ``fn`` that has an ``#elif`` and no ``#else``
    (``#ifdef FREEBSD ... #elif OPENBSD ... #elif NETBSD ... #endif``): it enumerates the builds
    the code supports, one of whose branches every build takes (:meth:`CfgBuilder.conditional`)."""
    out: list[list[tuple[str, str]]] = []
    stack = [fn]
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if n.type not in ("preproc_if", "preproc_ifdef"):
            continue
        chain, alt = elif_chain(n)
        ds = [d for c in chain if (d := directive(c)) is not None]
        if alt is None and len(chain) > 1 and len(ds) == len(chain):
            out.append(ds)
    return out


def _unshadowed(consts: dict[str, int], facts: frozenset[str], names: tuple[str, ...]) -> dict[str, int]:
    """``consts`` less the project constants (``facts``, helpers as ``name()``) that a parameter or
    local of the same name hides; ``consts`` itself when none is hidden."""
    hidden = {n for n in facts if (n[:-2] if n.endswith("()") else n) in names}
    return {k: v for k, v in consts.items() if k not in hidden} if hidden else consts


def _model(
    name: str,
    path: str,
    fn: TSNode,
    cfg: Cfg,
    consts: dict[str, int],
    key: str,
    row_base: int,
    marks: tuple[Mark, ...] = (),
) -> FunctionModel | None:
    """The model of ``cfg``, the CFG of definition ``fn`` (parameters and rows read from ``fn``)."""
    fd = _declarator_name(fn.child_by_field_name("declarator"))
    if fd is None:
        return None
    params = _params(fd)
    graph = prune(cfg, consts, params)
    result = _result_text(fn)
    return FunctionModel(
        name, path, params, cfg, graph, key, fn.start_point[0] - row_base, fn.end_point[0] - row_base, 0, marks, result
    )


def build_variants(
    text: bytes,
    name: str,
    path: str,
    table: dict[str, CallSpec],
    consts: dict[str, int],
    key: str,
    defines: Defines = NO_DEFINES,
    facts: frozenset[str] = frozenset(),
    atoms: UserAtoms = (),
    counts: CountMacros = NO_COUNT_MACROS,
    array_types: frozenset[str] = frozenset(),
    as_written: TSNode | None = None,
) -> FunctionModel | None:
    """The model of function ``name`` whose text ``text`` does not parse as written because of
    preprocessor conditionals: the choice of the models of its variants (see
    :mod:`extractors.preprocessor`) that parse without error; None when none does, or when the
    conditionals are not what fails: every variant fails exactly where ``as_written`` (the
    definition parsed as written) does, so they split nothing (an unknown macro before the
    return type, a statement macro with no semicolon) and the text as written is read, one
    conditional at a time, as a text that parses is.  The variants keep every position, so the
    model's rows and columns are those of ``text``."""
    lines = text.split(b"\n")
    fns: list[TSNode] = []
    for variant in variants(text, defines):
        fn = next(
            (n for n in top_level_items(parse_c(variant).root_node) if n.type == "function_definition"), None
        )
        if fn is not None and function_name(fn) == name and fn.child_by_field_name("body") is not None:
            fns.append(fn)
    whole = [fn for fn in fns if not fn.has_error]
    if not whole and as_written is not None and fns and function_name(as_written) == name:
        failing = parse_errors(as_written)
        if all(parse_errors(fn) == failing for fn in fns):
            return None
    fns = whole or fns  # errors that are not the conditionals' (K&R, unknown macros): read as before
    if not fns:
        return None
    fd = _declarator_name(fns[0].child_by_field_name("declarator"))
    consts = _unshadowed(consts, facts, _params(fd) if fd is not None else ())
    def built(consts: dict[str, int]) -> Cfg:
        return choice_of(
            [CfgBuilder(lines, table, consts, 0, defines, atoms, counts, None, array_types).build(fn) for fn in fns]
        )

    cfg = built(consts)
    if facts and (hidden := _unshadowed(consts, facts, tuple(cfg.declared))) is not consts:
        consts = hidden
        cfg = built(consts)
    return _model(name, path, fns[0], cfg, consts, key, 0, marks_of(fns, cfg, text, 0, lines, 0, counts))


def parse_errors(node: TSNode) -> set[tuple[str, int, int]]:
    """Where tree-sitter's reading of ``node`` failed: each ERROR node and each token it had to
    make up (MISSING), by kind and byte span, looked for only under nodes that hold one."""
    out: set[tuple[str, int, int]] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            out.add(("missing " + n.type if n.is_missing else "ERROR", n.start_byte, n.end_byte))
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    return out


def moved(model: FunctionModel, path: str, start_row: int) -> FunctionModel:
    if model.start_row == start_row and model.file == path:
        return model
    return replace(model, file=path, shift=start_row - model.base_row)
