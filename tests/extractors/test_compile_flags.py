"""Per-file compile flags (``compile_commands.json``) and headers found in ``-I`` folders: their
defines decide conditionals (``extractors.compile_flags``, ``extractors.includes``).

Each construct that fooled the checker (a finding while the flags or the header were not read)
stands next to a twin with a real bug that the same flags must not hide."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from extractors.api import Project
from extractors.compile_flags import CompileCommandsError, compile_database, flags_from_arguments
from extractors.config import Config, config_from_text
from extractors.includes import MAX_DEPTH, MAX_HEADERS, UNREAD, Preprocessed, SearchPath, Unread, preprocess
from extractors.preprocessor import NO_DEFINES, Defines, Directive, directives
from extractors.queries import file_preprocessor, function_model
from server.workspace import load_headers
from tests.extractors.helpers import line_of

# ----- flags of a command line -------------------------------------------------------------------


def test_the_flags_of_a_command_line_in_both_spellings_relative_to_its_folder() -> None:
    args = [
        "gcc", "-DHAVE_MMAP", "-D", "LEVEL=3", "-UNDEBUG", "-Iinclude", "-I", "/opt/zlib/include",
        "-isystem", "third_party", "-iquote", "src", "-include", "config.h", "-DVERSION=\"1.2\"",
        "-DMAX(a,b)=((a)>(b)?(a):(b))", "-D2BAD", "-o", "out.o", "-c", "src/a.c",
    ]  # fmt: skip
    flags = flags_from_arguments(args, "/work/proj")
    assert flags.macros == (
        ("D", "HAVE_MMAP", 1), ("D", "LEVEL", 3), ("U", "NDEBUG", None), ("D", "VERSION", None), ("D", "MAX", None)
    )  # fmt: skip
    assert flags.include_dirs == ("/work/proj/include", "/opt/zlib/include", "/work/proj/third_party")
    assert flags.quote_dirs == ("/work/proj/src",)
    assert flags.forced == ("/work/proj/config.h",)
    assert flags.applied(Defines({"NDEBUG": 1, "KEPT": 2})) == Defines(
        {"KEPT": 2, "HAVE_MMAP": 1, "LEVEL": 3, "VERSION": None, "MAX": None}, frozenset({"NDEBUG"})
    )


def test_a_compile_database_in_command_and_arguments_form() -> None:
    text = json.dumps(
        [
            {"directory": "/p/build", "file": "../src/a.c", "command": "cc -DFAST -I../include -c ../src/a.c"},
            {"directory": "/p", "file": "src/b.c", "arguments": ["cc", "-DSLOW=2", "src/b.c"]},
            {"directory": "sub", "file": "c.c", "command": "cc '-DNAME=a b' c.c"},  # relative to the JSON file
        ]
    )
    flags = compile_database(text, "/p/compile_commands.json")
    assert set(flags) == {"/p/src/a.c", "/p/src/b.c", "/p/sub/c.c"}
    assert flags["/p/src/a.c"].macros == (("D", "FAST", 1),) and flags["/p/src/a.c"].include_dirs == ("/p/include",)
    assert flags["/p/src/b.c"].macros == (("D", "SLOW", 2),)
    assert flags["/p/sub/c.c"].macros == (("D", "NAME", None),)


def test_a_later_flag_wins_and_entries_that_disagree_leave_a_name_unknown() -> None:
    assert flags_from_arguments(["cc", "-DX", "-UX"], "/").applied(Defines()) == Defines({}, frozenset({"X"}))
    text = json.dumps(
        [
            {"directory": "/p", "file": "a.c", "command": "cc -DSHARED=1 -DPIC -DCOMMON a.c"},
            {"directory": "/p", "file": "a.c", "command": "cc -DSHARED=0 -DCOMMON a.c"},
        ]
    )
    both = compile_database(text, "/p/compile_commands.json")["/p/a.c"].applied(Defines())
    assert both == Defines({"COMMON": 1}, frozenset())  # SHARED and PIC: each build has its own


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ("{}", "expected a list"),
        ('[{"file": "a.c", "command": "cc"}]', "entry 0: needs 'directory' and 'file'"),
        ('[{"directory": "/", "file": "a.c"}]', "entry 0: needs 'arguments' or 'command'"),
        ('[{"directory": "/", "file": "a.c", "command": "cc \\"-DX"}]', "entry 0: command"),
        ('[{"directory": "/", "file": "a.c", "arguments": "cc"}]', "'arguments' must be a list"),
    ],
)
def test_a_malformed_compile_database_is_named(text: str, message: str) -> None:
    with pytest.raises(CompileCommandsError, match=message):
        compile_database(text, "/p/compile_commands.json")


# ----- the include run ---------------------------------------------------------------------------


def _run(
    files: dict[str, str], main: str, base: Defines = NO_DEFINES, angle: tuple[str, ...] = (), absent: object = None
) -> Preprocessed:
    """The include run over ``main`` with the texts ``files``; any other path is ``absent``
    (None: missing, ``UNREAD``: not handed in yet)."""

    def lookup(path: str) -> tuple[Directive, ...] | None | Unread:
        if path in files:
            return directives(files[path].encode())
        return absent if isinstance(absent, Unread) else None

    return preprocess(main, directives(files[main].encode()), (), SearchPath((), angle), base, lookup)


def test_a_directive_spliced_onto_the_line_before_is_none_of_its_own() -> None:
    """C splices backslash-newlines before it sees directives: a continuation line that starts with
    ``#`` is part of the line before, so it neither defines nor includes."""
    text = b'#define AL(n) \\\n#define SET(k) ((k) = 0)\n#if X // a comment \\\r\n#include "a.h"\n#endif\n'
    assert directives(text) == (("define", "AL(n)  #define SET(k) ((k) = 0)"), ("if", "X"), ("endif", ""))
    got = _run({"/p/a.c": text.decode(), "/p/a.h": "#define FROM_A 1\n"}, "/p/a.c")
    assert got.wanted == () and got.headers == ()
    assert "AL" in got.defines.defined and "SET" not in got.defines.defined


