"""Shared helpers: build CFGs and findings from C snippets, and find lines by marker comments."""

from __future__ import annotations

from extractors.api import Finding, Project
from extractors.calls import BUILTIN
from extractors.cfg import Cfg
from extractors.config import Config
from extractors.functions import build_function, file_constants, function_name, top_level_items
from extractors.parse import parse_c


def cfg_of(src: str, name: str | None = None) -> Cfg:
    tree = parse_c(src)
    items = top_level_items(tree.root_node)
    fns = [n for n in items if n.type == "function_definition"]
    consts = file_constants(items)[0]
    for fn in fns:
        if name is None or function_name(fn) == name:
            model = build_function(fn, "t.c", src.encode().split(b"\n"), BUILTIN, consts, "k")
            assert model is not None
            return model.cfg
    raise AssertionError(f"no function {name}")


def node_id(cfg: Cfg, text: str, kind: str | None = None) -> int:
    hits = [n.id for n in cfg.nodes if n.text == text and (kind is None or n.kind == kind)]
    assert len(hits) == 1, f"{text!r}: {hits} in {[(n.id, n.kind, n.text) for n in cfg.nodes]}"
    return hits[0]


def succ_texts(
    cfg: Cfg, text: str, kind: str | None = None, *, skip_joins: bool = True
) -> set[tuple[str, object]]:
    """Texts of the statement/condition successors of a node (following join/label/case nodes)."""
    out: set[tuple[str, object]] = set()
    start = node_id(cfg, text, kind)
    for t, br in cfg.succ[start]:
        stack, seen = [t], set()
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            n = cfg.nodes[x]
            if skip_joins and n.kind in ("join", "label", "case", "goto") and x != start:
                stack.extend(cfg.successors(x))
                continue
            out.add(("<exit>" if n.kind == "exit" else n.text, br))
    return out


def line_of(src: str, marker: str) -> int:
    """0-based line of the line containing ``marker`` (markers are comments like ``/*A*/``)."""
    hits = [i for i, line in enumerate(src.splitlines()) if marker in line]
    assert len(hits) == 1, f"marker {marker!r} found {len(hits)} times"
    return hits[0]


def check_src(
    src: str, config: Config | None = None, path: str = "t.c", interprocedural: bool = True
) -> list[Finding]:
    p = Project(config)
    p.update_file(path, src)
    return p.check(interprocedural=interprocedural)[path]


def of_rule(findings: list[Finding], rule: str) -> list[Finding]:
    return [f for f in findings if f.rule_id == rule]
