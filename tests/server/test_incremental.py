"""Incremental checking through the server: an edit in one of 200 functions re-checks only it and its callers.

The server logs the work counters of every check (window/logMessage); the expected amount of work is
measured here with the extractors API on just the edited function and its caller, not hard-coded.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from extractors.api import NOT_CHECKED, Project
from tests.server.lsp_helpers import checker_pids, codes, diagnostics, edit, line_of, open_doc, start, until

PAIRS = 100  # 200 functions: helper_k frees its argument, user_k allocates and calls helper_k


def helper(k: int) -> str:
    return f"void helper_{k}(char *p, int n)\n{{\n    if (n > {k})\n        p[0] = 0;\n    free(p);\n}}\n"


def user(k: int) -> str:
    return (
        f"int user_{k}(int n)\n{{\n    char *p = malloc(n + {k});\n    if (!p)\n        return -1;\n"
        f"    helper_{k}(p, n);\n    return 0;\n}}\n"
    )


def source() -> str:
    parts = ["#include <stdlib.h>\n"]
    for k in range(PAIRS):
        parts += [helper(k), user(k)]
    return "\n".join(parts)


def counters_for(client: LanguageClient, version: int) -> dict[str, int]:
    for message in client.log_messages:
        if f"checked big.c v{version}:" in message.message:
            return dict(json.loads(message.message.split(" counters ", 1)[1]))
    return {}


async def opened_without_debounce(client: LanguageClient, tmp_path: Path) -> tuple[str, Path, str]:
    """:func:`source` as ``big.c``, opened in a server that checks every edit at once, after its
    first check: the text, its path and its URI."""
    text = source()
    path = tmp_path / "big.c"
    path.write_text(text)
    await start(client, tmp_path, settings={"debounceMs": 0})
    uri = open_doc(client, path)
    await until(lambda: counters_for(client, 1), "the first check's counters")
    return text, path, uri


async def test_one_line_edit_rechecks_only_the_edited_function_and_its_caller(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = source()
    path = tmp_path / "big.c"
    path.write_text(text)
    await start(client, tmp_path)
    uri = open_doc(client, path)
    first = await until(lambda: counters_for(client, 1), "the first check's counters")
    assert first["functions_extracted"] + first["functions_reused"] == 2 * PAIRS

    # Work an isolated check of the two affected functions needs, before and after the edit.
    target = line_of(text, "void helper_7(") + 4  # the "free(p);" line of helper_7
    assert text.splitlines()[target].strip() == "free(p);"
    alone = Project()
    edited_helper = helper(7).replace("free(p);\n", "free(p);\n    p[0] = 1;\n")
    alone.update_file("pair.c", "#include <stdlib.h>\n" + edited_helper + user(7))
    alone.check(["pair.c"], interprocedural=False)
    pair_checks = alone.counters["checks_run"]

    edit(client, uri, 2, (target + 1, 0, target + 1, 0), "    p[0] = 1;\n")
    await diagnostics(client, uri, lambda ds: "use-after-free" in codes(ds), "the new use-after-free")
    after = await until(lambda: counters_for(client, 2), "the edit's counters")
    found = client.diagnostics[uri]  # the check's: logged after it is published (helper_7's came first)
    assert after["functions_extracted"] == 1  # helper_7 only; the other 199 are reused
    assert after["functions_reused"] == 2 * PAIRS - 1
    # Model checks actually run: at most those of helper_7 and user_7 alone, out of hundreds of
    # verdicts in the file (its 100 pairs have one shape: most of the first check's are reused, or
    # ruled out by the bound without a model check).
    verdicts = first["checks_run"] + first["checks_reused"] + first["checks_bounded"]
    assert 0 < after["checks_run"] <= pair_checks < verdicts // 10
    log = next(m.message for m in client.log_messages if "checked big.c v2:" in m.message)
    assert "changed functions: helper_7;" in log
    uaf = [d for d in found if d.code == "use-after-free"]
    # In helper_7 itself and, through the box into helper_7, in its caller user_7 (one line lower now).
    assert [d.range.start.line for d in uaf] == [target + 1, line_of(text, "    helper_7(p, n);") + 1]
    assert all(d.severity == types.DiagnosticSeverity.Error for d in uaf)


async def test_an_edit_callers_cannot_tell_apart_runs_no_model_check(client: LanguageClient, tmp_path: Path) -> None:
    """Early cutoff: a second dereference right after a first one changes ``helper_7``'s model, but
    not the model any rule checks (a row of uses is one use to every rule), so neither ``helper_7``
    nor its caller runs a model check, and the findings stay. The first use comes after the free,
    so that its verdict is a model check (the bound cannot rule out a finding)."""
    text = source()
    path = tmp_path / "big.c"
    path.write_text(text)
    await start(client, tmp_path)
    uri = open_doc(client, path)
    await until(lambda: counters_for(client, 1), "the first check's counters")
    freed = line_of(text, "void helper_7(") + 4  # the "free(p);" line of helper_7
    edit(client, uri, 2, (freed + 1, 0, freed + 1, 0), "    p[0] = 1;\n")
    second = await until(lambda: counters_for(client, 2), "the first edit's counters")
    assert second["checks_run"] > 0  # a use after the free is something to check
    before = await diagnostics(client, uri, lambda ds: "use-after-free" in codes(ds), "the first edit's diagnostics")

    row = freed + 2
    edit(client, uri, 3, (row, 0, row, 0), "    p[1] = 1;\n")
    third = await until(lambda: counters_for(client, 3), "the second edit's counters")
    assert third["functions_extracted"] == 1  # helper_7 was rebuilt ...
    assert third["models_built"] > 0  # ... and its models and its caller's looked at again ...
    assert third["checks_run"] == 0 and third["checks_reused"] > 0  # ... but every verdict was known
    after = await diagnostics(client, uri, lambda ds: True, "the second edit's diagnostics")
    shifted = [(d.code, d.range.start.line - (d.range.start.line > row)) for d in after]
    assert shifted == [(d.code, d.range.start.line) for d in before]


@pytest.mark.slow
async def test_an_edit_stops_the_running_check_which_publishes_nothing(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A keystroke during a long check stops it at its next function (the project's database
    cancels the read when the new text is set) instead of letting it run to the end: the stopped
    check publishes nothing and logs that it stopped; the new text's check publishes."""
    pairs = 1500  # a check of some seconds: the edit surely lands while it runs
    text = "#include <stdlib.h>\n" + "\n".join(helper(k) + "\n" + user(k) for k in range(pairs))
    path = tmp_path / "big.c"
    path.write_text(text)
    await start(client, tmp_path, settings={"debounceMs": 0, "partialResultsMs": 600_000})
    uri = open_doc(client, path)
    await until(lambda: checker_pids(client), "the checker process")  # it checks from now on
    await asyncio.sleep(1.0)  # the check of v1 is under way (it takes several seconds)
    target = line_of(text, "void helper_7(") + 4
    edit(client, uri, 2, (target + 1, 0, target + 1, 0), "    p[0] = 1;\n")
    await until(lambda: counters_for(client, 2), "the edit's check")
    assert any("check of big.c v1 stopped: the text changed" in m.message for m in client.log_messages)
    # the first check never finished, so it published nothing (partial results are off here):
    # the server publishes a check's findings just before it logs its counters
    assert not counters_for(client, 1)


