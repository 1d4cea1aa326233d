"""A dead store is one the programmer can remove: dead in every configuration of the preprocessor
conditionals the defines leave open, not only in some.  A store a ``#ifndef FAST`` block reads is
needed in the build without ``FAST``; it is reported only when the defines pick the arm without
the read (zlib 1.2.11 ``slide_hash``: ``n = wsize;`` then ``#ifndef FASTEST ... s->prev[n] ...``;
``_tr_flush_block``: the read of ``opt_lenb`` is in the ``#else`` arm of a conditional that splits
the head of an ``if``)."""

from __future__ import annotations

from extractors.config import config_from_text
from tests.extractors.helpers import check_src, line_of, of_rule


def dead_lines(src: str, defines: str = "") -> list[int]:
    config = config_from_text(f"[preprocessor]\ndefines = [{defines}]\n") if defines else None
    return sorted(f.location.start_line for f in of_rule(check_src(src, config), "dead-store"))


# the conditional after the store is whole statements: the function parses as written
WHOLE = """
int use(int);
int f(int w) {
    int n;
    n = w; /*S*/
#ifndef FAST
    use(n);
#endif
    return 0;
}
"""

# the same store in a function that is read per variant: a later conditional splits an if's head
SPLIT = """
int use(int);
int f(int a, int w) {
    int n;
    n = w; /*S*/
#ifndef FAST
    use(n);
#endif
#ifdef NARROW
    if (a) {
#else
    if (a > 1) {
#endif
        use(a);
    }
    return 0;
}
"""

# zlib's _tr_flush_block: the read is in one arm of the conditional that splits the if's head
HEAD = """
void stored(int);
void other(int);
void flush(int buf, int len, int lenb) {
    int opt;
    opt = lenb + len + 5; /*S*/
#ifdef FORCE_STORED
    if (buf != 0) {
#else
    if (len + 4 <= opt && buf != 0) {
#endif
        stored(len);
    } else {
        other(len);
    }
}
"""


def test_a_store_read_in_an_open_arm_is_not_dead() -> None:
    assert dead_lines(WHOLE) == []
    assert dead_lines(SPLIT) == []


def test_a_store_read_in_an_open_arm_of_a_split_if_head_is_not_dead() -> None:
    assert dead_lines(HEAD) == []


def test_a_define_that_picks_the_arm_without_the_read_makes_it_dead() -> None:
    assert dead_lines(WHOLE, '"FAST"') == [line_of(WHOLE, "/*S*/")]
    assert dead_lines(SPLIT, '"FAST"') == [line_of(SPLIT, "/*S*/")]
    assert dead_lines(HEAD, '"FORCE_STORED"') == [line_of(HEAD, "/*S*/")]


def test_a_store_dead_in_every_arm_is_dead() -> None:
    both = SPLIT.replace("    use(n);\n#endif", "    n = 1;\n#else\n    n = 2;\n#endif\n    use(n);")
    assert dead_lines(both) == [line_of(both, "/*S*/")]
    assert dead_lines(HEAD.replace("len + 4 <= opt", "len + 4 <= 9")) == [line_of(HEAD, "/*S*/")]
