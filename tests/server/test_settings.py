"""Settings merging: editor settings over ctlsp.toml, with every unusable value reported, not fatal."""

from __future__ import annotations

import json
from pathlib import Path

from extractors.config import Config, RuleSetting, config_from_text
from server.lsp.settings import KNOWN_KEYS, load_workspace_config, merge_settings

REPO = Path(__file__).resolve().parents[2]

RULES = ["memory-leak", "double-free"]


def test_settings_extend_the_file_lists_and_toggle_rules() -> None:
    base = config_from_text('[extract]\nallocators = ["xmalloc"]\n[rules.double-free]\nseverity = "error"\n')
    merged = merge_settings(
        base,
        {
            "allocators": ["my_alloc", "xmalloc"],
            "locks": [["spin_lock", "spin_unlock"]],
            "rules": {"memory-leak": False},
            "severities": {"double-free": "info"},
            "includePaths": ["/opt/include"],
            "debounceMs": 0,
            "partialResultsMs": 250,
            "interpreter": "/usr/bin/python3",
        },
        RULES,
    )
    assert merged.problems == []
    assert merged.config.allocators == ("xmalloc", "my_alloc")
    assert merged.config.locks == (("spin_lock", "spin_unlock"),)
    assert merged.config.rules["memory-leak"] == RuleSetting(False, None)
    assert merged.config.rules["double-free"] == RuleSetting(None, "info")  # enabled: the rule's default
    assert merged.settings.include_paths == ("/opt/include",)
    assert merged.settings.debounce_ms == 0
    assert merged.settings.partial_results_ms == 250


def test_bad_values_become_problems_and_are_ignored() -> None:
    merged = merge_settings(
        Config(),
        {
            "allocatorz": [],
            "allocators": "malloc",
            "locks": [["a"]],
            "rules": {"nope": False, "memory-leak": 1},
            "severities": {"double-free": "fatal"},
            "debounceMs": -5,
            "partialResultsMs": True,
        },
        RULES,
    )
    text = "\n".join(merged.problems)
    for expected in (
        "ctlsp.allocatorz",
        "ctlsp.allocators",
        "ctlsp.locks",
        "'nope'",
        "ctlsp.rules.memory-leak",
        "ctlsp.severities.double-free",
        "ctlsp.debounceMs",
        "ctlsp.partialResultsMs",
    ):
        assert expected in text
    assert merged.config.allocators == ()
    assert merged.settings.debounce_ms == 150
    assert merged.settings.partial_results_ms == 1000
    assert merge_settings(Config(), ["not", "an", "object"]).problems


def test_broken_ctlsp_toml_gives_defaults_and_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = "oops"\n')
    config, problems = load_workspace_config(tmp_path)
    assert config == Config()
    assert len(problems) == 1 and "ctlsp.toml:2" in problems[0]
    (tmp_path / "ctlsp.toml").write_text('[extract]\nallocators = ["a"]\n')
    config, problems = load_workspace_config(tmp_path)
    assert config.allocators == ("a",) and problems == []


def test_deep_custom_formula_and_deep_toml_are_problems_not_crashes(tmp_path: Path) -> None:
    """The server reads ctlsp.toml through the same parser as the CLI: a formula or a TOML value
    nested thousands deep is one problem naming the file, and the defaults apply."""
    (tmp_path / "ctlsp.toml").write_text(
        '[[rules.custom]]\nid = "deep"\nmessage = "m"\nformula = "' + "(" * 5000 + "free" + ")" * 5000 + '"\n'
    )
    config, problems = load_workspace_config(tmp_path)
    assert config == Config()
    assert len(problems) == 1 and "ctlsp.toml:4" in problems[0] and "levels deep" in problems[0]
    (tmp_path / "ctlsp.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    config, problems = load_workspace_config(tmp_path)
    assert config == Config()
    assert len(problems) == 1 and "ctlsp.toml" in problems[0] and "nested too deeply" in problems[0]


def test_every_setting_the_extension_declares_is_known_to_the_server() -> None:
    """A setting the extension declares but the server does not know draws an "unknown ctlsp
    setting" warning at every start (as ``importStrategy`` once did) if the client forwards it."""
    manifest = json.loads((REPO / "vscode-extension" / "package.json").read_text())
    declared = {key.split(".")[1] for key in manifest["contributes"]["configuration"]["properties"]}
    assert declared and declared <= KNOWN_KEYS, sorted(declared - KNOWN_KEYS)
    merged = merge_settings(Config(), dict.fromkeys(declared - {"rules", "severities"}), RULES)
    assert not [p for p in merged.problems if "unknown ctlsp setting" in p]


def test_an_unknown_rule_id_is_ignored_and_the_valid_settings_beside_it_apply() -> None:
    """Issue #15: ``{"no-such-rule": false, "memory-leak": false}`` used to keep the unknown id in the
    configuration, which the catalogue then refused (blaming a ctlsp.toml that does not exist), so the
    server kept the previous configuration. The unknown id is named and left out; the rest applies."""
    from extractors.api import catalogue

    known = [r.id for r in catalogue(Config())]
    raw = {"rules": {"no-such-rule": False, "memory-leak": False}, "severities": {"nope": "info"}}
    merged = merge_settings(Config(), raw, known)
    assert merged.problems == [
        "ctlsp.rules: unknown rule 'no-such-rule' (ignored)",
        "ctlsp.severities: unknown rule 'nope' (ignored)",
    ]
    assert set(merged.config.rules) == {"memory-leak"} and not merged.config.rules["memory-leak"].enabled
    ids = {r.id for r in catalogue(merged.config)}  # raised ConfigError before
    assert "memory-leak" not in ids and "double-free" in ids