async def test_quick_edits_one_after_another_are_each_checked(client: LanguageClient, tmp_path: Path) -> None:
    """Edits sent as soon as the last one's diagnostics arrive (no debounce), some of them made while
    the check of the text before still runs: every version is checked and published. A text set
    again unchanged (the worker hands the project the text the edit thread already set) must not
    wait on the database as a write would."""
    text, path, uri = await opened_without_debounce(client, tmp_path)
    lines = text.split("\n")
    targets = [i for i, line in enumerate(lines) if line.strip() == "p[0] = 0;"]
    for version in range(2, 22):
        line = targets[(version * 7) % len(targets)]
        old = lines[line]
        lines[line] = f"        p[0] = {version};" if version % 2 else "        (void)0;"
        edit(client, uri, version, (line, 0, line, len(old)), lines[line])
        await until(lambda v=version: counters_for(client, v), f"the counters of version {version}", timeout=60)


def random_edit(rng: random.Random, text: str) -> tuple[tuple[int, int, int, int], str, str]:
    """An edit as an editor sends it: a range of up to three lines replaced by a snippet (non-ASCII
    text among them, whose code points are UTF-16 units too), and the text it makes."""
    lines = text.split("\n")
    sl = rng.randrange(len(lines))
    el = min(len(lines) - 1, sl + rng.choice([0, 0, 0, 1, 2]))
    sc = rng.randint(0, len(lines[sl]))
    ec = rng.randint(0, len(lines[el])) if el > sl else rng.randint(sc, len(lines[el]))
    snippet = rng.choice(["", "\n", "/* é */", "    free(p);\n", "    p[0] = 1;\n", "x", "}\n"])
    start = sum(len(line) + 1 for line in lines[:sl]) + sc
    end = sum(len(line) + 1 for line in lines[:el]) + ec
    return (sl, sc, el, ec), snippet, text[:start] + snippet + text[end:]


@pytest.mark.slow
async def test_after_random_edits_the_findings_are_those_of_the_editor_s_text(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Edits cross the pipe to the checker process as the span they changed (``text_splice``), many
    of them while the check of the text before still runs: after a random sequence (insertions,
    deletions across lines, non-ASCII text), the findings published are those a fresh check of the
    editor's text gives, line for line."""
    rng = random.Random(34)
    text, path, uri = await opened_without_debounce(client, tmp_path)
    last = 40
    for version in range(2, last + 1):
        rng_range, snippet, text = random_edit(rng, text)
        edit(client, uri, version, rng_range, snippet)
        if version % 8 == 0:  # now and then the check of a version runs to its end
            await until(lambda v=version: counters_for(client, v), f"the counters of version {version}")
    await until(lambda: counters_for(client, last), "the last version's counters")
    fresh = Project()
    fresh.update_file(str(path), text)
    found = fresh.check([str(path)])[str(path)]
    expected = sorted(
        [(f.rule_id, f.location.start_line, f.message) for f in found]
        + [(NOT_CHECKED, u.location.start_line, u.message) for u in fresh.unmodelled(str(path))]
    )
    published = sorted((str(d.code), d.range.start.line, d.message) for d in client.diagnostics.get(uri, []))
    assert published == expected
    assert len({rule for rule, _, _ in expected}) > 2  # the edits made findings of several kinds
