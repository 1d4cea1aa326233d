"""Server-initiated $/progress for long checks (window/workDoneProgress/create, then begin/report/end).

A whole-workspace check can take seconds; the progress bar tells the user the server is busy rather
than broken.  Clients without workDoneProgress support simply get no bar.
"""

from __future__ import annotations

import itertools
import logging
import uuid

from lsprotocol import types
from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)
_counter = itertools.count(1)


class WorkProgress:
    def __init__(self, server: LanguageServer, title: str) -> None:
        self.server = server
        self.title = title
        self.token: str | None = None

    async def begin(self, message: str = "") -> None:
        window = self.server.client_capabilities.window
        if not (window and window.work_done_progress):
            return
        token = f"ctlsp-{next(_counter)}-{uuid.uuid4().hex[:8]}"
        try:
            await self.server.work_done_progress.create_async(token)
        except Exception as e:  # the client refused; checking goes on without a bar
            log.info("progress refused: %s", e)
            return
        self.token = token
        self.server.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(title=self.title, message=message, percentage=0, cancellable=False),
        )

    def report(self, message: str, percentage: int) -> None:
        if self.token is not None:
            self.server.work_done_progress.report(
                self.token,
                types.WorkDoneProgressReport(message=message, percentage=max(0, min(percentage, 100))),
            )

    def end(self, message: str = "") -> None:
        if self.token is not None:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self.token = None
