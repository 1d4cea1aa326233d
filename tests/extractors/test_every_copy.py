"""A dead store is a statement whose value no run reads: a copy of it that flag pruning made for
one value of a flag does not make it dead when another copy's value is read."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdio.h>\n"


def dead(src: str) -> list[tuple[str, int]]:
    return sorted((f.function, f.location.start_line) for f in of_rule(check_src(src), "dead-store"))


def test_store_read_only_when_a_flag_parameter_is_set() -> None:
    src = HEADER + """
void print_items(const char **items, int n, int fill_gaps) {
    const char *prev = "";
    for (int i = 0; i < n; i++) {
        const char *cur = items[i];
        if (fill_gaps && cur == NULL)
            cur = prev;
        puts(cur != NULL ? cur : "");
        prev = cur;
    }
}
int tail(int full, int a, int b) {
    int seen = a;
    if (full)
        return b;
    return seen;
}
"""
    assert dead(src) == []


def test_store_dead_at_every_copy_is_still_reported() -> None:
    src = HEADER + """
void print_items(const char **items, int n, int fill_gaps) {
    const char *prev = "";
    for (int i = 0; i < n; i++) {
        const char *cur = prev;   /*D*/
        cur = items[i];
        if (fill_gaps && cur == NULL)
            cur = prev;
        puts(cur != NULL ? cur : "");
        prev = cur;
    }
}
int flag(int full, int a, int b) {
    int seen = a;                 /*F*/
    if (full)
        seen = b;
    else
        seen = a + b;
    if (full)
        return seen;
    return 0;
}
"""
    assert dead(src) == [("flag", line_of(src, "/*F*/")), ("print_items", line_of(src, "/*D*/"))]
