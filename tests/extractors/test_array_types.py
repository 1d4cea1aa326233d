"""Locals of a typedef'd array type (``typedef uint8_t DataBlock[16]``, in the file or a header it
reads): ``DataBlock pad; encrypt(in, pad);`` hands the callee the block to fill, as ``uint8_t
pad[16]`` would, and reads no unset scalar (pycryptodome's raw_ocb.c gave 8 such false reports)."""

from __future__ import annotations

from extractors.api import Project
from extractors.array_types import array_typedefs
from tests.extractors.helpers import check_src, line_of, of_rule

FILL = """#include <stdint.h>
typedef uint8_t Block[16];
int fill(uint8_t *out);
int first(void)
{
    Block b;
    if (fill(b))
        return -1;
    return b[0];
}
int unset(void)
{
    Block y;
    return y[2]; /*U*/
}
"""


def test_array_typedefs_name_arrays_only() -> None:
    text = (
        b"typedef uint8_t DataBlock[BLOCK_SIZE];\ntypedef char *names[4];\ntypedef char (*row)[4];\n"
        b"typedef struct { int a[3]; } S;\ntypedef int X;\ntypedef unsigned long limbs[2][3];\n"
    )
    assert array_typedefs(text) == {"DataBlock", "names", "limbs"}
    assert array_typedefs(b"int a[3];\n") == frozenset()


def test_a_local_of_an_array_type_is_filled_by_the_callee_it_is_handed_to() -> None:
    found = of_rule(check_src(FILL), "uninitialised-read")
    assert [(f.function, f.location.start_line) for f in found] == [("unset", line_of(FILL, "/*U*/"))]


def _project(header: str) -> Project:
    p = Project(None)
    p.set_header("/p/types.h", header)
    p.update_file("/p/a.c", '#include "types.h"\n' + FILL.replace("typedef uint8_t Block[16];\n", ""))
    for _ in range(3):  # the include run asks for the headers it reads
        for h in p.unread_headers():
            p.set_header(h, None)
    return p


def test_an_array_type_from_a_header_and_its_edit() -> None:
    p = _project("#include <stdint.h>\ntypedef uint8_t Block[16];\n")
    assert [f.function for f in of_rule(p.check()["/p/a.c"], "uninitialised-read")] == ["unset"]
    # the header now makes Block a scalar: handing it over by value reads it
    p.set_header("/p/types.h", "#include <stdint.h>\ntypedef uint8_t Block;\n")
    found = of_rule(p.check()["/p/a.c"], "uninitialised-read")
    assert sorted(f.function for f in found) == ["first", "unset"]


def test_setjmp_fills_its_buffer() -> None:
    src = """#include <setjmp.h>
int work(void);
int guarded(void)
{
    jmp_buf env;
    if (setjmp(env))
        return -1;
    return work();
}
"""
    assert of_rule(check_src(src), "uninitialised-read") == []


def test_a_row_of_an_array_of_arrays_is_an_address_not_an_element_read() -> None:
    """pycryptodome's test_keccak_x4.c: ``pout[j] = out[j]`` of ``uint8_t out[4][200]`` takes a
    row's address for a callee to fill."""
    src = """#include <stdint.h>
void use(uint8_t **p, const uint8_t *const *q);
void rows(void)
{
    uint8_t in[4][200], out[4][200];
    const uint8_t *pin[4];
    uint8_t *pout[4];
    unsigned i, j;
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 200; i++)
            in[j][i] = (uint8_t)(i + j);
        pin[j] = in[j];
        pout[j] = out[j];
    }
    use(pout, pin);
}
int flat(void)
{
    int v[4];
    return v[1]; /*U*/
}
"""
    found = of_rule(check_src(src), "uninitialised-read")
    assert [(f.function, f.location.start_line) for f in found] == [("flat", line_of(src, "/*U*/"))]


def test_hurds_string_t_is_an_array_the_callee_fills() -> None:
    """libuv's hurd.c: ``string_t exepath; proc_get_exe(getproc(), getpid(), exepath);``."""
    src = """#include <hurd.h>
int exe_len(char *out)
{
    string_t exepath;
    if (proc_get_exe(getproc(), getpid(), exepath) != 0)
        return -1;
    out[0] = exepath[0];
    return 0;
}
"""
    assert check_src(src) == []


def test_library_array_types_and_a_pointer_to_an_array() -> None:
    """psutil: macOS's ``io_name_t`` (``char[128]``) handed to the call that fills it, and ``long
    (*cpu_time)[N] = malloc(...)``, a pointer to arrays that is freed, not an array."""
    src = """#include <stdlib.h>
#include <IOKit/IOKitLib.h>
int entry_name(io_registry_entry_t entry, char *out)
{
    io_name_t name;
    if (IORegistryEntryGetName(entry, name) != 0)
        return -1;
    out[0] = name[0];
    return 0;
}
long first_time(int ncpu, int (*fill)(long (*)[5], int))
{
    long (*cpu_time)[5] = malloc(ncpu * sizeof(*cpu_time));
    long t;
    if (!cpu_time)
        return -1;
    if (fill(cpu_time, ncpu) != 0) {
        free(cpu_time);
        return -1;
    }
    t = cpu_time[0][0];
    free(cpu_time);
    return t;
}
"""
    assert check_src(src) == []
    unset = src.replace("    if (IORegistryEntryGetName(entry, name) != 0)\n        return -1;\n", "")
    assert [f.rule_id for f in check_src(unset)] == ["uninitialised-read"]