def test_a_define_under_a_conditional_nothing_decides_is_unknown() -> None:
    header = (
        "#ifndef PORT_H\n#define PORT_H\n"  # the guard is taken as passed
        "#ifdef _WIN32\n#define USE_LOCKS 0\n#else\n#define USE_LOCKS 1\n#endif\n"
        "#if USE_LOCKS\n#define LOCKED 1\n#endif\n"
        "#define SHIFTED (1 << 4)\n#undef NDEBUG\n#endif\n"
    )
    files = {"/p/port.h": header, "/p/a.c": '#include "port.h"\n'}
    unknown = _run(files, "/p/a.c", Defines({"NDEBUG": 1})).defines
    assert "USE_LOCKS" not in unknown.defined and "USE_LOCKS" not in unknown.undefined
    assert "LOCKED" not in unknown.defined and "LOCKED" not in unknown.undefined
    assert unknown.defined["SHIFTED"] == 16 and "NDEBUG" in unknown.undefined
    posix = _run(files, "/p/a.c", Defines({}, frozenset({"_WIN32"}))).defines
    assert posix.defined["USE_LOCKS"] == 1 and posix.defined["LOCKED"] == 1


def test_headers_are_followed_through_their_includes_once_and_bounded() -> None:
    files = {
        "/p/a.c": '#include <api.h>\n#include "local.h"\n',
        "/p/local.h": "#include <api.h>\n#define LOCAL 1\n",  # included twice: read once
        "/inc/api.h": '#include "features.h"\n#include "api.h"\n',  # includes itself: a cycle
        "/inc/features.h": "#define HAVE_FEATURE 2\n",
    }
    out = _run(files, "/p/a.c", angle=("/inc",), absent=UNREAD)
    assert out.headers == ("/inc/api.h", "/inc/features.h", "/p/local.h")
    assert dict(out.consts) == {"HAVE_FEATURE": 2, "LOCAL": 1}
    assert "/p/api.h" not in out.wanted and "/inc/local.h" not in out.wanted  # found before: not looked for
    chain = {f"/p/h{i}.h": f'#include "h{i + 1}.h"\n#define H{i} {i}\n' for i in range(1000)}
    chain["/p/a.c"] = '#include "h0.h"\n'
    deep = _run(chain, "/p/a.c")
    assert len(deep.headers) == MAX_DEPTH and dict(deep.consts)["H0"] == 0
    wide = {f"/p/h{i}.h": "" for i in range(1000)}
    wide["/p/a.c"] = "".join(f'#include "h{i}.h"\n' for i in range(1000))
    assert len(_run(wide, "/p/a.c").headers) == MAX_HEADERS


