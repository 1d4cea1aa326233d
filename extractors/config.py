"""User configuration: ``ctlsp.toml`` or ``[tool.ctlsp]`` in ``pyproject.toml``.

Users teach ctlsp their own APIs (allocators, lock pairs, ...) and tune rules without code, so the
file is plain data.  Any mistake becomes a :class:`ConfigError` naming the file and the 1-based line,
because a configuration that silently does nothing is worse than one that refuses to load.

Recognised keys::

    [extract]
    allocators   = ["pool_get"]            # return fresh memory (or NULL)
    nonnull_allocators = ["xmalloc"]       # return fresh memory, never NULL (abort on failure)
    deallocators = ["xfree"]               # free their first argument
    locks        = [["spin_lock", "spin_unlock"]]
    resources    = [["db_open", "db_close"]]   # acquire returns a handle, release takes it first
    uses         = ["my_strlen"]           # dereference every pointer argument
    must_check   = ["setuid"]              # return value must not be discarded
    noreturn     = ["die"]                 # never return

    [preprocessor]
    defines = ["HAVE_CONFIG_H", "LEVEL=2"] # as -D
    undefines = ["_WIN32"]                 # as -U
    include = ["include"]                  # as -I: folders headers are looked for in
    compile_commands = "build/compile_commands.json"   # per-file flags

    [library.pool_put]                     # what a library function does (extractors/library.py):
    args = ["", "free"]                    #   per argument "", "use", "read", "def", "free", "close",
                                           #   "escape", "lock", "unlock"; all_args = one of those
    returns = "alloc"                      # or "open"; nonnull = true: never NULL
    null_ok = [1]                          # positions it checks for NULL itself
    must_check = true                      # noreturn = true
    # a table for a function of the shipped library.toml overrides only the keys it gives; it
    # applies after the [extract] lists, which replace whole rows

    [rules.memory-leak]
    enabled = false                        # or severity = "error" | "warning" | "info"

    [[rules.custom]]
    id = "no-free-of-param"  formula = "E F free"  message = "frees {var}"  severity = "info"  cwe = 0
    # a formula may name the built-in atoms (extractors/rules.py PROPOSITIONS) and the [[atoms]]

    [[atoms]]                              # an atom as data (extractors/user_atoms.py)
    name = "begin"                         # letters, digits, '_'; no built-in atom's name
    query = '(call_expression function: (identifier) @f (#eq? @f "begin_tx") arguments: (argument_list . (_) @value))'
    # a tree-sitter query on the tree-sitter-c grammar; each node it captures as @value names the
    # tracked value (its access path: db, s->conn, &ctx names ctx), and the atom holds at the
    # innermost CFG node (statement, declaration, atomic condition, return, switch head) containing
    # it. Other captures serve only predicates (#eq?, #match?, #any-of?, their not-/any- forms).
    # The value is tracked like any other, so a [[rules.custom]] formula such as
    # "E F (begin & E X E (~(commit | abort) U end))" is checked for it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checker.ctl import Atom, CTLSyntaxError, atoms, parse
from extractors.preprocessor import Defines, macro_name, parse_define
from extractors.user_atoms import UserAtoms, query_problem

if TYPE_CHECKING:
    from extractors.library import CallSpec

SEVERITIES = ("error", "warning", "info")
PARTIAL_EVERY = 1.0  # seconds between partial results of a long file check (the server's default)
_EXTRACT_LISTS = ("allocators", "nonnull_allocators", "deallocators", "uses", "must_check", "noreturn")
_EXTRACT_PAIRS = ("locks", "resources")
_RULE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_ATOM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(ValueError):
    """A configuration file that cannot be used; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(f"{self.path}:{line}: {message}" if line else f"{self.path}: {message}")


@dataclass(frozen=True)
class RuleSetting:
    enabled: bool | None = None  # None: the rule's default (rules.toml ``enabled``, true unless said)
    severity: str | None = None


@dataclass(frozen=True)
class CustomRule:
    id: str
    formula: str
    message: str
    severity: str = "warning"
    cwe: int | None = None


