"""What every handler module shares: the safety net around each handler, and the record of what a
handler registers for.

The safety net exists because an exception escaping a pygls handler is either answered with an
internal error or, for a notification, shown to the user as a popup; a checker that meets half-typed
code all day must instead log the problem and keep serving.
"""

from __future__ import annotations

import asyncio
import functools
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException

if TYPE_CHECKING:
    from server.lsp.server import CtlspServer

F = TypeVar("F", bound=Callable[..., Any])


def guarded(what: str, default: Any = None) -> Callable[[F], F]:
    """Per-request safety net: an exception is logged to the client and the request gets ``default``.

    A :class:`JsonRpcException` is not a failure but the answer the protocol asks for (invalid
    params, say), so it passes through for pygls to send. The wrapper keeps the handler's signature
    (``functools.wraps``): pygls reads it to pass the server as ``ls`` and to convert a command's
    arguments.
    """

    def wrap(fn: F) -> F:
        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(ls: CtlspServer, *args: Any) -> Any:
                try:
                    return await fn(ls, *args)
                except JsonRpcException:
                    raise
                except Exception:
                    _report_failure(ls, what)
                    return default

            return cast(F, run_async)

        @functools.wraps(fn)
        def run(ls: CtlspServer, *args: Any) -> Any:
            try:
                return fn(ls, *args)
            except JsonRpcException:
                raise
            except Exception:
                _report_failure(ls, what)
                return default

        return cast(F, run)

    return wrap


def _report_failure(ls: CtlspServer, what: str) -> None:
    """Log the exception being handled to the client, as an error naming the request."""
    ls.log(f"ctlsp: {what} failed:\n{traceback.format_exc()}", types.MessageType.Error)


class Feature(NamedTuple):
    """One LSP method a handler answers, with the options pygls advertises for it."""

    method: str
    handler: Callable[..., Any]
    options: Any = None


class Command(NamedTuple):
    """One ``workspace/executeCommand`` command and its handler."""

    name: str
    handler: Callable[..., Any]