# ----- on checks ---------------------------------------------------------------------------------

BUFFER = """\
#include <stdlib.h>
#include <string.h>

struct buffer { char *data; size_t len; };

int buffer_init(struct buffer *b, size_t len)
{
    char *data;
#if defined(USE_CALLOC)
    data = calloc(1, len);
#elif defined(USE_MALLOC)
    data = malloc(len);
    if (data)
        memset(data, 0, len);
#else
    /* neither: data stays unset */
#endif
    if (!data) /*R*/
        return -1;
    b->data = data;
    b->len = len;
    return 0;
}
"""

LOCKS = """\
#include <pthread.h>
#include <config.h>

static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

long counter_add(long n)
{
    long now;
#if USE_LOCKS
    pthread_mutex_lock(&counter_lock); /*L*/
#endif
    counter += n;
    now = counter;
#ifdef USE_LOCKS
    pthread_mutex_unlock(&counter_lock);
#endif
    return now;
}
"""

CONFIG_H = "#ifndef CONFIG_H\n#define CONFIG_H\n#include \"features.h\"\n#endif\n"
FEATURES_H = "/* generated by configure */\n#define USE_LOCKS 1\n"


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _database(root: Path, entries: dict[str, str]) -> Path:
    path = root / "compile_commands.json"
    path.write_text(json.dumps([{"directory": str(root), "file": f, "command": c} for f, c in entries.items()]))
    return path


def _check(root: Path, files: list[str], config: Config | None = None) -> dict[str, list[tuple[str, int]]]:
    """What ``ctlsp check`` finds in ``files`` of ``root``: the edges hand in headers and flags."""
    project = Project(config)
    for f in files:
        project.update_file(str(root / f), (root / f).read_text())
    load_headers(project)
    return {
        str(Path(p).relative_to(root)): [(x.rule_id, x.location.start_line) for x in found]
        for p, found in project.check().items()
    }


def test_defines_from_compile_commands_decide_an_if_elif_chain(tmp_path: Path) -> None:
    """Without the flags the ``#if``/``#elif`` may select nothing, and ``data`` is read unset; the
    build says ``-DUSE_CALLOC``."""
    _tree(tmp_path, {"src/buffer.c": BUFFER})
    db = _database(tmp_path, {"src/buffer.c": "cc -DUSE_CALLOC -O2 -c src/buffer.c"})
    assert _check(tmp_path, ["src/buffer.c"]) == {"src/buffer.c": [("uninitialised-read", line_of(BUFFER, "/*R*/"))]}
    assert _check(tmp_path, ["src/buffer.c"], Config(compile_commands=str(db))) == {"src/buffer.c": []}
    # the twin: under the same flags, a real leak on the early return is still found
    leaky = BUFFER.replace("    b->data = data;\n", "    if (len > 4096)\n        return -2;\n    b->data = data;\n")
    _tree(tmp_path, {"src/buffer.c": leaky})
    found = _check(tmp_path, ["src/buffer.c"], Config(compile_commands=str(db)))["src/buffer.c"]
    assert [r for r, _ in found] == ["memory-leak"]


