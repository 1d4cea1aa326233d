"""Function-like macros whose value may be a size or an element count: ``ARRAY_SIZE``.

``#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))`` is how C code spells an array's element
count, and ``for (i = 0; i < ARRAY_SIZE(tab); i++)`` how it walks the array.  The CFG builder
knows that ``sizeof tab / sizeof tab[0]`` is at least 1 (``cfg.POSITIVE``: the loop runs at least
once, so what it assigns is set after it); through the macro the bound is a call it knows nothing
of, and the loop may run zero times, which gives a false uninitialised read after it.

This module reads the candidates from a text (:func:`count_macros`, per file and per header, as
:mod:`extractors.macro_calls` reads renames) and expands a call of one (:func:`expansion`): the
builder reads the expansion as it reads the written expression, and takes only a ``POSITIVE``
outcome from it, so a macro whose value may be 0 (``#define COUNT(n) (n)``) leaves the bound as
unknown as before.  Expansion is C's: each parameter token of the body replaced by the argument's
text (no parentheses added), so ``ARRAY_SIZE(p)`` of a pointer ``p`` is read exactly as the
written ``sizeof(p) / sizeof((p)[0])`` is.

Invariant: a candidate's body has no ``#`` (stringising and pasting are not expanded here) and
applies ``sizeof`` (a value at least 1 needs one) or calls a candidate that does (:func:`counting`,
over all the definitions a file sees); keeping only those keeps the set, which keys the file's
models (``queries.function_context``), small and unchanged by the file's other macros.

Statement macros travel with them: a function-like macro whose body places a parameter as a
statement of its own (brotli's ``#define BROTLI_REPEAT_5(X) {X; X; X; X; X;}``, ``do { X; }
while (0)``, ``{ lock(); X; unlock(); }``; :func:`statement_macro`).  Written as a statement,
``BROTLI_REPEAT_5({ symbol += count[bits]; offset[bits] = symbol; bits++; });`` is one call to
tree-sitter, whose argument is a block; read as one node, its stores and reads are a set, and
``symbol += ...`` looks overwritten unread.  The CFG builder expands such a call
(:func:`expand_call`, C's expansion: the arguments split at the commas outside parentheses, each
parameter token of the body replaced by its argument's text) and builds the expansion's
statements in order, each copy of an argument at the argument's own place in the file
(``Expanded.pieces``), the copies of one statement twins of its first (``Cfg.twins``): a claim
about the statement as written (a dead store) must hold at every copy (:mod:`extractors.every_copy`),
so the last copy of ``bits++``, which no copy reads, is no dead store of the text, which every
other copy's reads need.  The same holds of the body's own statements across the macro's calls in
one function (xxhash's ``PROCESS1``, whose ``*p++`` the last call leaves unread).  An object-like
macro written as a statement (``C16B;``, ``#define RESET pos = 0; count = 0;``) is expanded the
same way.  A file sees few of them, and the set keys its models as the counts do.

So do block macros: a function-like macro whose whole body is one block (``do { ... } while (0)``,
``{ ...; }``) runs it where it is called as a statement, whatever its arguments are.  cffi's
``#define _read_raw_data(type) do { if (size == sizeof(type)) { type r; ...; return r; } } while(0)``
takes a type name (``long double``, ``unsigned PY_LONG_LONG``: tree-sitter reads such a call as a
type, not a call), reads the caller's ``size`` and returns from the caller; expanded, the type is
text like any other argument.  The bodies that say ``return`` (:func:`returning_macros`) also
keep a function that calls one from looking like it never returns (``items._ending_calls``).

Macros that read a name of their caller travel with them too: ``#define EQ(s1) (strcmp(s1, inst) ==
0)`` reads the ``inst`` of the function calling it (:func:`free_reads`), which the CFG builder
labels a read at the call (the never-read rule counts any mention in the body of a macro the
function calls).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from extractors.preprocessor import C_KEYWORDS

# a macro's parameters and body, as the definition writes them (the body's whitespace trimmed)
CountMacro = tuple[tuple[str, ...], str]
CountMacros = Mapping[str, CountMacro]
NO_COUNT_MACROS: CountMacros = {}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
# function-like when "(" comes right after the name (``#define N (x)`` is object-like)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(([^)]*)\))?(.*)$", re.MULTILINE)
# the parameters of an object-like macro (``#define BUFSIZE (16 * sizeof(void *))``): no name a
# parameter list can hold, so it is never taken for a function-like macro's
OBJECT_LIKE: tuple[str, ...] = ("()",)


def _parameter_names(params: str) -> tuple[str, ...]:
    """The names of a define's parameter list (the text between its parentheses)."""
    return tuple(p.strip() for p in params.split(",")) if params.strip() else ()


