"""What library calls mean for a tracked value: a table from call names to events (data, not code).

The extractor consults only this table, so supporting a new API is one more row (built in here or
added by users in ``ctlsp.toml``) rather than new code.  ``returns`` is the event of the value the
call returns; ``args`` maps argument positions (``-1``: every argument) to the event they undergo.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractors.config import Config


@dataclass(frozen=True)
class CallSpec:
    returns: str | None = None
    # (argument index or -1 for all, atom); ``addr``: a macro that takes the argument's address,
    # read as ``&arg`` written out (a definition, and the variable's address is taken)
    args: tuple[tuple[int, str], ...] = ()
    noreturn: bool = False
    must_check: bool = False
    nonnull: bool = False  # the returned value is never NULL (allocators that abort on failure)
    assigns: tuple[str, ...] = ()  # the caller's variables a macro assigns by name (lua's vmfetch() sets i)


_ALLOC = CallSpec(returns="alloc")
_FREE = CallSpec(args=((0, "free"),))
_USE_ALL = CallSpec(args=((-1, "use"),))


def _uses(*positions: int) -> CallSpec:
    return CallSpec(args=tuple((i, "use") for i in positions))


BUILTIN: dict[str, CallSpec] = {
    **{n: _ALLOC for n in ("malloc", "calloc", "strdup", "strndup", "aligned_alloc", "valloc")},
    **{
        n: CallSpec(returns="alloc", nonnull=True)
        for n in ("xmalloc", "xcalloc", "xstrdup", "g_malloc", "g_malloc0")
    },
    "realloc": CallSpec(returns="alloc", args=((0, "escape"),)),
    "reallocarray": CallSpec(returns="alloc", args=((0, "escape"),)),
    "free": _FREE,
    "va_start": CallSpec(args=((0, "def"),)),
    "va_copy": CallSpec(args=((0, "def"),)),
    "FD_ZERO": CallSpec(args=((0, "def"),)),
    "fopen": CallSpec(returns="open"),
    "fdopen": CallSpec(returns="open"),
    "tmpfile": CallSpec(returns="open"),
    "opendir": CallSpec(returns="open"),
    "popen": CallSpec(returns="open"),
    "open": CallSpec(returns="open"),
    "socket": CallSpec(returns="open"),
    "dup": CallSpec(returns="open"),
    "fclose": CallSpec(args=((0, "close"),)),
    "closedir": CallSpec(args=((0, "close"),)),
    "pclose": CallSpec(args=((0, "close"),)),
    "close": CallSpec(args=((0, "close"),)),
    "pthread_mutex_lock": CallSpec(args=((0, "lock"),)),
    "pthread_mutex_unlock": CallSpec(args=((0, "unlock"),)),
    "pthread_spin_lock": CallSpec(args=((0, "lock"),)),
    "pthread_spin_unlock": CallSpec(args=((0, "unlock"),)),
    "pthread_rwlock_rdlock": CallSpec(args=((0, "lock"),)),
    "pthread_rwlock_wrlock": CallSpec(args=((0, "lock"),)),
    "pthread_rwlock_unlock": CallSpec(args=((0, "unlock"),)),
    "mtx_lock": CallSpec(args=((0, "lock"),)),
    "mtx_unlock": CallSpec(args=((0, "unlock"),)),
    # the pointer arguments each call dereferences (not its sizes, descriptors or flags, and not
    # those a NULL is allowed in: fflush(NULL), snprintf(NULL, 0, ...), strtol's end pointer)
    **{
        n: _uses(*positions)
        for n, positions in (
            ("strlen", (0,)),
            ("strcpy", (0, 1)),
            ("strncpy", (0, 1)),
            ("strcat", (0, 1)),
            ("strncat", (0, 1)),
            ("strcmp", (0, 1)),
            ("strncmp", (0, 1)),
            ("strchr", (0,)),
            ("strrchr", (0,)),
            ("strstr", (0, 1)),
            ("memcpy", (0, 1)),
            ("memmove", (0, 1)),
            ("memset", (0,)),
            ("memcmp", (0, 1)),
            ("puts", (0,)),
            ("fputs", (0, 1)),
            ("fgets", (0, 2)),
            ("fread", (0, 3)),
            ("fwrite", (0, 3)),
            ("fprintf", (0, 1)),
            ("fscanf", (0, 1)),
            ("fgetc", (0,)),
            ("fputc", (1,)),
            ("getc", (0,)),
            ("putc", (1,)),
            ("fseek", (0,)),
            ("ftell", (0,)),
            ("rewind", (0,)),
            ("feof", (0,)),
            ("ferror", (0,)),
            ("atoi", (0,)),
            ("atol", (0,)),
            ("strtol", (0,)),
            ("strtoul", (0,)),
            ("sprintf", (0, 1)),
            ("snprintf", (2,)),
            ("sscanf", (0, 1)),
            ("read", (1,)),
            ("write", (1,)),
            ("fflush", ()),
        )
    },
    **{n: CallSpec(args=((-1, "read"),)) for n in ("printf", "assert_ok")},
    **{
        n: CallSpec(noreturn=True)
        for n in (
            "exit",
            "abort",
            "_exit",
            "_Exit",
            "quick_exit",
            "__builtin_trap",
            "__builtin_unreachable",
            "longjmp",
            "siglongjmp",
            "err",
            "errx",
            "pthread_exit",
            "__assert_fail",
            "__builtin_abort",
            "verr",
            "verrx",
            "thrd_exit",
            "Py_FatalError",
            "Py_Exit",
        )
    },
    **{
        n: CallSpec(must_check=True)
        for n in (
            "setuid",
            "setgid",
            "seteuid",
            "setegid",
            "chdir",
            "chroot",
            "setresuid",
            "setresgid",
        )
    },
}


NORETURN = frozenset(n for n, spec in BUILTIN.items() if spec.noreturn)  # the library's exits


def call_table(config: Config) -> dict[str, CallSpec]:
    """Built-in rows plus the user's, the user winning on a clash."""
    table = dict(BUILTIN)
    for name in config.allocators:
        table[name] = _ALLOC
    for name in config.nonnull_allocators:
        table[name] = CallSpec(returns="alloc", nonnull=True)
    for name in config.deallocators:
        table[name] = _FREE
    for acquire, release in config.locks:
        table[acquire] = CallSpec(args=((0, "lock"),))
        table[release] = CallSpec(args=((0, "unlock"),))
    for acquire, release in config.resources:
        table[acquire] = CallSpec(returns="open")
        table[release] = CallSpec(args=((0, "close"),))
    for name in config.uses:
        table[name] = _USE_ALL
    for name in config.noreturn:
        table[name] = CallSpec(noreturn=True)
    for name in config.must_check:
        old = table.get(name, CallSpec())
        table[name] = CallSpec(old.returns, old.args, old.noreturn, True, old.nonnull)
    return table
