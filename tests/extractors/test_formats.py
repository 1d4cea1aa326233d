"""printf formats: the arguments a literal format's %s and %n conversions dereference."""

from __future__ import annotations

import pytest

from extractors.calls import BUILTIN
from extractors.config import ConfigError, config_from_text
from extractors.formats import dereferenced
from extractors.library import library_from_text
from extractors.macro_calls import renames, resolved
from tests.extractors.helpers import check_src, line_of, of_rule


@pytest.mark.parametrize(
    ("fmt", "want"),
    [
        ("dropped %s\\n", (1,)),
        ("%d %s %p %s", (2, 4)),
        ("%-10.*s|%*d|%ls", (2, 5)),  # * takes an argument
        ("100%% %s %m %n", (1, 2)),  # %% and %m take none, %n writes through its argument
        ("%2$s %1$d", (2,)),  # positional
        ("%zu %lld %hhx %Lf %c %s", (6,)),
        ("%s %y %s", (1,)),  # an unknown conversion stops the count
        ("no conversions", ()),
    ],
)
def test_dereferenced_arguments(fmt: str, want: tuple[int, ...]) -> None:
    assert dereferenced(fmt, 1) == want


HEADER = "#include <stdlib.h>\n#include <stdio.h>\n"


def uaf(src: str, cfg_text: str = "") -> list[tuple[str, int]]:
    found = check_src(src, config_from_text(cfg_text)) if cfg_text else check_src(src)
    return sorted((f.function, f.location.start_line) for f in of_rule(found, "use-after-free"))


def test_a_string_conversion_uses_its_argument_a_value_conversion_does_not() -> None:
    src = (
        HEADER
        + """
void s(char *p) { free(p); printf("dropped %s\\n", p); }  /*S*/
void f(FILE *o, char *p) { free(p); fprintf(o, "%d: " "%s", 1, p); }  /*F*/
void n(char *b, char *p) { free(p); snprintf(b, 8, "%.*s", 3, p); }  /*N*/
void v(char *p) { free(p); printf("%p %d\\n", p, 0); }
void dyn(const char *fmt, char *p) { free(p); printf(fmt, p); }
void mac(char *p) { free(p); printf("%" PRIS, p); }
void guard(char *p, char *q) { free(p); if (q) printf("%s", q); }
"""
    )
    assert uaf(src) == [("f", line_of(src, "/*F*/")), ("n", line_of(src, "/*N*/")), ("s", line_of(src, "/*S*/"))]


def test_format_is_a_library_key_and_moves_through_renaming_macros() -> None:
    src = (
        HEADER
        + """
#define ELOG(fmt, ...) fprintf(stderr, fmt, __VA_ARGS__)
void a(char *p) { free(p); ELOG("%s", p); }  /*A*/
void b(char *p) { free(p); log_msg(2, "gone: %s", p); }  /*B*/
"""
    )
    assert uaf(src, "[library.log_msg]\nformat = 1\n") == [("a", line_of(src, "/*A*/")), ("b", line_of(src, "/*B*/"))]
    got = resolved(renames("#define P(f, a) printf(f, \"x\", a)\n#define Q(f) printf(f)\n"), BUILTIN, {})
    assert got["P"].format is None and got["Q"].format == 0  # P's conversions would name the wrong argument
    with pytest.raises(ConfigError, match="format"):
        library_from_text("f = { format = -1 }\n")