@dataclass(frozen=True)
class Config:
    allocators: tuple[str, ...] = ()
    nonnull_allocators: tuple[str, ...] = ()
    deallocators: tuple[str, ...] = ()
    locks: tuple[tuple[str, str], ...] = ()
    resources: tuple[tuple[str, str], ...] = ()
    uses: tuple[str, ...] = ()
    must_check: tuple[str, ...] = ()
    noreturn: tuple[str, ...] = ()
    rules: dict[str, RuleSetting] = field(default_factory=dict, compare=False, hash=False)
    custom_rules: tuple[CustomRule, ...] = ()
    defines: tuple[tuple[str, int | None], ...] = ()  # [preprocessor] defines, in order
    undefines: tuple[str, ...] = ()  # [preprocessor] undefines
    include: tuple[str, ...] = ()  # [preprocessor] include, relative to the configuration's folder
    # compile_commands.json: [preprocessor] compile_commands (relative to the configuration's
    # folder), --compile-commands, or the one the edges found (server.workspace.find_config)
    compile_commands: str | None = None
    command_defines: tuple[tuple[str, int | None], ...] = ()  # -D on the command line, in order
    command_undefines: tuple[str, ...] = ()  # -U on the command line
    command_include: tuple[str, ...] = ()  # -I on the command line
    # [library.NAME] rows: (name, the row over the built-in one, the fields the user's row sets)
    library: tuple[tuple[str, CallSpec, tuple[str, ...]], ...] = ()
    atoms: UserAtoms = ()  # [[atoms]]: (name, tree-sitter query), see extractors.user_atoms
    source: str | None = None

    def configured_defines(self) -> Defines:
        """``[preprocessor] defines/undefines``: a name both defines and undefines is defined."""
        return _layer(self.defines, self.undefines)

    def command_line_defines(self) -> Defines:
        """``-D``/``-U``: the last word on every name they give, over ctlsp.toml and each file's
        compile flags (a name given to both is defined)."""
        return _layer(self.command_defines, self.command_undefines)

    def preprocessor(self) -> Defines:
        """The defines that decide preprocessor conditionals in a file without compile flags."""
        return self.configured_defines().overlaid(self.command_line_defines())

    def digest(self) -> str:
        """Hash of everything that changes findings, so cached results die with a config change."""
        return self._digest(with_rules=True)

    def extraction_digest(self) -> str:
        """Hash of what changes the models, projections and verdicts: everything but which rules
        run and how they are worded (``[rules]``), whose results are kept per rule instead."""
        return self._digest(with_rules=False)

    def _digest(self, with_rules: bool) -> str:
        from extractors.library import builtin_digest  # library.py imports this module

        data = {
            "library_file": builtin_digest(),
            "extract": [
                self.allocators,
                self.nonnull_allocators,
                self.deallocators,
                self.locks,
                self.resources,
                self.uses,
                self.must_check,
                self.noreturn,
            ],
            "library": [[n, repr(spec), list(fields)] for n, spec, fields in self.library],
            "atoms": [list(a) for a in self.atoms],
            "rules": {k: [v.enabled, v.severity] for k, v in sorted(self.rules.items())},
            "custom": [[r.id, r.formula, r.message, r.severity, r.cwe] for r in self.custom_rules],
            "preprocessor": [
                self.configured_defines().key(),
                self.command_line_defines().key(),
                self.include,
                self.command_include,
            ],
        }
        if not with_rules:
            del data["rules"], data["custom"]
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def config_from_text(text: str, path: str | Path = "ctlsp.toml") -> Config:
    return config_from_data(load_toml(text, path), text, path)


