"""A real server subprocess (``python -m server serve``) driven by pytest-lsp's real client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import SERVER


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    # Each test initializes the session itself (its own workspace folder and capabilities).
    registrations: list[types.Registration] = []
    lsp_client.registrations = registrations  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    yield
    await lsp_client.shutdown_session()
