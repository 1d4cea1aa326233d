"""Loops bounded by ``sizeof``: a ``sizeof`` (and an array's element count ``sizeof a / sizeof
a[0]``) is at least 1, so a counter starting at 0 passes its first test and the loop runs at least
once (``extractors.cfg.POSITIVE``); a counter that C converts to a huge unsigned value decides
nothing."""

from __future__ import annotations

from pathlib import Path

from extractors.api import Project
from extractors.config import Config
from server.workspace import load_headers
from tests.extractors.helpers import check_src, line_of, of_rule

ELEMENT_COUNT = """\
static const int weights[] = { 3, 5, 7 };

int heaviest(void)
{
    unsigned i;
    int best;
    for (i = 0; i < sizeof weights / sizeof *weights; i++) {
        if (i == 0 || weights[i] > best)
            best = weights[i];
    }
    return best; /*R*/
}
"""


def _reads(src: str) -> list[int]:
    return [f.location.start_line for f in of_rule(check_src(src), "uninitialised-read")]


def test_a_loop_over_an_arrays_element_count_runs_at_least_once() -> None:
    assert _reads(ELEMENT_COUNT) == []
    cast = "(int)(sizeof(weights) / sizeof(weights[0]))"
    assert _reads(ELEMENT_COUNT.replace("sizeof weights / sizeof *weights", cast)) == []


def test_a_loop_bounded_by_a_count_that_may_be_zero_still_reads_unset() -> None:
    may_skip = ELEMENT_COUNT.replace("(void)", "(unsigned n)").replace("sizeof weights / sizeof *weights", "n")
    assert _reads(may_skip) == [line_of(may_skip, "/*R*/")]
    # a quotient of two unrelated sizes may be 0
    other = ELEMENT_COUNT.replace("sizeof weights / sizeof *weights", "sizeof(int) / sizeof(long long)")
    assert _reads(other) == [line_of(other, "/*R*/")]


SIZEOF_BOUND = """\
unsigned long load_word(const unsigned char *bytes)
{
    int i;
    unsigned long word;
    for (i = 0; i < sizeof word; i++) {
        if (i == 0)
            word = bytes[0];
        else
            word = (word << 8) | bytes[i];
    }
    return word; /*R*/
}
"""


def test_a_loop_bounded_by_sizeof_runs_at_least_once() -> None:
    assert _reads(SIZEOF_BOUND) == []
    reversed_test = SIZEOF_BOUND.replace("i < sizeof word", "sizeof(word) > i")
    assert _reads(reversed_test) == []


def test_a_negative_counter_is_converted_to_unsigned_so_the_loop_may_not_run() -> None:
    # -1 < sizeof word is false in C (-1 becomes SIZE_MAX): the read of an unset word is real
    starts_negative = SIZEOF_BOUND.replace("for (i = 0;", "for (i = -1;").replace("i == 0", "i == -1")
    assert _reads(starts_negative) == [line_of(starts_negative, "/*R*/")]


# ----- only an array's element count is at least 1: not a pointer's, not an array parameter's -----

POINTER_COUNT = """\
struct span {
    char text[64];
    int weight;
};

int heaviest_span(const struct span *spans)
{
    unsigned i;
    int best;
    for (i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        if (i == 0 || spans[i].weight > best)
            best = spans[i].weight;
    }
    return best; /*R*/
}
"""


def test_a_pointers_element_count_may_be_zero_so_the_unset_read_stays() -> None:
    # sizeof spans / sizeof spans[0] is 8 / 68 == 0: the loop never runs and best is read unset
    assert _reads(POINTER_COUNT) == [line_of(POINTER_COUNT, "/*R*/")]
    # the same of a local pointer to a local array
    local = POINTER_COUNT.replace("(const struct span *spans)", "(const struct span *all)")
    local = local.replace("    unsigned i;\n", "    const struct span *spans = all;\n    unsigned i;\n", 1)
    assert _reads(local) == [line_of(local, "/*R*/")]


def test_an_array_parameter_is_a_pointer_so_its_count_may_be_zero() -> None:
    # int a[] in a parameter list declares a pointer: the idiom gives sizeof(pointer) / sizeof *a
    param = POINTER_COUNT.replace("const struct span *spans", "const struct span spans[]")
    assert _reads(param) == [line_of(param, "/*R*/")]
    sized = POINTER_COUNT.replace("const struct span *spans", "const struct span spans[4]")
    assert _reads(sized) == [line_of(sized, "/*R*/")]


def test_a_local_arrays_element_count_is_still_at_least_one() -> None:
    # the twin: a local array (static or not) of known size runs the loop, best is set
    local = POINTER_COUNT.replace("(const struct span *spans)", "(void)")
    local = local.replace("    unsigned i;\n", '    struct span spans[3] = { { "a", 1 } };\n    unsigned i;\n', 1)
    assert _reads(local) == []
    assert _reads(local.replace("    struct span spans[3]", "    static struct span spans[3]")) == []


# ----- a bound written with a function-like macro: ``ARRAY_SIZE(tab)`` --------------------------

ARRAY_SIZE = """\
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct rule {
    const char *name;
    int weight;
};

static const struct rule rules[] = { { "alpha", 3 }, { "beta", 5 }, { "gamma", 7 } };

int heaviest_rule(void)
{
    size_t i;
    int best;
    for (i = 0; i < ARRAY_SIZE(rules); i++) {
        if (i == 0 || rules[i].weight > best)
            best = rules[i].weight;
    }
    return best; /*R*/
}
"""