def _flattened(text: str) -> str:
    """``text`` with its continued lines joined and its comments blanked: one define a line."""
    return _COMMENT.sub(" ", text.replace("\\\r\n", " ").replace("\\\n", " "))


def object_like(macro: CountMacro) -> bool:
    return macro[0] == OBJECT_LIKE


def stringifies(body: str) -> bool:
    """Whether ``body`` uses ``#`` other than to paste tokens (``#x`` makes a string of an
    argument, which an expansion here does not; ``a##b`` it does)."""
    return "#" in body.replace("##", "")
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_WORD = re.compile(r"[A-Za-z_]\w*")
_SIZEOF = re.compile(r"\bsizeof\b")
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")  # a name a body calls
_PASTED = re.compile(r"\w*\s*##\s*\w*")  # the parts of a name made by pasting


def count_macros(text: str) -> dict[str, CountMacro]:
    """The object-like macros of ``text`` whose body names something (``#define BUFSIZE (16 *
    sizeof(void *))``, ``#define LINE (BUFSIZE + 1)``: :func:`counting` keeps those that reach a
    ``sizeof``), and the function-like macros whose body may be a size or a count: it applies
    ``sizeof``, or calls a macro (``#define countof(a) ARRAY_SIZE(a)``, which :func:`counting`
    keeps only when that one is a candidate); and the statement macros, the macros that read a
    caller's name and the branch hints (:func:`hint`).  A later definition of a name wins, also
    when it is none of these; but a hint is no hint when another definition of its name in
    ``text`` is not one (SQLite's ``ALWAYS(X)``: ``(X)`` in one build, ``(1)`` in another)."""
    flat = _flattened(text)
    out: dict[str, CountMacro] = {}
    untruthful: set[str] = set()  # names with a function-like definition that is no hint
    for m in _DEFINE.finditer(flat):
        name, params, body = m.group(1), m.group(3), m.group(4).strip()
        if m.group(2) is None:  # object-like: a candidate when it may be a size (names something)
            if _WORD.search(body) is not None and not stringifies(body):
                out[name] = (OBJECT_LIKE, body)
            else:
                out.pop(name, None)
            continue
        names = _parameter_names(params)
        hinting = hint((names, body))
        if not hinting:
            untruthful.add(name)
        statement = statement_macro((names, body)) or sequence_macro((names, body))
        shaped = _SIZEOF.search(body) is not None or _CALLED.search(body) is not None
        shaped = shaped or statement or bool(free_reads((names, body))) or hinting
        # (a statement macro is expanded with its # and ## applied; other uses read the body as is)
        if shaped and (statement or not stringifies(body)) and _parameters(names):
            out[name] = (names, body)
        else:
            out.pop(name, None)
    for name in untruthful:
        if name in out and not object_like(out[name]) and hint(out[name]):
            del out[name]  # a hint in one build, something else in another
    return out


def mixed_hints(text: str) -> frozenset[str]:
    """The names ``text`` defines as a hint (:func:`hint`) in one place and as something else
    in another: no hint, whichever definition a build picks."""
    flat = _flattened(text)
    hints: set[str] = set()
    others: set[str] = set()
    for m in _DEFINE.finditer(flat):
        if m.group(2) is None:
            continue
        names = _parameter_names(m.group(3))
        (hints if hint((names, m.group(4).strip())) else others).add(m.group(1))
    return frozenset(hints & others)


VARIADIC = "..."
"""The last parameter of a variadic macro, whose arguments ``__VA_ARGS__`` names in the body."""


def _parameters(names: Sequence[str]) -> bool:
    """Whether ``names`` are parameters an expansion here binds: names, the last one maybe
    :data:`VARIADIC` (GNU's named ``args...`` is not)."""
    fixed = names[:-1] if names and names[-1] == VARIADIC else names
    return all(_NAME.match(n) for n in fixed)


def _bound(params: Sequence[str], count: int) -> int | None:
    """How many of ``count`` arguments the named parameters take (the rest are ``__VA_ARGS__``),
    or None when ``count`` arguments do not fit ``params``."""
    if params and params[-1] == VARIADIC:
        return len(params) - 1 if count >= len(params) - 1 else None
    return count if count == len(params) else None


