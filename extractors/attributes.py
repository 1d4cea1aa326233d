"""Functions a text declares must-check (``__attribute__((warn_unused_result))``, ``[[nodiscard]]``)
or never-returning (``__attribute__((noreturn))``, ``_Noreturn``), also through macros.

The compiler warns when a must-check result is dropped, so the project has said the result matters;
the ``unchecked-return`` rule then reports a discarded call just as for the library's must-check
rows.  A call to a never-returning function ends its path, as for ``exit``.
Projects spell the attribute through macros (``#define MUST_CHECK __attribute__((warn_unused_result))``,
glibc's ``__wur``), often defined in one header and used in another, so a text yields its *markers*
(the attribute words and the macros that expand to one, to a fixpoint) and the names declared with
any marker it is given (its own and those of the headers around it).

A scan of the text, not a parse: headers are read by the include run as text only, and declarations
are simple enough: the name is the first identifier followed by ``(`` once attribute groups and
markers are taken out.  Invariant: a text without any marker word costs one substring search.
"""

from __future__ import annotations

import re

ATTRIBUTES = frozenset({"warn_unused_result", "__warn_unused_result__", "nodiscard", "__nodiscard__"})
NORETURN_ATTRIBUTES = frozenset({"noreturn", "__noreturn__", "_Noreturn"})
KINDS = {"must_check": ATTRIBUTES, "noreturn": NORETURN_ATTRIBUTES}  # what a query asks for, by name

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$", re.MULTILINE)
_DIRECTIVE = re.compile(r"^[ \t]*#[^\n]*$", re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_]\w*")
_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")
_NOT_NAMES = frozenset(
    {"__attribute__", "__attribute", "__declspec", "_Pragma", "__typeof__", "typeof", "sizeof", "_Alignas"}
)
_KEYWORDS = frozenset(
    {
        "void",
        "char",
        "short",
        "int",
        "long",
        "float",
        "double",
        "signed",
        "unsigned",
        "_Bool",
        "bool",
        "const",
        "volatile",
        "static",
        "extern",
        "inline",
        "__inline",
        "__inline__",
        "typedef",
        "struct",
        "union",
        "enum",
        "register",
        "restrict",
        "__restrict",
    }
)


def _clean(text: str) -> str:
    """Comments out, continuation lines joined (a #define's body stays on its line)."""
    return _COMMENT.sub(" ", text.replace("\\\n", " "))


DefineBodies = tuple[tuple[str, frozenset[str]], ...]  # per #define of a text: its name, its body's words


def define_bodies(text: str) -> DefineBodies:
    """Every ``#define`` of ``text`` with the words of its body (what :func:`markers` reads)."""
    if "define" not in text:
        return ()
    return tuple((m.group(1), frozenset(_WORD.findall(m.group(3)))) for m in _DEFINE.finditer(_clean(text)))


def markers(text: str, known: frozenset[str] = frozenset(), words: frozenset[str] = ATTRIBUTES) -> frozenset[str]:
    """The macros ``text`` defines to spell one of the attribute ``words`` (directly or through
    other markers, those of ``known`` included), plus ``known`` and ``words`` themselves."""
    found = set(known) | words
    if not any(w in text for w in found):
        return frozenset(found)
    return markers_of(define_bodies(text), known, words)


def markers_of(bodies: DefineBodies, known: frozenset[str], words: frozenset[str]) -> frozenset[str]:
    """:func:`markers` of a text whose defines are ``bodies``."""
    found = set(known) | words
    changed = True
    while changed:
        changed = False
        for name, body in bodies:
            if name not in found and not body.isdisjoint(found):
                found.add(name)
                changed = True
    return frozenset(found)


def _strip_groups(head: str, marks: frozenset[str]) -> str:
    """``head`` without ``__attribute__((...))``, ``[[...]]`` and marker macros (with arguments)."""
    out: list[str] = []
    i = 0
    while i < len(head):
        if head.startswith("[[", i):
            j = head.find("]]", i)
            i = len(head) if j < 0 else j + 2
            continue
        m = _WORD.match(head, i)
        if m is None:
            out.append(head[i])
            i += 1
            continue
        word, i = m.group(0), m.end()
        if word in marks or word in _NOT_NAMES:
            rest = len(head[i:]) - len(head[i:].lstrip())
            if head.startswith("(", i + rest):  # skip the balanced argument list
                depth, k = 0, i + rest
                while k < len(head):
                    depth += {"(": 1, ")": -1}.get(head[k], 0)
                    k += 1
                    if depth == 0:
                        break
                i = k
            out.append(" ")
            continue
        out.append(word)
    return "".join(out)


def declared_with(text: str, marks: frozenset[str]) -> frozenset[str]:
    """Functions ``text`` declares (or defines) with one of ``marks`` in the declaration's head."""
    if not any(w in text for w in marks):
        return frozenset()
    code = _DIRECTIVE.sub(" ", _clean(text))
    code = re.sub(r'extern\s*"C"\s*\{', " ", code)
    found: set[str] = set()
    depth, start = 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                found |= _declared(code[start:i], marks)
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            found |= _declared(code[start:i], marks)
            start = i + 1
    return frozenset(found)


def _declared(head: str, marks: frozenset[str]) -> frozenset[str]:
    if not set(_WORD.findall(head)) & marks:
        return frozenset()
    for m in _CALLED.finditer(_strip_groups(head, marks)):
        if m.group(1) not in _KEYWORDS:  # int (*fp)(void): no function declared by name
            return frozenset({m.group(1)})
    return frozenset()
