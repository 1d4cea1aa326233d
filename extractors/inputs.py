"""The front end's inputs (what the edges set through :class:`extractors.api.Project`) and its
database, with the side tables extraction keeps beside the memos.

    SOURCE(path)      a C file's text
    HEADER(path)      a header's text as the edge read it, None when it cannot be read
    FLAGS(path)       a file's compile flags (``compile_commands.json``); unset: none
    SETTINGS(())      the configuration's digest, the call table it gives, its defines and folders
    PROJECT_FILES(()) the paths of the whole program (unset: each file's own static facts only)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node as TSNode

from checker.querydb import Database, Input
from extractors.calls import CallSpec
from extractors.compile_flags import FileFlags
from extractors.pieces import Piece
from extractors.preprocessor import NO_DEFINES, Defines
from extractors.user_atoms import UserAtoms

if TYPE_CHECKING:
    from extractors.findings import Unmodelled
    from extractors.functions import FunctionModel

    Built = FunctionModel | Unmodelled | None


@dataclass(frozen=True)
class Settings:
    """The configuration as the queries read it.  Defines in three layers, the later winning:
    ``defines`` (``[preprocessor]`` of ctlsp.toml), each file's compile flags (``FLAGS``), then
    ``command`` (``-D``/``-U`` on the command line, the user's last word).  Header folders: the
    command line's ``-I`` first, then the file's flags, then ``include`` of ctlsp.toml."""

    config_digest: str  # what of the configuration extraction reads (Config.extraction_digest: not the rules)
    table: dict[str, CallSpec] = field(compare=False)
    defines: Defines = field(default=NO_DEFINES, compare=False)
    command: Defines = field(default=NO_DEFINES, compare=False)
    command_include: tuple[str, ...] = field(default=(), compare=False)
    include: tuple[str, ...] = field(default=(), compare=False)
    atoms: UserAtoms = field(default=(), compare=False)  # [[atoms]] (named by config_digest)


SOURCE = Input[str, str]("source")
HEADER = Input[str, "str | None"]("header")
FLAGS = Input[str, FileFlags]("flags")
SETTINGS = Input[tuple[()], Settings]("settings", durable=True)  # the configuration changes seldom
PROJECT_FILES = Input[tuple[()], frozenset[str]]("project_files")


class FrontDb(Database):
    """The database with a log of what extraction did, for the counters users see (``--stats``),
    written only by executions of ``function_model``, so it counts real rebuilds; and hints that
    save work but never change a result:

    - ``parsed``: per file, the definitions the last reading of its pieces parsed, by name and
      padded text, for ``function_model`` to build from instead of parsing the text again.  A
      definition is offered only when parsing its text alone gives the same tree
      (``items._reusable``), so what the query returns does not depend on whether it was there.
    - ``cuts``: per file, its text and pieces when last cut, from which the next text is cut
      again (:func:`extractors.pieces.recut` gives exactly what cutting from scratch gives).
    - ``handed``: models another process built, by path, name and model key (a digest of the
      text and of the context the model is built in, which is all a model is made of), for
      ``function_model`` to take when its own key is the same (:meth:`hand`).
    - ``handed_parts``: what another process's ``piece_items`` gave for a piece (a piece is its
      own key: its text and the conditionals open where it starts), and whether it read the
      settings, for ``piece_items`` to return with the same dependency (:meth:`hand_part`);
      ``settings_read``, when not None, collects the pieces whose reading read them, for such a
      process to say so.
    - ``early_parsed``: per file, the definitions its pieces' reading parsed before the file's
      items were read (:meth:`Project.read_pieces`), which that reading takes as its own."""

    def __init__(self, max_weight: int) -> None:
        super().__init__(max_weight)
        self.built = 0
        self.failed = 0
        self.reused = 0  # models a check found current, built before this run (counted by ``scope_content``)
        self.errors: list[str] = []  # the last few messages behind ``failed``
        self.parsed: dict[str, dict[tuple[str, bytes], TSNode]] = {}
        self.fresh: dict[tuple[str, bytes], TSNode] = {}  # what the pieces read now parsed
        self.cuts: dict[str, tuple[bytes, tuple[Piece, ...]]] = {}
        self.handed: dict[tuple[str, str, str], Built] = {}
        self.handed_parts: dict[Piece, tuple[object, bool]] = {}
        self.settings_read: set[Piece] | None = None
        self.early_parsed: dict[str, dict[tuple[str, bytes], TSNode]] = {}
        self.ahead: set[tuple[str, str, bytes]] = set()  # models built ahead of a check, not reused by it

    def take_ahead(self, key: tuple[str, str, bytes]) -> bool:
        if key in self.ahead:
            self.ahead.discard(key)
            return True
        return False

    def hand(self, path: str, name: str, model_key: str, model: Built) -> None:
        self.handed[(path, name, model_key)] = model

    def take_handed(self, path: str, name: str, model_key: str) -> tuple[Built] | None:
        """The model handed in under this key, once (in a tuple: a handed model may be None)."""
        key = (path, name, model_key)
        return (self.handed.pop(key),) if key in self.handed else None

    def hand_part(self, piece: Piece, part: object, read_settings: bool) -> None:
        self.handed_parts[piece] = (part, read_settings)

    def take_handed_part(self, piece: Piece) -> tuple[object, bool] | None:
        """What another process read of ``piece``, once."""
        return self.handed_parts.pop(piece, None)

    def take_parsed(self, path: str, name: str, text: bytes) -> TSNode | None:
        return self.parsed.get(path, {}).pop((name, text), None)

    def forget_file(self, path: str) -> None:
        """Drop the hints about a file that left the project (and so its trees)."""
        self.parsed.pop(path, None)
        self.early_parsed.pop(path, None)
        self.cuts.pop(path, None)
        for k in [k for k in self.handed if k[0] == path]:
            del self.handed[k]