def load_toml(text: str, path: str | Path) -> dict[str, Any]:
    """TOML text as data; a :class:`ConfigError` naming ``path`` and the line when it is not TOML."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ConfigError(path, 0, "invalid TOML: arrays or tables nested too deeply") from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        line = (
            int(m.group(1)) if m else (max(1, len(text.splitlines())) if "end of document" in str(e) else 0)
        )
        raise ConfigError(path, line, f"invalid TOML: {e}") from None


def _header(table: str) -> re.Pattern[str]:
    return re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*(#.*)?$")


def line_of(text: str, table: str, key: str | None = None, nth: int = 0) -> int:
    """Best-effort 1-based line of ``key`` inside ``[table]`` (tomllib keeps no positions); a table
    written inline (``name = { ... }`` under ``[parent]`` or at the top) is its one line."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _header(table).match(line)]
    if not starts:
        parent, _, last = table.rpartition(".")
        inline = re.compile(r"^\s*" + re.escape(last) + r"\s*=")
        lo = 0
        if parent:
            above = [i for i, line in enumerate(lines) if _header(parent).match(line)]
            if not above:
                return 0
            lo = above[0] + 1
        return next((i + 1 for i in range(lo, len(lines)) if inline.match(lines[i])), 0)
    start = starts[min(nth, len(starts) - 1)]
    if key is None:
        return start + 1
    keyre = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
    for i in range(start + 1, len(lines)):
        if re.match(r"^\s*\[", lines[i]):
            break
        if keyre.match(lines[i]):
            return i + 1
    return start + 1


def config_from_data(data: dict[str, Any], text: str, path: str | Path, prefix: str = "") -> Config:
    def err(table: str, key: str | None, message: str, nth: int = 0) -> ConfigError:
        return ConfigError(path, line_of(text, prefix + table, key, nth), message)

    unknown = set(data) - {"extract", "rules", "preprocessor", "library", "atoms"}
    if unknown:
        name = sorted(unknown)[0]
        raise ConfigError(
            path,
            line_of(text, prefix + name) or _find_key(text, name),
            f"unknown section or key {name!r} (expected 'extract', 'rules', 'preprocessor', 'library' or 'atoms')",
        )
    user_atoms = _atoms(data.get("atoms", []), err)
    library = _library(data.get("library", {}), err)
    defines, undefines, include, compile_commands = _preprocessor(data.get("preprocessor", {}), err, path)
    extract = data.get("extract", {})
    if not isinstance(extract, dict):
        raise err("extract", None, "'extract' must be a table")
    lists: dict[str, tuple[str, ...]] = {}
    pairs: dict[str, tuple[tuple[str, str], ...]] = {}
    for key, value in extract.items():
        if key in _EXTRACT_LISTS:
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise err("extract", key, f"extract.{key} must be a list of function names")
            lists[key] = tuple(value)
        elif key in _EXTRACT_PAIRS:
            ok = isinstance(value, list) and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) and s for s in p)
                for p in value
            )
            if not ok:
                raise err("extract", key, f'extract.{key} must be a list of ["acquire", "release"] pairs')
            pairs[key] = tuple((p[0], p[1]) for p in value)
        else:
            known = ", ".join(_EXTRACT_LISTS + _EXTRACT_PAIRS)
            raise err("extract", key, f"unknown key extract.{key} (known: {known})")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise err("rules", None, "'rules' must be a table")
    settings: dict[str, RuleSetting] = {}
    customs: list[CustomRule] = []
    for rid, value in rules_data.items():
        if rid == "custom":
            if not isinstance(value, list):
                raise err("rules.custom", None, "rules.custom must be an array of tables ([[rules.custom]])")
            for i, item in enumerate(value):
                customs.append(_custom(item, i, err))
            continue
        if not isinstance(value, dict):
            raise err("rules", rid, f"rules.{rid} must be a table")
        enabled = value.get("enabled")
        severity = value.get("severity")
        extra = set(value) - {"enabled", "severity"}
        if extra:
            raise err(f"rules.{rid}", sorted(extra)[0], f"unknown key {sorted(extra)[0]!r} in rules.{rid}")
        if enabled is not None and not isinstance(enabled, bool):
            raise err(f"rules.{rid}", "enabled", f"rules.{rid}.enabled must be true or false")
        if severity is not None and severity not in SEVERITIES:
            raise err(f"rules.{rid}", "severity", f"severity must be one of {', '.join(SEVERITIES)}")
        settings[rid] = RuleSetting(enabled, severity)
    from extractors.rules import builtin_ids  # rules.py imports this module

    builtin = builtin_ids()
    for rid in settings:
        if rid not in builtin and rid not in {c.id for c in customs}:
            raise err(f"rules.{rid}", None, f"unknown rule {rid!r} (built-in: {', '.join(sorted(builtin))})")
    seen: set[str] = set()
    known_atoms = _builtin_atoms() | {name for name, _ in user_atoms}
    for i, r in enumerate(customs):
        if r.id in builtin:
            raise err("rules.custom", "id", f"custom rule id {r.id!r} clashes with a built-in rule", i)
        if r.id in seen:
            raise err("rules.custom", "id", f"duplicate custom rule id {r.id!r}", i)
        seen.add(r.id)
        strange = sorted(atoms(parse(r.formula)) - known_atoms)
        if strange:  # a typo would make a rule that never fires
            mine = f", [[atoms]]: {', '.join(n for n, _ in user_atoms)}" if user_atoms else ""
            raise err(
                "rules.custom",
                "formula",
                f"rule {r.id!r}: unknown atom {strange[0]!r} (built-in: {', '.join(sorted(_builtin_atoms()))}{mine})",
                i,
            )
    return Config(
        allocators=lists.get("allocators", ()),
        nonnull_allocators=lists.get("nonnull_allocators", ()),
        deallocators=lists.get("deallocators", ()),
        uses=lists.get("uses", ()),
        must_check=lists.get("must_check", ()),
        noreturn=lists.get("noreturn", ()),
        locks=pairs.get("locks", ()),
        resources=pairs.get("resources", ()),
        rules=settings,
        custom_rules=tuple(customs),
        defines=defines,
        undefines=undefines,
        include=include,
        compile_commands=compile_commands,
        library=library,
        atoms=user_atoms,
        source=str(path),
    )


