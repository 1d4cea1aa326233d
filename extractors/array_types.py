"""Type names that are arrays: ``typedef uint8_t DataBlock[16];``.

A local of such a type is an array, not a scalar: ``DataBlock pad; encrypt(key, in, pad);`` hands
the callee the address of ``pad``'s elements for it to fill, as ``uint8_t pad[16]`` would, and is
no read of an unset scalar.  The CFG builder sees only the function's text, so the names come
from the file's and its headers' typedefs (:func:`array_typedefs`, read by ``queries``) and key
the file's models as its constants do.

Invariant: a name is listed only when its typedef's declarator nearest the name is an array
(``typedef char *names[4]`` is an array of pointers; ``typedef char (*row)[4]`` is a pointer and
is not listed), and no typedef of a struct or union body is read (its braces hold fields)."""

from __future__ import annotations

import re

# array types of the C library and common system headers, which ctlsp does not read: ``jmp_buf env;
# setjmp(env)``, ``uuid_t id; uuid_generate(id)``, macOS's ``io_name_t name;
# IORegistryEntryGetName(entry, name)``, GMP's ``mpz_t n; mpz_init(n)``, GNU Mach's ``string_t path;
# proc_get_exe(proc, pid, path)`` (Hurd)
LIBRARY_ARRAY_TYPES = frozenset({
    "jmp_buf", "sigjmp_buf", "uuid_t", "uuid_string_t", "io_name_t", "io_string_t", "io_struct_inband_t",
    "thread_info_data_t", "task_info_data_t", "mpz_t", "mpq_t", "mpf_t", "mpfr_t", "string_t",
})  # fmt: skip

# ``typedef`` then type words (no braces, parentheses or semicolons), the name and its first ``[``
_TYPEDEF = re.compile(rb"\btypedef\b[^;{}()#]*?\b([A-Za-z_]\w*)[ \t]*\[[^;{}]*\][ \t]*;")


def array_typedefs(text: bytes) -> frozenset[str]:
    """The names ``text``'s typedefs declare as array types."""
    if b"typedef" not in text:
        return frozenset()
    return frozenset(m.group(1).decode("ascii") for m in _TYPEDEF.finditer(text))
