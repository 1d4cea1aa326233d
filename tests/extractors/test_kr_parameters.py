"""K&R definitions (``int f(a, b) int a; char *b; { ... }``): the names in the parentheses are the
function's parameters, as in a prototype-style definition, so what is known of parameters holds of
them too (a flag tested twice decides both tests, an unread one is an unused parameter)."""

from __future__ import annotations

from extractors.api import Project
from extractors.config import config_from_text
from tests.extractors.helpers import check_src, line_of

KEPT_COPY = """\
#include <stdlib.h>
#include <string.h>

int copy_name(name, keep)
const char *name;
int keep;
{
    char *saved;
    int n = (int)strlen(name);
    if (keep)
        saved = malloc(n + 1); /*A*/
    if (keep && saved != NULL)
        memcpy(saved, name, n + 1);
    if (keep)
        free(saved);
    return n;
}
"""


def _found(src: str, config_text: str = "") -> list[tuple[str, int]]:
    config = config_from_text(config_text, "ctlsp.toml") if config_text else None
    return sorted((f.rule_id, f.location.start_line) for f in check_src(src, config))


def test_k_and_r_parameters_are_the_functions_parameters() -> None:
    p = Project()
    p.update_file("t.c", KEPT_COPY + "static long scale(v, by)\n    long v; int by;\n{\n    return v * by;\n}\n")
    functions = p.files["t.c"].model.functions
    assert functions["copy_name"].params == ("name", "keep")
    assert functions["scale"].params == ("v", "by")


def test_a_k_and_r_flag_parameter_decides_its_later_tests() -> None:
    assert _found(KEPT_COPY) == []


def test_a_k_and_r_function_that_never_frees_still_leaks() -> None:
    leaking = KEPT_COPY.replace("    if (keep)\n        free(saved);\n", "")
    assert leaking != KEPT_COPY
    assert _found(leaking) == [("memory-leak", line_of(leaking, "/*A*/"))]


UNREAD = """\
int first(values, count)
int *values;
int count;
{
    return values[0];
}
"""


def test_an_unread_k_and_r_parameter_is_an_unused_parameter() -> None:
    on = "[rules.unused-parameter]\nenabled = true\n"
    assert _found(UNREAD, on) == [("unused-parameter", 0)]
    read = UNREAD.replace("return values[0];", "return count > 0 ? values[0] : 0;")
    assert _found(read, on) == []


def test_a_prototype_with_a_contract_is_no_definition_of_the_struct_after_it() -> None:
    """mldsa-native's headers: tree-sitter reads the prototype's ``;`` after a CBMC contract as an
    error and the next typedef's braces as the body of a K&R definition; its fields were reported
    as unused locals."""
    header = """#include <stdint.h>
uint32_t mld_polyvecl_chknorm(const mld_polyvecl *v, int32_t B)
__contract__(
  requires(0 <= B && B <= (MLDSA_Q - 1) / 8)
  ensures((return_value == 0) == forall(k1, 0, MLDSA_L, array_abs_bound(v->vec[k1].coeffs, 0, MLDSA_N, B)))
);

typedef struct
{
  mld_poly vec[MLDSA_K];
} mld_polyveck;
"""
    p = Project()
    p.update_file("polyvec.h", header)
    assert list(p.files["polyvec.h"].model.functions) == []
    assert p.check()["polyvec.h"] == []