def test_a_loop_over_a_macro_element_count_runs_at_least_once() -> None:
    """The macro's expansion is the idiom the builder knows (``count_macros``): the loop runs."""
    assert _reads(ARRAY_SIZE) == []
    deref = ARRAY_SIZE.replace("sizeof((a)[0])", "sizeof(*(a))")
    assert _reads(deref) == []
    # a cast around the count, a continuation line; a call of another macro that counts
    cast = ARRAY_SIZE.replace(
        "#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))",
        "#define ARRAY_SIZE(a) \\\n    ((int)(sizeof(a) / sizeof((a)[0])))",
    )
    assert _reads(cast) == []
    nested = ARRAY_SIZE.replace(
        "#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))",
        "#define NELEM(a, t) (sizeof(a) / sizeof(t))\n#define ARRAY_SIZE(a) NELEM(a, (a)[0])",
    )
    assert _reads(nested) == []


def test_a_macro_count_of_a_parameter_or_pointer_may_be_zero() -> None:
    """ARRAY_SIZE of an array parameter or a pointer is the idiom misapplied: it may be 0."""
    param = ARRAY_SIZE.replace("int heaviest_rule(void)", "int heaviest_rule(const struct rule rules[])")
    assert _reads(param) == [line_of(param, "/*R*/")]
    pointer = param.replace("const struct rule rules[])", "const struct rule *rules)")
    assert _reads(pointer) == [line_of(pointer, "/*R*/")]


def test_a_macro_bound_that_may_be_zero_still_reads_unset() -> None:
    """Only a count the expansion shows to be at least 1 runs the loop: ``COUNT(n)`` of an unknown
    ``n``, a quotient of unrelated sizes, a macro the file does not define, are read as before."""
    count = ARRAY_SIZE.replace("(sizeof(a) / sizeof((a)[0]))", "(n)").replace("ARRAY_SIZE(a)", "COUNT(n)")
    count = count.replace("int heaviest_rule(void)", "int heaviest_rule(size_t n)")
    count = count.replace("ARRAY_SIZE(rules)", "COUNT(n)")
    assert _reads(count) == [line_of(count, "/*R*/")]
    unrelated = ARRAY_SIZE.replace("sizeof((a)[0])", "sizeof(long long)").replace("sizeof(a)", "sizeof(int)")
    assert _reads(unrelated) == [line_of(unrelated, "/*R*/")]
    undefined = ARRAY_SIZE.replace("#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))\n", "")
    assert _reads(undefined) == [line_of(undefined, "/*R*/")]
    # the file's own later definition wins over one that would count
    again = "#undef ARRAY_SIZE\n#define ARRAY_SIZE(a) (a##_count)\nstruct rule"
    redefined = ARRAY_SIZE.replace("\nstruct rule", again, 1)
    assert _reads(redefined) == [line_of(redefined, "/*R*/")]


def test_an_element_count_macro_of_a_local_header_counts(tmp_path: Path) -> None:
    header, body = ARRAY_SIZE.split("\n", 1)
    (tmp_path / "util.h").write_text(f"#ifndef UTIL_H\n#define UTIL_H\n{header}\n#endif\n")
    path = str(tmp_path / "rules.c")
    project = Project(Config())
    project.update_file(path, '#include "util.h"\n' + body)
    assert [f.rule_id for f in project.check()[path]] == ["uninitialised-read"]  # the header is unread
    load_headers(project)
    assert project.check()[path] == []


# ----- a size named by an object-like macro (lua's LUAL_BUFFERSIZE) --------------------------------

READ_LINE = """\
#include <stdio.h>
#define LINE_BUFFER   ((int)(16 * sizeof(void*) * sizeof(double)))

int read_line(FILE *f, char *buff)
{
    int c;
    int i = 0;
    flockfile(f);
    while (i < LINE_BUFFER && (c = getc(f)) != EOF && c != '\\n')
        buff[i++] = c;
    return c == '\\n'; /*R*/
}
"""


def test_a_loop_bounded_by_a_size_macro_tests_its_second_operand_once() -> None:
    # i is 0 on the first test and the size is at least 1: c = getc(f) runs before c is read
    assert _reads(READ_LINE) == []
    through_header_style = READ_LINE.replace(
        "#define LINE_BUFFER   ((int)(16 * sizeof(void*) * sizeof(double)))",
        "#define WORDS (4 * sizeof(void*))\n#define LINE_BUFFER ((int)WORDS + 1)",
    )
    assert _reads(through_header_style) == []
    # the statements between the counter's start and the loop leave it alone
    assert _reads(READ_LINE.replace("flockfile(f);", "flockfile(f);\n    fflush(f);")) == []


def test_a_bound_macro_that_may_be_zero_leaves_the_read_unset() -> None:
    may_be_zero = READ_LINE.replace("((int)(16 * sizeof(void*) * sizeof(double)))", "(limit)").replace(
        "(FILE *f, char *buff)", "(FILE *f, char *buff, int limit)"
    )
    assert _reads(may_be_zero) == [line_of(may_be_zero, "/*R*/")]
    difference = READ_LINE.replace("16 * sizeof(void*) * sizeof(double)", "sizeof(void*) - sizeof(long)")
    assert _reads(difference) == [line_of(difference, "/*R*/")]
    redefined = READ_LINE.replace("#define LINE_BUFFER", "#define LINE_BUFFER_SIZE").replace(
        "#include <stdio.h>\n", "#include <stdio.h>\n#define LINE_BUFFER limit\n"
    ).replace("(FILE *f, char *buff)", "(FILE *f, char *buff, int limit)")
    assert _reads(redefined) == [line_of(redefined, "/*R*/")]
    # a statement between that sets the counter again: it is no longer known to be 0 at the test
    restarted = READ_LINE.replace("flockfile(f);", "i = skip_blanks(f);")
    assert _reads(restarted) == [line_of(restarted, "/*R*/")]
