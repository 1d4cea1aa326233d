"""Changing only the rules (turning one on or off, its severity, a custom rule) keeps the project:
no function is extracted again, and only the rules that are new or changed are model-checked;
the findings are those a fresh project with the new configuration gives."""

from __future__ import annotations

from extractors.api import Project
from extractors.config import Config, config_from_text

SOURCES = {
    "/w/a.c": """#include <stdlib.h>
#include <string.h>
int leak(int n) {
    char *p = malloc(n);
    if (n > 3)
        return 1;
    free(p);
    return 0;
}
int twice(int n) {
    char *q = malloc(n);
    free(q);
    if (n)
        free(q);
    return n;
}
""",
    "/w/b.c": """#include <stdlib.h>
void copy(char *dst, const char *src) {
    int unused_len = 0;
    strcpy(dst, src);
}
int helper(char *p) { free(p); return 0; }
""",
}


def checked(config: Config, project: Project | None = None) -> tuple[Project, dict[str, list[tuple[str, int, str]]]]:
    if project is None:
        project = Project(config)
        for path, text in SOURCES.items():
            project.update_file(path, text)
    found = project.check(sorted(SOURCES))
    return project, {
        p: sorted((f.rule_id, f.location.start_line, f.severity) for f in fs) for p, fs in found.items()
    }


def rule_ids(found: dict[str, list[tuple[str, int, str]]]) -> set[str]:
    return {r for fs in found.values() for r, _, _ in fs}


def test_turning_a_rule_off_and_on_checks_nothing_again() -> None:
    project, before = checked(Config())
    assert {"memory-leak", "double-free"} <= rule_ids(before)
    counts = dict(project.counters)
    off = config_from_text("[rules.memory-leak]\nenabled = false\n")
    assert project.reconfigure(off)
    _, now = checked(off, project)
    assert now == checked(off)[1] and "memory-leak" not in rule_ids(now)
    after = project.counters
    assert after["functions_extracted"] == counts["functions_extracted"]
    for counter in ("checks_run", "checks_reused", "models_built"):  # every other rule's results were kept
        assert after[counter] == counts[counter], counter
    assert project.reconfigure(Config())
    _, again = checked(Config(), project)
    assert again == before and project.counters["models_built"] == counts["models_built"]


def test_a_new_custom_rule_is_the_only_rule_checked() -> None:
    project, before = checked(Config())
    counts = dict(project.counters)
    custom = config_from_text(
        '[[rules.custom]]\nid = "no-free-of-param"\nformula = "E F free"\nmessage = "frees {var}"\nseverity = "info"\n'
        "[rules.double-free]\nseverity = \"info\"\n"
    )
    assert project.reconfigure(custom)
    _, now = checked(custom, project)
    assert now == checked(custom)[1]
    assert "no-free-of-param" in rule_ids(now) and ("double-free", 13, "info") in [
        (r, line, s) for fs in now.values() for r, line, s in fs
    ]
    ran = project.counters["checks_run"] - counts["checks_run"]
    assert 0 < ran <= sum(1 for fs in now.values() for r, _, _ in fs if r in ("no-free-of-param", "double-free")) + 4
    assert project.counters["functions_extracted"] == counts["functions_extracted"]


def test_a_change_to_what_is_extracted_needs_a_new_project() -> None:
    project, _ = checked(Config())
    assert not project.reconfigure(config_from_text('[extract]\ndeallocators = ["helper"]\n'))