@lru_cache(maxsize=65_536)
def function_like(define: str) -> CountMacro | None:
    """The function-like macro the text after ``#define`` defines (``SimulateIOError(A)``), or
    None when it is object-like, variadic, or pastes or stringifies (``#`` in the body).  Memoised:
    each file reads its headers' definitions again."""
    m = _DEFINE.match("#define " + _COMMENT.sub(" ", define))
    if m is None or m.group(2) is None or "#" in m.group(4):
        return None
    names = _parameter_names(m.group(3))
    return (names, m.group(4).strip()) if all(_NAME.match(n) for n in names) else None


@lru_cache(maxsize=4096)
def dropped(macro: CountMacro) -> tuple[int, ...]:
    """The parameters ``macro``'s body never names (``#define SimulateIOError(A)``, empty): a
    call's argument there is compiled out, reads, stores, calls and returns in it alike, so a
    call written as a statement is read through its expansion (:mod:`extractors.cfg`)."""
    params, body = macro
    if object_like(macro) or stringifies(body):
        return ()
    words = set(_WORD.findall(_LITERALS.sub(" ", body)))
    return tuple(i for i, p in enumerate(params) if _NAME.match(p) and p not in words)


def counting(found: Mapping[str, CountMacro]) -> dict[str, CountMacro]:
    """Of the candidates a file sees (its headers' and its own :func:`count_macros`), those whose
    body applies ``sizeof`` or calls one that is kept, or (object-like) names one (the others can
    never expand to a count), the statement and sequence macros, those that read a name of the
    caller's (:func:`free_reads`) and the branch hints (:func:`hint`)."""
    kept = {
        n: m
        for n, m in found.items()
        if _SIZEOF.search(m[1]) or statement_macro(m) or sequence_macro(m) or free_reads(m) or hint(m)
    }
    while True:
        more = {
            n: m
            for n, m in found.items()
            if n not in kept and any(c in kept for c in (_WORD if object_like(m) else _CALLED).findall(m[1]))
        }
        if not more:
            return kept
        kept.update(more)


EXPECT = frozenset({"__builtin_expect", "__builtin_expect_with_probability"})
"""GCC's and clang's branch hints: the value of ``__builtin_expect(e, c)`` is ``e``'s."""
_HINTED = re.compile(r"__builtin_expect\((.*),[^,()]*\)|__builtin_expect_with_probability\((.*),[^,()]*,[^,()]*\)")


@lru_cache(maxsize=4096)
def hint(macro: CountMacro) -> bool:
    """Whether ``macro`` is a branch hint: one parameter, and a body whose truth is the
    argument's, the parameter itself or a :data:`EXPECT` of it (``#define unlikely(x)
    __builtin_expect(!!(x), 0)``), with any parentheses and ``!!`` around it.  ``if
    (unlikely(p == NULL))`` branches as ``if (p == NULL)`` does; the CFG builder reads the
    argument as the condition.  Only where every definition of the name is one
    (:func:`count_macros`): SQLite's ``ALWAYS(X)`` is ``(X)`` in one build and an assertion or
    ``(1)`` in others, which say that its false branch never runs."""
    params, body = macro
    if len(params) != 1 or not _NAME.match(params[0]):
        return False
    flat = _bare(re.sub(r"\s+", "", body))
    m = _HINTED.fullmatch(flat)
    if m is not None:
        flat = _bare(m.group(1) if m.group(1) is not None else m.group(2))
    return flat == params[0]


def _bare(text: str) -> str:
    """``text`` less the ``!!`` and the parentheses around it."""
    while (inner := _unwrap(text)) != text:
        text = inner
    return text


def _unwrap(text: str) -> str:
    """``text`` less one ``!!`` before it or one pair of parentheses around it (when they match
    each other), else ``text``."""
    if text.startswith("!!"):
        return text[2:]
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(text) - 1:
            return text  # ``(a) + (b)``: the first parenthesis closes before the end
    return text[1:-1]


def expansion(macro: CountMacro, args: Sequence[str]) -> str | None:
    """The text a call of ``macro`` with the argument texts ``args`` expands to (None when the
    count of arguments is not the macro's)."""
    params, body = macro
    named = _bound(params, len(args))
    if named is None:
        return None
    given = dict(zip(params[:named], args[:named], strict=True))
    if named < len(params):
        given["__VA_ARGS__"] = ", ".join(args[named:])

    def replaced(m: re.Match[str]) -> str:
        word = m.group(2)
        if word is None:  # #x: the argument's text as a string literal
            arg = given.get(m.group(1))
            return m.group(0) if arg is None else '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return given.get(word, word)

    # a##b: the two sides' texts (arguments as written, not expanded) made one token
    return _PASTE_TEXT.sub("", _SUBSTITUTED.sub(replaced, body))


