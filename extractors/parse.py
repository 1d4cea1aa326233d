"""The tree-sitter-c parser, plus small helpers to read syntax nodes.

Every part of ctlsp parses C the same way (the language server re-parses incrementally with the
old tree), so parsing lives here once.  A tree-sitter parser must never run in two threads at once
(the language server checks each workspace folder on a thread of its own), so each thread has its
parser.  Helpers never raise on odd trees: half-typed code gives ERROR nodes, and readers skip what
they cannot interpret.
"""

from __future__ import annotations

import threading

import tree_sitter
import tree_sitter_c

LANGUAGE = tree_sitter.Language(tree_sitter_c.language())
_LOCAL = threading.local()


def _parser() -> tree_sitter.Parser:
    parser: tree_sitter.Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = _LOCAL.parser = tree_sitter.Parser(LANGUAGE)
    return parser


def parse_c(text: str | bytes, old_tree: tree_sitter.Tree | None = None) -> tree_sitter.Tree:
    """Parse C text; pass ``old_tree`` (already edited with ``Tree.edit``) to parse incrementally."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if old_tree is not None:
        return _parser().parse(data, old_tree)
    return _parser().parse(data)


def text_of(node: tree_sitter.Node | None) -> str:
    if node is None:
        return ""
    data = node.text  # a new slice of the source at each read
    return "" if data is None else data.decode("utf-8", "replace")


def strip_parens(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The expression inside any number of parentheses (and casts, which do not change the value)."""
    while node is not None and node.type in ("parenthesized_expression", "cast_expression"):
        if node.type == "cast_expression":
            node = node.child_by_field_name("value")
        else:
            inner = [c for c in node.named_children if c.type != "comment"]
            node = inner[0] if inner else None
    return node


def short(text: str, limit: int = 60) -> str:
    """One-line, bounded rendering of source text for messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
