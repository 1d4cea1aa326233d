"""Arguments taken only when the call succeeds (``escape`` + ``kept_on_failure``): fdopen owns the
descriptor past a not-NULL test of its result; where it failed the descriptor is still the
caller's, and leaks if nothing closes it."""

from __future__ import annotations

from extractors.calls import BUILTIN
from extractors.conditional_takes import conditional_positions
from extractors.config import config_from_text
from tests.extractors.helpers import cfg_of, check_src, line_of, node_id, of_rule

HEADER = "#include <fcntl.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"


def found(src: str, rule: str = "resource-leak", cfg_text: str = "") -> list[tuple[str, int]]:
    got = check_src(src, config_from_text(cfg_text)) if cfg_text else check_src(src)
    return sorted((f.function, f.location.start_line) for f in of_rule(got, rule))


def test_the_library_marks_fdopen_and_not_free() -> None:
    assert conditional_positions(BUILTIN["fdopen"]) == (0,)
    assert conditional_positions(BUILTIN["fdopendir"]) == (0,)
    assert conditional_positions(BUILTIN["free"]) == ()


def test_failed_fdopen_leaks_the_descriptor() -> None:
    src = HEADER + """
FILE *out(const char *path) {
    int fd = open(path, O_WRONLY);   /*O*/
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (f == NULL)
        return NULL;
    return f;
}
"""
    assert found(src) == [("out", line_of(src, "/*O*/"))]


def test_descriptor_closed_where_fdopen_failed_is_fine() -> None:
    src = HEADER + """
FILE *out(const char *path) {
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return NULL;
    FILE *f;
    if ((f = fdopen(fd, "w")) == NULL) {
        close(fd);
        return NULL;
    }
    return f;
}
FILE *copy(const char *path) {
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return NULL;
    int d = fd;
    FILE *f = fdopen(d, "w");
    if (!f) {
        close(fd);
        return NULL;
    }
    return f;
}
"""
    assert found(src) == []


def test_test_in_the_condition_itself() -> None:
    src = HEADER + """
FILE *out(const char *path) {
    int fd = open(path, O_WRONLY);   /*O*/
    FILE *f;
    if (fd < 0)
        return NULL;
    if (!(f = fdopen(fd, "w")))
        return NULL;
    return f;
}
"""
    assert found(src) == [("out", line_of(src, "/*O*/"))]


def test_an_untested_result_keeps_the_escape_at_the_call() -> None:
    """No test says where the call failed, so the descriptor is taken at the call (as before)."""
    src = HEADER + """
FILE *out(int fd) { FILE *f = fdopen(fd, "w"); return f; }
FILE *out2(const char *path) {
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (path[0] == '-')
        return f;             /* not tested on this path */
    if (f == NULL)
        return NULL;
    return f;
}
"""
    assert found(src) == []
    cfg = cfg_of(src, "out2")
    assert all(not n.takes for n in cfg.nodes)
    call = next(c for n in cfg.nodes for c in n.calls if c.name == "fdopen")
    assert call.deferred == ()


def test_the_test_node_takes_the_argument() -> None:
    src = HEADER + 'FILE *g(int fd) { FILE *f = fdopen(fd, "w"); if (f == NULL) return NULL; return f; }\n'
    cfg = cfg_of(src)
    assert cfg.nodes[node_id(cfg, "f == NULL")].takes == ("fd",)
    call = next(c for n in cfg.nodes for c in n.calls if c.name == "fdopen")
    assert call.deferred == (0,)


def test_realloc_into_another_local_keeps_the_old_block_on_failure() -> None:
    bad = HEADER + """
int grow(size_t n) {
    char *p = malloc(n);            /*M*/
    if (p == NULL)
        return -1;
    char *q = realloc(p, 2 * n);
    if (q == NULL)
        return -1;
    free(q);
    return 0;
}
"""
    fixed = "if (q == NULL) {\n        free(p);\n        return -1;\n    }"
    good = bad.replace("if (q == NULL)\n        return -1;", fixed)
    assert found(bad, "memory-leak") == [("grow", line_of(bad, "/*M*/"))]
    assert found(good, "memory-leak") == []


def test_a_users_row_can_say_so_too() -> None:
    src = HEADER + """
struct conn;
struct conn *conn_wrap(int fd);
struct conn *dial(const char *path) {
    int fd = open(path, O_RDWR);   /*O*/
    if (fd < 0)
        return NULL;
    struct conn *c = conn_wrap(fd);
    if (c == NULL)
        return NULL;
    return c;
}
"""
    row = '[library.conn_wrap]\nreturns = "open"\nargs = ["escape"]\n'
    assert found(src, cfg_text=row) == []
    assert found(src, cfg_text=row + "kept_on_failure = [0]\n") == [("dial", line_of(src, "/*O*/"))]



def test_a_result_stored_in_a_field() -> None:
    src = HEADER + """
struct out { FILE *fp; };
int open_out(const char *path, struct out *o) {
    int fd = open(path, O_WRONLY);   /*O*/
    if (fd < 0)
        return 0;
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        return 0;
    }
    return 1;
}
int open_late(const char *path, struct out *o) {
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return 0;
    o->fp = fdopen(fd, "wb");
    fflush(stderr);                  /* a call before the test may store o->fp through another name */
    if (!o->fp)
        return 0;
    return 1;
}
"""
    assert found(src) == [("open_out", line_of(src, "/*O*/"))]
