"""A preprocessor chain with an ``#elif`` and no ``#else`` enumerates the builds the code supports
(psutil's ``#ifdef PSUTIL_FREEBSD ... #elif PSUTIL_OPENBSD ... #elif PSUTIL_NETBSD ... #endif``, the
platform given by setup.py's -D): one of its branches runs in every build, so a build that takes
none (where the variables the branches set stay unset) is not modelled.  A lone ``#if`` without
``#else`` is still the branch or nothing, and an empty ``#else`` is a build of its own."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

FILES = """\
struct kif { int type; int fd; const char *path; };
int emit(const char *path, int fd);
int one_file(const struct kif *kif)
{
    int regular;
    int fd;
    const char *path;
#ifdef PSUTIL_FREEBSD
    regular = kif->type == 1;
    fd = kif->fd;
    path = kif->path;
#elif PSUTIL_OPENBSD
    regular = kif->type == 2;
    fd = kif->fd;
    path = "";
#elif PSUTIL_NETBSD
    regular = kif->type == 3;
    fd = kif->fd;
    path = "";
#endif
    if (regular == 1) /*R*/
        return emit(path, fd);
    return 0;
}
"""

# a store read only by the arguments of a call whose argument list holds the same chain
TUPLE = """\
struct kp { long rss; long size; };
long build(const char *fmt, ...);
long info(const struct kp *kp, long pagesize)
{
    long rss;
#ifdef PSUTIL_FREEBSD
    rss = kp->rss * pagesize;
#else
    rss = kp->size * pagesize;
#endif
    return build(
#ifdef PSUTIL_FREEBSD
        "(l)", rss
#elif defined(PSUTIL_OPENBSD) || defined(PSUTIL_NETBSD)
        "(l)", rss
#endif
    );
}
"""


def test_an_enumerated_chain_takes_one_of_its_branches() -> None:
    assert of_rule(check_src(FILES), "uninitialised-read") == []
    assert of_rule(check_src(TUPLE), "dead-store") == []


def test_an_else_or_a_lone_if_keeps_the_build_that_sets_nothing() -> None:
    with_else = FILES.replace("#endif\n    if (regular", "#else\n    /* another system */\n#endif\n    if (regular")
    found = of_rule(check_src(with_else), "uninitialised-read")
    assert line_of(with_else, "/*R*/") in {f.location.start_line for f in found}
    lone = FILES.replace("#elif PSUTIL_OPENBSD", "#endif\n#if PSUTIL_OPENBSD").replace(
        "#elif PSUTIL_NETBSD", "#endif\n#if PSUTIL_NETBSD"
    )
    found = of_rule(check_src(lone), "uninitialised-read")
    assert line_of(lone, "/*R*/") in {f.location.start_line for f in found}
