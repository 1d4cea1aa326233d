"""Configuration: loading, user extraction tables, rule settings, custom rules, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.config import Config, ConfigError, config_from_text
from extractors.rules import catalogue
from server.workspace import config_file_in, config_from_file
from tests.extractors.helpers import check_src, line_of, of_rule


def load_config(folder: Path) -> Config:
    """The configuration of ``folder`` itself (defaults when it has none)."""
    found = config_file_in(folder)
    return Config() if found is None else config_from_file(found)


def test_defaults_when_no_file(tmp_path: Path) -> None:
    cfg = load_config(tmp_path)
    assert cfg == Config()
    assert len(catalogue(cfg)) >= 11


def test_ctlsp_toml_preferred_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.ctlsp.extract]\nallocators = ["from_py"]\n')
    assert load_config(tmp_path).allocators == ("from_py",)
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = ["from_own"]\n')
    assert load_config(tmp_path).allocators == ("from_own",)


def test_invalid_toml_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = ["a"]\nlocks = [[\n')
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path)
    assert e.value.path.endswith("ctlsp.toml") and e.value.line >= 3
    assert "ctlsp.toml" in str(e.value)


@pytest.mark.parametrize(
    "text, line, words",
    [
        ('[extract]\nallocators = "xmalloc"\n', 2, "list of function names"),
        ('[extract]\n\nlocks = [["only_one"]]\n', 3, "pairs"),
        ('[extract]\nallocatorz = ["x"]\n', 2, "unknown key"),
        ('[rules.memory-leak]\nenabled = "no"\n', 2, "true or false"),
        ('[rules.memory-leak]\nseverity = "fatal"\n', 2, "severity"),
        ("\n[rules.no-such-rule]\nenabled = false\n", 2, "unknown rule"),
        ('[[rules.custom]]\nid = "a"\nformula = "E F (free &"\nmessage = "m"\n', 3, "bad formula"),
        (
            '[[rules.custom]]\nid = "a"\nformula = "E F free"\nmessage = "m"\n[[rules.custom]]\nid = "a"\n'
            'formula = "E F free"\nmessage = "m"\n',
            6,
            "duplicate",
        ),
        ('[[rules.custom]]\nid = "memory-leak"\nformula = "E F free"\nmessage = "m"\n', 2, "clashes"),
        ('[[rules.custom]]\nid = "x"\nmessage = "m"\n', 1, "formula"),
        ("[nonsense]\na = 1\n", 1, "unknown section"),
    ],
)
def test_bad_configuration_gets_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as e:
        config_from_text(text, "proj/ctlsp.toml")
    assert e.value.line == line, str(e.value)
    assert words in e.value.message
    assert str(e.value).startswith(f"proj/ctlsp.toml:{line}:")


def test_disable_rule_and_change_severity() -> None:
    cfg = config_from_text('[rules.memory-leak]\nenabled = false\n[rules.double-free]\nseverity = "info"\n')
    ids = {r.id: r for r in catalogue(cfg)}
    assert "memory-leak" not in ids and ids["double-free"].severity == "info"
    src = (
        "void f(int n) { char *p = malloc(n); if (p) { free(p); free(p); } }\n"
        "void g(int n) { char *q = malloc(n); }\n"
    )
    found = check_src(src, cfg)
    assert of_rule(found, "memory-leak") == []
    assert [f.severity for f in of_rule(found, "double-free")] == ["info"]


def test_user_allocators_deallocators_and_locks() -> None:
    cfg = config_from_text(
        '[extract]\nallocators = ["pool_get"]\ndeallocators = ["pool_put"]\n'
        'locks = [["spin_acquire", "spin_release"]]\nnoreturn = ["die"]\n'
    )
    src = """
void f(void) { char *p = pool_get(8); if (!p) return; p[0] = 1; }   /*L*/
void g(void) { char *p = pool_get(8); if (!p) return; pool_put(p); }
void h(int c) { spin_acquire(&lk); if (c) return; spin_release(&lk); }   /*K*/
void k(void) { char *p = pool_get(8); if (!p) die(); pool_put(p); }
"""
    found = check_src(src, cfg)
    assert [(f.function, f.location.start_line) for f in of_rule(found, "memory-leak")] == [
        ("f", line_of(src, "/*L*/"))
    ]
    assert [(f.function, f.location.start_line) for f in of_rule(found, "lock-not-released")] == [
        ("h", line_of(src, "/*K*/"))
    ]
    plain = check_src(src, Config())  # unknown functions: the values escape, nothing is reported
    assert of_rule(plain, "lock-not-released") == [] and of_rule(plain, "memory-leak") == []


def test_custom_rule_runs_through_the_checker() -> None:
    cfg = config_from_text(
        '[[rules.custom]]\nid = "free-param"\nformula = "E F free"\n'
        'message = "{function} frees {var}"\nseverity = "info"\ncwe = 1\n'
    )
    src = "void f(char *p) { free(p); }\nvoid g(char *p) { p[0] = 0; }\n"
    (f,) = of_rule(check_src(src, cfg), "free-param")
    assert f.message == "f frees p" and f.severity == "info" and f.cwe == 1


def test_must_check_from_config() -> None:
    cfg = config_from_text('[extract]\nmust_check = ["commit"]\n')
    src = "void f(void) { commit(); }\nint g(void) { return commit(); }\n"
    assert [f.function for f in of_rule(check_src(src, cfg), "unchecked-return")] == ["f"]


def test_nonnull_allocators_need_no_check_but_still_leak() -> None:
    src = "void f(int n) { char *p = my_xalloc(n); p[0] = 1; }\n"
    cfg = config_from_text('[extract]\nnonnull_allocators = ["my_xalloc"]\n')
    found = check_src(src, cfg)
    assert [f.rule_id for f in found] == ["memory-leak"]
    plain = config_from_text('[extract]\nallocators = ["my_xalloc"]\n')
    assert sorted(f.rule_id for f in check_src(src, plain)) == ["memory-leak", "null-dereference"]


def test_pyproject_errors_point_into_the_tool_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.ctlsp.extract]\nlocks = "nope"\n\n'
        "[tool.ctlsp.rules.double-free]\nenabled = 1\n"
    )
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path)
    assert e.value.line == 5 and e.value.path.endswith("pyproject.toml")
    rules = '[tool.ctlsp.rules.double-free]\nseverity = "error"\nenabled = 1\n'
    (tmp_path / "pyproject.toml").write_text(rules)
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path)
    assert e.value.line == 3
