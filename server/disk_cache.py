"""A directory of small files used as a ``MutableMapping[str, bytes]``: the ``ctlsp check`` cache.

The front end caches model-checking results and the CLI caches per-file findings through the same
mapping, so a second run over unchanged code does almost nothing.  Several worker processes write
to it at once, hence one file per entry written atomically (temporary file + rename).  Every entry
carries its key and a checksum: a truncated, corrupt or foreign file reads as a miss instead of
poisoning the results, and the next write replaces it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path

CACHE_DIR_NAME = ".ctlsp-cache"
_MAGIC = b"ctlsp-cache-1\n"


def _name(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _checksum(key: bytes, value: bytes) -> bytes:
    return hashlib.sha256(key + b"\0" + value).hexdigest().encode()


class DiskCache(MutableMapping[str, bytes]):
    """Entries live in ``root/<2 hex>/<sha256 of key>``; the directory is created on first write."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.corrupt = 0

    def _path(self, key: str) -> Path:
        name = _name(key)
        return self.root / name[:2] / name

    def _read(self, path: Path) -> tuple[str, bytes] | None:
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        if not raw.startswith(_MAGIC):
            self.corrupt += 1
            return None
        parts = raw[len(_MAGIC) :].split(b"\n", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            self.corrupt += 1
            return None
        checksum, size, body = parts
        key, value = body[: int(size)], body[int(size) :]
        if _checksum(key, value) != checksum:
            self.corrupt += 1
            return None
        try:
            return key.decode("utf-8", "surrogatepass"), value
        except UnicodeDecodeError:
            self.corrupt += 1
            return None

    def __getitem__(self, key: str) -> bytes:
        entry = self._read(self._path(key))
        if entry is None or entry[0] != key:
            raise KeyError(key)
        return entry[1]

    def __setitem__(self, key: str, value: bytes) -> None:
        path = self._path(key)
        kb = key.encode("utf-8", "surrogatepass")
        data = _MAGIC + _checksum(kb, value) + b"\n" + str(len(kb)).encode() + b"\n" + kb + value
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return  # a read-only or full disk only costs speed, never the run

    def __delitem__(self, key: str) -> None:
        path = self._path(key)
        if self._read(path) is None:
            raise KeyError(key)
        path.unlink(missing_ok=True)

    def _files(self) -> Iterator[Path]:
        if not self.root.is_dir():
            return
        for sub in sorted(self.root.iterdir()):
            if sub.is_dir() and len(sub.name) == 2:
                for f in sorted(sub.iterdir()):
                    if not f.name.startswith("."):
                        yield f

    def __iter__(self) -> Iterator[str]:
        for f in self._files():
            entry = self._read(f)
            if entry is not None:
                yield entry[0]

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None


class Namespaced(MutableMapping[str, bytes]):
    """A view of another mapping whose keys all start with ``prefix``.

    The front end's own cache keys do not name the analyser's version; prefixing them with a digest
    of the analyser's code keeps results of an older ctlsp from being served to a newer one.
    """

    def __init__(self, inner: MutableMapping[str, bytes], prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    def __getitem__(self, key: str) -> bytes:
        return self.inner[self.prefix + key]

    def __setitem__(self, key: str, value: bytes) -> None:
        self.inner[self.prefix + key] = value

    def __delitem__(self, key: str) -> None:
        del self.inner[self.prefix + key]

    def __iter__(self) -> Iterator[str]:
        n = len(self.prefix)
        return (k[n:] for k in list(self.inner) if k.startswith(self.prefix))

    def __len__(self) -> int:
        return sum(1 for _ in self)