def test_per_file_flags_differ_between_two_files(tmp_path: Path) -> None:
    """The same code in two files, built with different flags: only the one built without a
    choice of allocator reads ``data`` unset."""
    _tree(tmp_path, {"calloc.c": BUFFER, "none.c": BUFFER.replace("buffer_init", "buffer_init2")})
    db = _database(tmp_path, {"calloc.c": "cc -DUSE_CALLOC -c calloc.c", "none.c": "cc -DUSE_MMAP -c none.c"})
    found = _check(tmp_path, ["calloc.c", "none.c"], Config(compile_commands=str(db)))
    assert found == {"calloc.c": [], "none.c": [("uninitialised-read", line_of(BUFFER, "/*R*/"))]}


def test_a_macro_from_a_header_in_an_include_folder_decides_a_branch(tmp_path: Path) -> None:
    """``<config.h>`` is in ``include/``, which includes ``features.h`` next to it: ``USE_LOCKS``
    is 1, so the lock and the unlock are both compiled in.  Without the folder ``USE_LOCKS`` may be
    defined as 0: the ``#ifdef`` unlocks what the ``#if`` did not lock."""
    _tree(tmp_path, {"src/counter.c": LOCKS, "include/config.h": CONFIG_H, "include/features.h": FEATURES_H})
    unread = _check(tmp_path, ["src/counter.c"])["src/counter.c"]
    assert sorted(r for r, _ in unread) == ["unlock-without-lock"]
    include = str(tmp_path / "include")
    by_flags = _database(tmp_path, {"src/counter.c": "cc -Iinclude -c src/counter.c"})
    for config in (
        Config(compile_commands=str(by_flags)),  # -I of compile_commands.json
        Config(include=(include,)),  # [preprocessor] include
        Config(command_include=(include,)),  # -I on the command line
    ):
        assert _check(tmp_path, ["src/counter.c"], config) == {"src/counter.c": []}
    # the twin: an early return while locked is a real bug, still found with the header read
    early = LOCKS.replace("    counter += n;\n", "    if (n < 0)\n        return -1;\n    counter += n;\n")
    _tree(tmp_path, {"src/counter.c": early})
    found = _check(tmp_path, ["src/counter.c"], Config(include=(include,)))["src/counter.c"]
    assert found == [("lock-not-released", line_of(early, "return -1;"))]  # the return that keeps it


QUOTED_LOCKS = LOCKS.replace("#include <config.h>", '#include "features.h"')


def test_a_quoted_include_nobody_said_where_is_the_projects_one_file_of_that_name(tmp_path: Path) -> None:
    """``test/counter.c`` includes ``"features.h"``, which is in the folder above (the build says
    ``-I..``); the project holds one file of that name, so it is the one read, as with the flag.
    Two files of that name (``features.h`` in two folders): ctlsp cannot tell which the build
    means, reads neither, and ``USE_LOCKS`` may again be defined as 0."""
    files = ["test/counter.c", "features.h"]
    _tree(tmp_path, {"test/counter.c": QUOTED_LOCKS, "features.h": FEATURES_H})
    alone = _check(tmp_path, files[:1])["test/counter.c"]
    assert sorted(r for r, _ in alone) == ["unlock-without-lock"]
    assert _check(tmp_path, files)["test/counter.c"] == []
    with_flag = Config(command_include=(str(tmp_path),))
    assert _check(tmp_path, files[:1], with_flag)["test/counter.c"] == []
    # the twin: the early return while locked is still found once the header is read
    early = QUOTED_LOCKS.replace("    counter += n;\n", "    if (n < 0)\n        return -1;\n    counter += n;\n")
    _tree(tmp_path, {"test/counter.c": early})
    assert _check(tmp_path, files)["test/counter.c"] == [("lock-not-released", line_of(early, "return -1;"))]
    _tree(tmp_path, {"test/counter.c": QUOTED_LOCKS, "other/features.h": "#define USE_LOCKS 0\n"})
    twice = _check(tmp_path, [*files, "other/features.h"])["test/counter.c"]
    assert sorted(r for r, _ in twice) == ["unlock-without-lock"]