_SUBSTITUTED = re.compile(r"(?<!#)#\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)")  # a stringized parameter, or a word
_PASTE_TEXT = re.compile(r"\s*##\s*")


_LITERALS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
# a lower-case word that is not called, not a member, and not the target of a plain ``=``
_FREE_WORD = re.compile(r"(?<![\w.>$])(?<!->)\s*\b([a-z_]\w*)\b(?!\s*\()(?!\s*\)?\s*=(?!=))")
_NOT_NAMES = C_KEYWORDS | {"bool", "true", "false"}
# a plain name assigned at the start of an expression (not ``s.f =``, ``p->f =``, ``*p =``)
_FREE_ASSIGN = re.compile(r"(?:^|[{};(),?:]|\belse)\s*(?:\(\s*)?([A-Za-z_]\w*)\s*\)?\s*=(?!=)")
# a declaration ``T name =``, ``T *name;``, ``T name[`` (the first word a statement keyword: no declaration)
_DECLARED = re.compile(r"\b([A-Za-z_]\w*)[\s*]+([A-Za-z_]\w*)\s*(?:=(?!=)|;|,|\[)")
_STATEMENT_WORDS = frozenset({"return", "if", "else", "while", "for", "do", "switch", "case", "sizeof"})


def declared_names(body: str) -> set[str]:
    """The names a macro body declares itself (``int k = 0``, ``type r;``; not ``return r;``)."""
    return {n for word, n in _DECLARED.findall(body) if word not in _STATEMENT_WORDS}


@lru_cache(maxsize=65_536)
def assigned_names(params: str, body: str) -> tuple[str, ...]:
    """Plain names a macro body assigns that are not its parameters, at the start of an
    expression (so not ``int k = 0`` declaring its own, nor ``s.f =`` or ``p->f =``).  Memoised:
    a large file has hundreds of macros, read again on every edit."""
    own = {p.strip() for p in params.split(",")} | declared_names(body)
    found = _FREE_ASSIGN.findall(body)
    return tuple(sorted({n for n in found if n not in own and n not in _STATEMENT_WORDS}))


@lru_cache(maxsize=4096)
def free_reads(macro: CountMacro) -> tuple[str, ...]:
    """The plain names ``macro``'s body reads that are none of its parameters (lua's ``#define
    EQ(s1) (strcmp(s1, inst) == 0)`` reads the caller's ``inst``): lower-case words outside
    literals that are not called, not a member after ``.`` or ``->``, never the target of a plain
    ``=`` in the body (:func:`assigned_names`: a macro assigning a name defines it, and
    which of its reads come before the store the call's one node cannot say), not a C keyword, and
    not declared by the body itself.  A call of the macro reads the caller's local of
    that name, if it has one; a name in capitals is left out (another macro or a constant, never a
    local)."""
    params, body = macro
    if stringifies(body):
        return ()
    if object_like(macro):
        params = ()
    text = _PASTED.sub(" ", _LITERALS.sub(" ", body))  # a pasted name is no name of the caller's
    own = set(params) | declared_names(text) | set(_FREE_ASSIGN.findall(text))
    words = (m.group(1) for m in _FREE_WORD.finditer(text))
    return tuple(sorted({w for w in words if w not in own and w not in _NOT_NAMES}))


def reads_through(name: str, macros: CountMacros, depth: int = 0) -> frozenset[str]:
    """The names a call of macro ``name`` reads of its caller: its body's :func:`free_reads` and
    those of the macros it calls, :data:`MAX_DEPTH` deep at most (a cycle of defines ends)."""
    macro = macros.get(name)
    if macro is None or depth > MAX_DEPTH:
        return frozenset()
    out = set(free_reads(macro))
    named = set(_CALLED.findall(macro[1]))
    named |= {w for w in _WORD.findall(macro[1]) if (m := macros.get(w)) is not None and object_like(m)}
    for callee in sorted(named):
        if callee != name:
            out |= reads_through(callee, macros, depth + 1)
    return frozenset(out)


MAX_DEPTH = 8


def count_macros_key(macros: CountMacros) -> str:
    """What names ``macros`` in a digest: empty when there are none, so a file without any keeps
    the key it had."""
    return repr(sorted(macros.items())) if macros else ""