def _layer(defines: tuple[tuple[str, int | None], ...], undefines: tuple[str, ...]) -> Defines:
    defined = dict(defines)  # a later value of a name wins
    return Defines(defined, frozenset(n for n in undefines if n not in defined))


def _preprocessor(
    table: Any, err: Any, path: str | Path
) -> tuple[tuple[tuple[str, int | None], ...], tuple[str, ...], tuple[str, ...], str | None]:
    """``[preprocessor]``: ``defines = ["NAME", "NAME=VALUE"]``, ``undefines = ["NAME"]``,
    ``include = ["folder"]`` and ``compile_commands = "file"``, the paths relative to the
    configuration file's folder (joined as text: nothing here looks at the disk)."""
    if not isinstance(table, dict):
        raise err("preprocessor", None, "'preprocessor' must be a table")
    extra = set(table) - {"defines", "undefines", "include", "compile_commands"}
    if extra:
        key = sorted(extra)[0]
        known = "defines, undefines, include, compile_commands"
        raise err("preprocessor", key, f"unknown key preprocessor.{key} (known: {known})")
    out: dict[str, list[str]] = {}
    for key in ("defines", "undefines", "include"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            what = "folders" if key == "include" else 'strings like "NAME" or "NAME=1"'
            raise err("preprocessor", key, f"preprocessor.{key} must be a list of {what}")
        out[key] = value
    defines: list[tuple[str, int | None]] = []
    for d in out["defines"]:
        try:
            defines.append(parse_define(d))
        except ValueError as e:
            raise err("preprocessor", "defines", f"preprocessor.defines: {e}") from None
    undefines: list[str] = []
    for u in out["undefines"]:
        try:
            undefines.append(macro_name(u))
        except ValueError as e:
            raise err("preprocessor", "undefines", f"preprocessor.undefines: {e}") from None
    here = os.path.dirname(str(path))
    commands = table.get("compile_commands")
    if commands is not None and (not isinstance(commands, str) or not commands):
        raise err("preprocessor", "compile_commands", "preprocessor.compile_commands must be a file name")
    return (
        tuple(defines),
        tuple(undefines),
        tuple(os.path.normpath(os.path.join(here, d)) for d in out["include"]),
        os.path.normpath(os.path.join(here, commands)) if commands else None,
    )


def _library(table: Any, err: Any) -> tuple[tuple[str, CallSpec, tuple[str, ...]], ...]:
    """``[library.NAME]`` rows (keys of :mod:`extractors.library`), each validated over the
    built-in row it extends, with the fields it sets (what it overrides in the call table)."""
    from extractors.library import builtin_library, fields_of, specs_of  # library.py imports this module

    if not isinstance(table, dict):
        raise err("library", None, "'library' must be a table of [library.NAME] tables")

    def at(name: str, key: str | None, message: str) -> ConfigError:
        e: ConfigError = err(f"library.{name}", key, message)
        return e if e.line else err("library", None, message)  # a quoted name: the section's line

    specs = specs_of(table, at, builtin_library(), "library.")
    return tuple((name, specs[name], fields_of(table[name])) for name in sorted(specs))


def _builtin_atoms() -> frozenset[str]:
    from extractors.rules import PROPOSITIONS  # rules.py imports this module

    return frozenset(PROPOSITIONS)


def _is_atom(name: str) -> bool:
    """Whether a formula reads ``name`` as an atom (``E``, ``true``, ``not`` are its words)."""
    try:
        return isinstance(parse(name), Atom)
    except CTLSyntaxError:
        return False


def _atoms(value: Any, err: Any) -> UserAtoms:
    """``[[atoms]]``: each entry a ``name`` (an identifier that is no built-in atom, keyword or
    earlier entry) and a ``query`` tree-sitter compiles that captures ``@value``; an error names
    the line of the entry's key."""
    if not isinstance(value, list):
        raise err("atoms", None, "'atoms' must be an array of tables ([[atoms]])")
    out: list[tuple[str, str]] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise err("atoms", None, "each [[atoms]] entry must be a table", i)
        extra = set(item) - {"name", "query"}
        if extra:
            key = sorted(extra)[0]
            raise err("atoms", key, f"unknown key {key!r} in [[atoms]] (known: name, query)", i)
        for key in ("name", "query"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise err("atoms", key if key in item else None, f"[[atoms]] needs a non-empty string {key!r}", i)
        name, query = item["name"], item["query"]
        if not _ATOM_NAME.match(name) or not _is_atom(name):
            raise err("atoms", "name", f"atom name {name!r} must be an identifier and not a CTL keyword", i)
        if name in _builtin_atoms():
            raise err("atoms", "name", f"atom {name!r} clashes with a built-in atom", i)
        if name in {n for n, _ in out}:
            raise err("atoms", "name", f"duplicate atom {name!r}", i)
        problem = query_problem(query)
        if problem is not None:
            raise err("atoms", "query", f"atom {name!r}: {problem}", i)
        out.append((name, query))
    return tuple(out)


def _find_key(text: str, key: str) -> int:
    for i, line in enumerate(text.splitlines()):
        if re.match(r"^\s*" + re.escape(key) + r"\s*=", line):
            return i + 1
    return 0


def _custom(item: Any, i: int, err: Any) -> CustomRule:
    if not isinstance(item, dict):
        raise err("rules.custom", None, "each [[rules.custom]] entry must be a table", i)
    for key in ("id", "formula", "message"):
        if not isinstance(item.get(key), str) or not item[key]:
            raise err(
                "rules.custom",
                key if key in item else None,
                f"[[rules.custom]] needs a non-empty string {key!r}",
                i,
            )
    extra = set(item) - {"id", "formula", "message", "severity", "cwe"}
    if extra:
        raise err(
            "rules.custom", sorted(extra)[0], f"unknown key {sorted(extra)[0]!r} in [[rules.custom]]", i
        )
    if not _RULE_ID.match(item["id"]):
        raise err("rules.custom", "id", f"rule id {item['id']!r} must be letters, digits, '-', '_' or '.'", i)
    try:
        parse(item["formula"])
    except CTLSyntaxError as e:
        raise err("rules.custom", "formula", f"rule {item['id']!r}: bad formula: {e}", i) from None
    severity = item.get("severity", "warning")
    if severity not in SEVERITIES:
        raise err("rules.custom", "severity", f"severity must be one of {', '.join(SEVERITIES)}", i)
    cwe = item.get("cwe")
    if cwe is not None and (not isinstance(cwe, int) or isinstance(cwe, bool)):
        raise err("rules.custom", "cwe", "cwe must be an integer", i)
    return CustomRule(item["id"], item["formula"], item["message"], severity, cwe)