def test_a_file_added_elsewhere_runs_no_preprocessor_again_while_the_include_resolves_the_same() -> None:
    project = Project()
    project.update_file("lib/features.h", FEATURES_H)
    project.update_file("test/counter.c", QUOTED_LOCKS)
    load_headers(project, {"lib/features.h": FEATURES_H})
    assert project.check()["test/counter.c"] == []
    project.db.reset_counters()
    project.update_file("lib/other.c", "int other(void) { return 0; }\n")
    load_headers(project, {"lib/features.h": FEATURES_H})
    assert project.check()["test/counter.c"] == []
    counters = project.db.counters()
    assert counters["project_header"].backdated >= 1
    assert counters["file_preprocessor"].executed == 1  # the new file's own run, no other


def test_a_header_constant_prunes_a_plain_if_and_an_include_by_configuration(tmp_path: Path) -> None:
    """``if (USE_LOCKS)`` in C, with the value from the header: the branch that never runs is gone.
    ``[preprocessor] include`` is relative to ctlsp.toml's folder."""
    src = LOCKS.replace("#ifdef USE_LOCKS\n", "#if USE_LOCKS\n")
    src = src.replace("#if USE_LOCKS\n", "    if (USE_LOCKS)\n").replace("#endif\n", "")
    _tree(tmp_path, {"src/counter.c": src, "include/config.h": CONFIG_H, "include/features.h": FEATURES_H})
    assert _check(tmp_path, ["src/counter.c"])["src/counter.c"] != []
    config = config_from_text('[preprocessor]\ninclude = ["include"]\n', tmp_path / "ctlsp.toml")
    assert config.include == (str(tmp_path / "include"),)
    assert _check(tmp_path, ["src/counter.c"], config) == {"src/counter.c": []}


def test_a_forced_include_and_the_layers_of_defines(tmp_path: Path) -> None:
    """``-include config.h`` counts before the first line.  The command line wins over the file's
    flags, which win over ctlsp.toml."""
    _tree(tmp_path, {"src/buffer.c": BUFFER, "include/alloc.h": "#define USE_MALLOC 1\n"})
    forced = _database(tmp_path, {"src/buffer.c": "cc -include include/alloc.h -c src/buffer.c"})
    assert _check(tmp_path, ["src/buffer.c"], Config(compile_commands=str(forced))) == {"src/buffer.c": []}
    undefines = _database(tmp_path, {"src/buffer.c": "cc -UUSE_CALLOC -c src/buffer.c"})
    toml = config_from_text('[preprocessor]\ndefines = ["USE_CALLOC"]\n')
    assert _check(tmp_path, ["src/buffer.c"], toml) == {"src/buffer.c": []}
    over_toml = dataclasses.replace(toml, compile_commands=str(undefines))  # the file's -U wins
    assert [r for r, _ in _check(tmp_path, ["src/buffer.c"], over_toml)["src/buffer.c"]] == ["uninitialised-read"]
    command = dataclasses.replace(over_toml, command_defines=(("USE_CALLOC", 1),))  # -D wins over both
    assert _check(tmp_path, ["src/buffer.c"], command) == {"src/buffer.c": []}


def test_a_changed_entry_rederives_only_its_file(tmp_path: Path) -> None:
    """Per-file flags are each file's own input: editing one entry of compile_commands.json
    rebuilds that file's models and nobody else's."""
    _tree(tmp_path, {"a.c": BUFFER, "b.c": BUFFER.replace("buffer_init", "buffer_init2")})
    entries = {"a.c": "cc -DUSE_CALLOC -c a.c", "b.c": "cc -DUSE_CALLOC -c b.c"}
    db = _database(tmp_path, entries)
    project = Project(Config(compile_commands=str(db)))
    for f in ("a.c", "b.c"):
        project.update_file(str(tmp_path / f), (tmp_path / f).read_text())
    load_headers(project)
    assert project.check() == {str(tmp_path / "a.c"): [], str(tmp_path / "b.c"): []}
    project.db.reset_counters()
    _database(tmp_path, {**entries, "a.c": "cc -DUSE_MMAP -c a.c"})
    project.set_header(str(db), db.read_text())  # what the server does when the file's stamp changes
    found = project.check()
    assert [f.rule_id for f in found[str(tmp_path / "a.c")]] == ["uninitialised-read"]
    assert found[str(tmp_path / "b.c")] == []
    counters = project.db.counters()
    assert counters[function_model.name].executed == 1  # a.c's one function
    assert counters[file_preprocessor.name].executed == 1


