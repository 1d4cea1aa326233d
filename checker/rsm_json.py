"""Load RSMs and CTL formulas from the benchmark file formats (JSON ``.rsm``, ``.ctl``, ``.zip``).

The published benchmarks ship as zips holding ``NAME.rsm`` plus ``NAME_single_usedef.ctl`` and
``NAME_usedef.ctl``; reading them in place (never unpacking into the project) keeps the data where
it is kept.  Every malformed input is reported as a :class:`ModelError` naming the file and the
offending part, because these files are hand-edited and a bare ``KeyError`` says nothing useful.
"""

from __future__ import annotations

import json
import reprlib
import zipfile
import zlib
from pathlib import Path
from typing import Any

from checker.ctl import CTLSyntaxError, Formula, parse_file
from checker.model import RSM, Box, Component, ModelError, Node, Ref, build_rsm

_SHOW = reprlib.Repr()
_SHOW.maxlevel, _SHOW.maxstring, _SHOW.maxother, _SHOW.maxlist, _SHOW.maxdict = 3, 60, 60, 6, 6


def brief(raw: Any) -> str:
    """A bounded one-line rendering of a bad value (the value can be huge or deeply nested)."""
    return _SHOW.repr(raw)


def _ref(raw: Any, where: str) -> Ref:
    if not isinstance(raw, dict):
        raise ModelError(f"{where}: a reference must be an object, got {brief(raw)}")
    kind = raw.get("type")
    if kind == "node":
        name = raw.get("name", raw.get("node"))
        if not isinstance(name, str):
            raise ModelError(f"{where}: node reference without a 'name'/'node' string: {brief(raw)}")
        return name
    if kind == "box_node":
        box, node = raw.get("box_name"), raw.get("node_name")
        if not isinstance(box, str) or not isinstance(node, str):
            raise ModelError(f"{where}: box_node reference needs 'box_name' and 'node_name': {brief(raw)}")
        return (box, node)
    raise ModelError(f"{where}: reference type must be 'node' or 'box_node', got {brief(kind)}")


def _str_list(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ModelError(f"{where}: expected a list of names, got {brief(raw)}")
    return tuple(raw)


def _field(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in obj:
        raise ModelError(f"{where}: missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        raise ModelError(f"{where}: field {key!r} must be a {kind.__name__}, got {type(value).__name__}")
    return value


def _component(raw: Any, where: str) -> Component:
    if not isinstance(raw, dict):
        raise ModelError(f"{where}: a component must be an object")
    name = _field(raw, "name", str, where)
    where = f"{where} ({brief(name)})"
    nodes = []
    for i, n in enumerate(raw.get("nodes") or []):
        nw = f"{where}, node #{i}"
        if not isinstance(n, dict):
            raise ModelError(f"{nw}: a node must be an object")
        nodes.append(
            Node(
                _field(n, "name", str, nw),
                frozenset(_str_list(n.get("labels"), f"{nw} labels")),
                bool(n.get("is_entry", False)),
                bool(n.get("is_exit", False)),
            )
        )
    boxes = []
    for i, b in enumerate(raw.get("boxes") or []):
        bw = f"{where}, box #{i}"
        if not isinstance(b, dict):
            raise ModelError(f"{bw}: a box must be an object")
        boxes.append(
            Box(
                _field(b, "name", str, bw),
                _field(b, "component", str, bw),
                _str_list(b.get("call_nodes"), f"{bw} call_nodes"),
                _str_list(b.get("return_nodes"), f"{bw} return_nodes"),
            )
        )
    edges: list[tuple[Ref, Ref]] = []
    for i, t in enumerate(raw.get("transitions") or []):
        tw = f"{where}, transition #{i}"
        if not isinstance(t, dict):
            raise ModelError(f"{tw}: a transition must be an object")
        src = _ref(t.get("source"), f"{tw} source")
        targets = _field(t, "targets", list, tw)
        edges.extend((src, _ref(x, f"{tw} target")) for x in targets)
    return Component(name, tuple(nodes), tuple(boxes), tuple(edges))


def rsm_from_json(data: Any, source: str = "<json>") -> RSM:
    """Build an RSM from parsed JSON; errors name ``source`` and the offending element."""
    try:
        if not isinstance(data, dict):
            raise ModelError("top level must be an object")
        comps = _field(data, "components", list, "top level")
        init_c = _field(data, "initial_component", str, "top level")
        init_n = _field(data, "initial_node", str, "top level")
        return build_rsm([_component(c, f"component #{i}") for i, c in enumerate(comps)], init_c, init_n)
    except ModelError as e:
        raise ModelError(f"{source}: {e}") from None


def _zip_member(zf: zipfile.ZipFile, suffix: str, path: Path) -> str:
    names = [n for n in zf.namelist() if n.endswith(suffix) and not n.startswith("__MACOSX")]
    stem = f"{path.stem}{suffix}"
    exact = [n for n in names if n.rsplit("/", 1)[-1] == stem]
    pick = exact or names
    if not pick:
        raise ModelError(f"{path}: the zip holds no *{suffix} member")
    return zf.read(pick[0]).decode("utf-8")


def _read_text(path: Path, zip_suffix: str) -> str:
    try:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                return _zip_member(zf, zip_suffix, path)
        return path.read_text(encoding="utf-8")
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, UnicodeDecodeError) as e:
        raise ModelError(f"{path}: cannot read: {e}") from None
    except (NotImplementedError, RuntimeError) as e:  # unsupported compression, encrypted member
        raise ModelError(f"{path}: cannot read the zip: {e}") from None


def load_rsm(path: str | Path) -> RSM:
    """An RSM from a JSON ``.rsm`` file or from ``NAME.rsm`` inside ``NAME.zip``."""
    p = Path(path)
    text = _read_text(p, ".rsm")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ModelError(f"{p}: not a model: arrays or objects nested too deeply") from None
    except ValueError as e:  # JSONDecodeError, or a number too long to convert
        raise ModelError(f"{p}: not valid JSON: {e}") from None
    return rsm_from_json(data, str(p))


def load_ctl(path: str | Path, which: str = "single_usedef") -> list[tuple[int, Formula]]:
    """Formulas with line numbers from a ``.ctl`` file, or from ``NAME_<which>.ctl`` in a zip.

    Syntax errors become :class:`ValueError` messages that name the file (the line is in the text).
    """
    p = Path(path)
    text = _read_text(p, f"_{which}.ctl")
    try:
        return parse_file(text)
    except CTLSyntaxError as e:
        raise ValueError(f"{p}: {e}") from None
