"""Shared fixtures: where the published RSM benchmarks live (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.model import RSM
from checker.rsm_json import load_rsm

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "benchmarks" / "rsm"


def bench_file(name: str) -> Path:
    path = BENCH / name
    if not path.exists():
        pytest.skip(
            f"benchmark {name} not found at {BENCH} (expected ../shared/benchmarks/rsm/ next to the repo)"
        )
    return path


def bench_rsm(name: str) -> RSM:
    return load_rsm(bench_file(name))


def _hypothesis_profiles() -> None:
    """``CI`` runs derandomized (same examples every run); local runs explore new ones."""
    import os

    from hypothesis import HealthCheck, settings

    common = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
    settings.register_profile("ci", derandomize=True, print_blob=True, **common)  # type: ignore[arg-type]
    settings.register_profile("dev", **common)  # type: ignore[arg-type]
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


_hypothesis_profiles()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: big benchmark models; run once in CI, not in edit loops")
