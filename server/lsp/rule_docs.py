"""One documentation page per built-in rule, shipped inside the package: what a diagnostic's
``codeDescription.href`` (and the rule link of a hover) opens.

The link has to open in every install, ``pip install .`` included, where the repository and its
README are not on disk; so the pages are package data next to this module (``docs/<rule>.md``),
written from the rule catalogue (``extractors/rules.toml``: doc, examples, CWE, formula) by
``python -m server.lsp.rule_docs``. A test fails while a page differs from what the catalogue says,
and another builds the wheel to show that the pages are in it. A custom rule of ``ctlsp.toml`` has
no page, so its diagnostics carry no link rather than one to nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pygls import uris

from extractors.api import NOT_CHECKED, Rule, catalogue

PAGES = Path(__file__).resolve().with_name("docs")
SUFFIX = ".md"


def builtin_rules() -> list[Rule]:
    return catalogue(None, include_disabled=True)  # no configuration: the built-in rules only


def _code_block(code: str) -> list[str]:
    fence = "````" if "```" in code else "```"
    return [f"{fence}c", code.strip("\n"), fence]


def render(rule: Rule) -> str:
    """The page of ``rule``, in Markdown (an editor opens it as text, and previews it if asked)."""
    out = [f"# ctlsp rule `{rule.id}`", ""]
    facts = [f"Default severity: **{rule.severity}**"]
    if rule.cwe:
        facts.append(f"[CWE-{rule.cwe}](https://cwe.mitre.org/data/definitions/{rule.cwe}.html)")
    out += [" · ".join(facts), "", rule.doc or rule.message.replace("{var}", "x"), ""]
    if rule.bad_example:
        out += ["## Example of the bug", "", *_code_block(rule.bad_example), ""]
    if rule.good_example:
        out += ["## Correct", "", *_code_block(rule.good_example), ""]
    out += [
        "## How ctlsp finds it",
        "",
        "A finding is a path of the program, shown step by step with the diagnostic, on which this",
        "CTL formula over the events of one tracked value holds:",
        "",
        f"    {rule.formula}",
        "",
        "## Silencing it",
        "",
        f"One finding: `// ctlsp-ignore[{rule.id}]` on its line or the line before.",
        "The whole rule, in `ctlsp.toml` (or under `[tool.ctlsp]` in `pyproject.toml`):",
        "",
        f"    [rules.{rule.id}]",
        "    enabled = false",
        "",
    ]
    return "\n".join(out)


def render_not_checked() -> str:
    """The page of the ``not-checked`` note, which is no rule but is shown as a diagnostic too."""
    return "\n".join(
        [
            f"# ctlsp note `{NOT_CHECKED}`",
            "",
            "Not a rule: the function was not checked because ctlsp could not model it (its code nests",
            "deeper than the front end can follow, thousands of levels of blocks or parentheses). Nothing",
            "is reported inside it, whatever it contains. Long `else if` chains are modelled.",
            "",
        ]
    )


def pages() -> dict[str, str]:
    """Every page by its rule id: the built-in rules and the ``not-checked`` note."""
    return {**{rule.id: render(rule) for rule in builtin_rules()}, NOT_CHECKED: render_not_checked()}


def page(rule_id: str, directory: Path = PAGES) -> Path:
    return directory / f"{rule_id}{SUFFIX}"


@cache
def _shipped() -> frozenset[str]:
    """Rule ids with a page on disk (read once: the package's files do not change under it)."""
    try:
        return frozenset(p.name[: -len(SUFFIX)] for p in PAGES.iterdir() if p.name.endswith(SUFFIX))
    except OSError:
        return frozenset()


def rule_href(rule_id: str) -> str | None:
    """The ``file:`` URI of the rule's page, or None for a rule without one (a custom rule)."""
    if rule_id not in _shipped():
        return None
    path = page(rule_id)
    return uris.from_fs_path(str(path)) or path.as_uri()


def write_pages(directory: Path = PAGES) -> list[Path]:
    """Write every built-in rule's page into ``directory`` and remove pages of rules that are gone."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for rule_id, text in pages().items():
        target = page(rule_id, directory)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    wanted = {p.name for p in written}
    for old in directory.glob(f"*{SUFFIX}"):
        if old.name not in wanted:
            old.unlink()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m server.lsp.rule_docs [DIRECTORY]``: regenerate the pages after editing rules.toml."""
    args = list(sys.argv[1:] if argv is None else argv)
    directory = Path(args[0]) if args else PAGES
    for path in write_pages(directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