def test_the_front_end_asks_for_the_compile_database_and_headers_but_reads_none(tmp_path: Path) -> None:
    """The project names the files it wants (the database first, then the headers its entries'
    folders lead to); until they are handed in, they count as missing."""
    _tree(tmp_path, {"src/counter.c": LOCKS, "include/config.h": CONFIG_H, "include/features.h": FEATURES_H})
    db = _database(tmp_path, {"src/counter.c": "cc -Iinclude -c src/counter.c"})
    project = Project(Config(compile_commands=str(db)))
    project.update_file(str(tmp_path / "src/counter.c"), LOCKS)
    assert project.unread_headers() == [str(db)]
    handed = load_headers(project)
    assert handed[0] == str(db) and str(tmp_path / "include/features.h") in handed
    assert str(tmp_path / "include/pthread.h") in handed  # looked for in -I only, never in /usr/include
    assert not any(h.startswith("/usr/") for h in handed)
    assert list(project.files) == [str(tmp_path / "src/counter.c")]  # headers are never checked files


def test_a_malformed_database_in_the_project_counts_as_none(tmp_path: Path) -> None:
    _tree(tmp_path, {"src/buffer.c": BUFFER})
    project = Project(Config(compile_commands=str(tmp_path / "compile_commands.json")))
    project.update_file(str(tmp_path / "src/buffer.c"), BUFFER)
    project.set_header(str(tmp_path / "compile_commands.json"), "[{")
    assert project.compile_commands_error is not None and "not JSON" in project.compile_commands_error
    assert [f.rule_id for f in project.check()[str(tmp_path / "src/buffer.c")]] == ["uninitialised-read"]


_HEADER_LINE = st.sampled_from(
    [
        '#include "h0.h"', '#include "h1.h"', "#include <h2.h>", "#include <h3.h>", '#include "gone.h"',
        "#define A 1", "#define A 0", "#undef A", "#define B (A + 1)", "#ifdef A", "#if B > 1", "#ifndef C",
        "#else", "#endif", "#define C",
    ]
)  # fmt: skip


@given(st.lists(st.lists(_HEADER_LINE, max_size=8), min_size=5, max_size=5))
def test_handing_headers_in_round_by_round_ends_where_handing_all_in_at_once_does(texts: list[list[str]]) -> None:
    """What the edges do (read what the run looked at, run again) reaches the run over all the
    texts, whatever the include graph (cycles, missing headers, includes under conditionals)."""
    disk = {
        "/p/a.c": "\n".join(texts[0]),
        "/p/h0.h": "\n".join(texts[1]),
        "/p/h1.h": "\n".join(texts[2]),
        "/inc/h2.h": "\n".join(texts[3]),
        "/inc/h3.h": "\n".join(texts[4]),
    }
    whole = _run(disk, "/p/a.c", angle=("/inc",))
    handed: dict[str, str | None] = {}

    def lookup(path: str) -> tuple[Directive, ...] | None | Unread:
        if path not in handed:
            return UNREAD
        text = handed[path]
        return None if text is None else directives(text.encode())

    own = directives(disk["/p/a.c"].encode())
    for _ in range(MAX_DEPTH + 2):
        out = preprocess("/p/a.c", own, (), SearchPath((), ("/inc",)), NO_DEFINES, lookup)
        unread = [p for p in out.wanted if p not in handed]
        if not unread:
            break
        handed.update((p, disk.get(p)) for p in unread)
    assert out == whole
