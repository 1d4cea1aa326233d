"""Issue #15: a diagnostic's ``codeDescription.href`` opens the rule's documentation in any install.

The pages are package data (``server/lsp/docs``) written from the rule catalogue; these tests show that
each link names a page that exists and says what the catalogue says, that the pages are current, and
(slow) that a wheel built from the tree and installed without ``-e`` carries them (as
``ctlsp/server/lsp/docs``: the wheel installs the one import name ``ctlsp``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from pygls import uris

from extractors.api import NOT_CHECKED, Finding, Location
from server.lsp.diagnostics import to_diagnostic
from server.lsp.rule_docs import PAGES, builtin_rules, page, pages, rule_href, write_pages
from server.lsp.witness import hover_markdown
from tests.server.lsp_helpers import REPO


def target(href: str) -> Path:
    assert href.startswith("file://") and "#" not in href
    return Path(uris.to_fs_path(href) or "")


def test_every_rule_links_to_its_own_page_on_disk() -> None:
    for rule in builtin_rules():
        href = rule_href(rule.id)
        assert href is not None, rule.id
        text = target(href).read_text(encoding="utf-8")
        assert text.startswith(f"# ctlsp rule `{rule.id}`")
        assert rule.doc and rule.doc in text and rule.formula in text
        assert f"CWE-{rule.cwe}" in text if rule.cwe else "CWE" not in text
        assert rule.bad_example.strip() in text and rule.good_example.strip() in text
    note = rule_href(NOT_CHECKED)
    assert note is not None and "could not model it" in target(note).read_text(encoding="utf-8")


def test_the_shipped_pages_say_what_the_catalogue_says(tmp_path: Path) -> None:
    """Editing rules.toml without ``python -m server.lsp.rule_docs`` fails here, not in a user's editor."""
    fresh = {p.name: p.read_text(encoding="utf-8") for p in write_pages(tmp_path)}
    shipped = {p.name: p.read_text(encoding="utf-8") for p in PAGES.iterdir()}
    assert shipped == fresh, "stale rule pages: run python -m server.lsp.rule_docs"
    assert set(fresh) == {page(rule_id).name for rule_id in pages()}


def test_a_rule_without_a_page_has_no_link() -> None:
    """A custom rule of ctlsp.toml: no codeDescription rather than a link to nothing."""
    here = Location("/w/a.c", 0, 0, 0, 4)
    custom = Finding("team-no-gets", "warning", "gets() is banned", here, "f")
    diagnostic = to_diagnostic(custom, lambda path, line: "gets")
    assert rule_href("team-no-gets") is None and diagnostic.code_description is None
    assert "**ctlsp team-no-gets**" in hover_markdown(custom, lambda path, line: "gets")
    leak = Finding("memory-leak", "warning", "leak", here, "f")
    linked = to_diagnostic(leak, lambda path, line: "gets").code_description
    assert linked is not None and target(linked.href) == PAGES / "memory-leak.md"


@pytest.mark.slow
def test_a_non_editable_install_carries_the_pages(tmp_path: Path) -> None:
    """Build the wheel (hatchling, as ``pip install .`` does), install it into a directory of its own
    and ask the installed server where the memory-leak link goes: a page inside that install."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "wheel"), str(REPO)],
        check=True,
        timeout=120,
    )
    (wheel,) = (tmp_path / "wheel").glob("ctlsp-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"ctlsp/server/lsp/docs/{rule_id}.md" for rule_id in pages()} <= set(names)

    installed = tmp_path / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(installed), str(wheel)], check=True, timeout=120)
    probe = (
        "import ctlsp.server.lsp.diagnostics as d, ctlsp.server.lsp.rule_docs as r; "
        "print(d.__file__); print(r.rule_href('memory-leak'))"
    )
    env = {**os.environ, "PYTHONPATH": str(installed)}  # before the editable install's path entry
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=True, timeout=60
    ).stdout.split("\n")
    assert Path(out[0]).is_relative_to(installed)  # the installed copy answered, not the source tree
    doc = target(out[1])
    assert doc.is_relative_to(installed) and doc.read_text(encoding="utf-8").startswith("# ctlsp rule `memory-leak`")


def test_the_readmes_rule_table_says_what_the_catalogue_says() -> None:
    """Each built-in rule's row in the README's table gives the catalogue's severity, CWE and
    formula: editing rules.toml without the README fails here."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for rule in builtin_rules():
        row = re.search(rf"^\| {re.escape(rule.id)}(?: \(opt-in\))? \| (\w+) \| (\d*) \| `(.*)` \|$", readme, re.M)
        assert row is not None, f"no README row for {rule.id}"
        assert row.group(1) == rule.severity and row.group(2) == str(rule.cwe or "")
        assert row.group(3).replace("\\|", "|") == rule.formula, rule.id