# a parameter as a statement of its own: after the start, ``{``, ``;``, ``}``, ``)`` (``if (c) X;``)
# or ``else``/``do``, and before ``;`` or ``}``
_SLOT = r"(?:^|[{{;}})]|\belse|\bdo)\s*{p}\s*(?=[;}}]|$)"


# a body that is one statement block: ``do { ... } while (0)``, braces around statements (a
# ``;`` inside: ``{ x, y }`` is an initializer), or an ``if`` whose branch is such braces
# (``if ((data + (n)) > end) { state->errcode = OVERRUN; return -1; }``)
_BLOCK = re.compile(
    r"do\s*\{.*\}\s*while\s*\(\s*0\s*\)\s*;?|\{.*;.*\}\s*;?|if\s*\(.*\)\s*\{.*;.*\}\s*;?", re.S
)


@lru_cache(maxsize=4096)
def sequence_macro(macro: CountMacro) -> bool:
    """Whether ``macro``'s body is two or more statements one after another at its top level (``a(x);
    b(x)``, libsodium's blake2b ``ROUND(r)``, whose statements are calls of macros named by
    pasting): a call of it written as a statement of a block runs them in order. (As the whole
    body of an ``if`` only the first is the ``if``'s, so the CFG builder expands it only in a block.)"""
    params, body = macro
    text = _LITERALS.sub('""', body).strip().rstrip(";").rstrip()
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            return True
    return False


@lru_cache(maxsize=4096)
def statement_macro(macro: CountMacro) -> bool:
    """Whether a call of ``macro`` written as a statement runs statements, which the CFG builder
    models by expanding the call: the body places one of its parameters as a statement of its own
    (``{X; X;}``, ``do { X; } while (0)``, ``for (...) X;``, ``X; X``), or the whole body is one
    block (``do { if (size == sizeof(type)) return r; } while (0)``, ``{ a; b; }``), whose reads of
    the caller's locals, stores and returns are the caller's whatever its arguments are (a type
    name such as ``long double`` is text like any other)."""
    params, body = macro
    if ";" not in body and "{" not in body:
        return False  # ``#define ID(x) x`` is an expression
    if _BLOCK.fullmatch(body) is not None or object_like(macro):
        return True  # (an object-like one: ``#define RESET pos = 0; count = 0;``)
    if _JUMP.search(_LITERALS.sub(" ", body)) is not None:
        return True  # a label or a jump of a switch or a loop: ``case UV_FS_##t: r = a; break;``
    return any(_NAME.match(p) and re.search(_SLOT.format(p=re.escape(p)), body) for p in params)


_RETURN = re.compile(r"\breturn\b")
_JUMP = re.compile(r"\b(?:case\b[^;]*:|default\s*:|break\s*;|continue\s*;)")


def returning_macros(texts: Sequence[bytes]) -> frozenset[str]:
    """The function-like macros the define texts ``texts`` define whose body says ``return``: a
    statement that calls one may return from the function it is written in."""
    out: set[str] = set()
    for text in texts:
        if b"return" not in text:
            continue
        flat = _COMMENT.sub(" ", text.decode("utf-8", "replace").replace("\\\r\n", " ").replace("\\\n", " "))
        out.update(m.group(1) for m in _DEFINE.finditer(flat) if m.group(2) is not None and _RETURN.search(m.group(4)))
    return frozenset(out)


@dataclass(frozen=True)
class Expanded:
    """A macro call expanded: ``text`` is the body with each parameter replaced by its argument's
    text; ``pieces`` are the ``(start, end, at)`` ranges of ``text`` copied from the call's text at
    ``at`` (one per use of a parameter); ``end`` is where the call ends in the call's text, past
    the ``;`` after it if there is one."""

    text: bytes
    pieces: tuple[tuple[int, int, int], ...]
    end: int


_CALL_AT = re.compile(rb"([A-Za-z_]\w*)\s*\(")
_PASTE = re.compile(rb"\s*##\s*")  # token pasting: the tokens around it become one
_STRINGIZE = re.compile(rb"(?<!#)#\s*\Z")  # a # right before a parameter (not ##): make it a string
# the body's pieces: a string or character literal (copied whole: no parameter is replaced in
# one), a word (maybe a parameter), or anything else
_BODY_TOKEN = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[A-Za-z_]\w*|\d[\w.]*|[^"\'\w]+|.', re.S)


def object_statement(macro: CountMacro, data: bytes, after: int) -> Expanded | None:
    """The expansion of object-like ``macro`` written as a statement of its own (``C16B;``) whose
    name ends at ``data[after]``: its body, and where the statement ends (past the ``;``)."""
    if not object_like(macro) or stringifies(macro[1]):
        return None
    end = after
    while end < len(data) and data[end : end + 1] in b" \t\r\n":
        end += 1
    if data[end : end + 1] == b";":
        end += 1
    return Expanded(macro[1].encode("utf-8", "surrogateescape"), (), end)


def called_at(data: bytes, at: int) -> tuple[str, int] | None:
    """The name of the call ``NAME (`` that starts at ``data[at]``, and where its parenthesis opens."""
    m = _CALL_AT.match(data, at)
    return (m.group(1).decode("ascii", "replace"), m.end() - 1) if m is not None else None


def expand_call(macro: CountMacro, data: bytes, open_at: int) -> Expanded | None:
    """The expansion of the call of ``macro`` whose argument list opens at ``data[open_at]``
    (None when it does not close, or the count of arguments is not the macro's).  Arguments are
    split as the preprocessor splits them: at the commas outside nested parentheses (braces and
    brackets do not protect a comma), string and character literals and comments skipped; each is
    taken without the white space around it."""
    params, body = macro
    args = _arguments(data, open_at)
    if args is None:
        return None
    ranges, close = args
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1] and (not params or params == (VARIADIC,)):
        ranges = []
    named = _bound(params, len(ranges))
    if named is None:
        return None
    given = dict(zip(params[:named], ranges[:named], strict=True))
    if named < len(params):  # the variadic arguments, commas and all, as one piece of the call
        rest = ranges[named:]
        given["__VA_ARGS__"] = (rest[0][0], rest[-1][1]) if rest else (close, close)
    out = bytearray()
    pieces: list[tuple[int, int, int]] = []
    for m in _BODY_TOKEN.finditer(body.encode("utf-8", "surrogateescape")):
        word = m.group(0)
        arg = given.get(word.decode("utf-8", "replace")) if word[:1].isalpha() or word[:1] == b"_" else None
        if arg is None:
            out += _PASTE.sub(b"", word) if b"##" in word else word
            continue
        start, end = arg
        hashed = _STRINGIZE.search(out)
        if hashed is not None:  # #x: the argument's text as a string literal, no code of the call's
            del out[hashed.start() :]
            out += b'"' + data[start:end].replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'
            continue
        pieces.append((len(out), len(out) + end - start, start))
        out += data[start:end]
    end = close + 1
    after = end
    while after < len(data) and data[after : after + 1] in b" \t\r\n":
        after += 1
    if data[after : after + 1] == b";":
        end = after + 1
    return Expanded(bytes(out), tuple(pieces), end)


def call_arguments(data: bytes, open_at: int) -> list[bytes] | None:
    """Each argument's text (white space around it left out) of the parenthesis that opens at
    ``data[open_at]``; None when it does not close."""
    got = _arguments(data, open_at)
    return [data[a:b] for a, b in got[0]] if got is not None else None


def _arguments(data: bytes, open_at: int) -> tuple[list[tuple[int, int]], int] | None:
    """Each argument's range (white space around it left out) of the parenthesis that opens at
    ``data[open_at]``, and where it closes."""
    depth, i, start = 0, open_at, open_at + 1
    ranges: list[tuple[int, int]] = []
    n = len(data)
    while i < n:
        ch = data[i : i + 1]
        if ch in (b'"', b"'"):
            i = _after_quote(data, i)
            continue
        if data.startswith(b"/*", i):
            close = data.find(b"*/", i + 2)
            i = n if close < 0 else close + 2
            continue
        if data.startswith(b"//", i):
            close = data.find(b"\n", i)
            i = n if close < 0 else close
            continue
        if ch == b"(":
            depth += 1
        elif ch == b")":
            depth -= 1
            if depth == 0:
                ranges.append(_trimmed(data, start, i))
                return ranges, i
        elif ch == b"," and depth == 1:
            ranges.append(_trimmed(data, start, i))
            start = i + 1
        i += 1
    return None


def _after_quote(data: bytes, at: int) -> int:
    quote, i = data[at : at + 1], at + 1
    while i < len(data) and data[i : i + 1] not in (quote, b"\n"):
        i += 2 if data[i : i + 1] == b"\\" else 1
    return i + 1


def _trimmed(data: bytes, start: int, end: int) -> tuple[int, int]:
    while start < end and data[start : start + 1] in b" \t\r\n":
        start += 1
    while end > start and data[end - 1 : end] in b" \t\r\n":
        end -= 1
    return start, end
