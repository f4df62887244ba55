"""Fuzzing the history importers: every export format, mutated by hypothesis, either imports
or is refused with a MemoryFileError, and never leaves the store half-written (split from
test_importers.py, whose example exports it reuses)."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# tests/ is on sys.path: the example exports of the importer tests
from test_importers import (  # noqa: E402
    T0,
    chatgpt_export,
    claude_export,
    files_of,
    jan_threads,
    openwebui_export,
    write_json,
)

from hela_desktop.memfile import MemoryFileError, import_file
from hela_desktop.store import Store


# -------------------------------------------------------------------------- fuzz ------
@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz-base")
    with Store(base / "tpl") as s:
        s.add_episode("I keep a diary", "", None, created_at=T0)
    return base


_FUZZ = settings(max_examples=30, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids,
                                                              max_size=3),
    max_leaves=8)


def _paths(obj, prefix=()):
    """Every (path to a value) inside a JSON value."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _mutate(data, obj):
    """Put random JSON values at random places of a valid export (or delete them)."""
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(obj) if p]
        if not paths:
            break
        p = data.draw(st.sampled_from(paths))
        parent = obj
        for k in p[:-1]:
            parent = parent[k]
        if data.draw(st.booleans()) or isinstance(parent, list):
            parent[p[-1]] = data.draw(_json)
        else:
            del parent[p[-1]]
    return obj


def _fuzz_import(base: Path, write, embedder) -> None:
    """Import what `write(folder)` makes into a copy of the base store: either it imports
    cleanly, or it is refused with one line and the store's files are unchanged."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        data = tmp / "data"
        shutil.copytree(base / "tpl", data)
        path = write(tmp)
        before = files_of(data)
        with Store(data) as store:
            try:
                import_file(store, path, embedder=embedder)
            except MemoryFileError as err:
                assert str(err).startswith(str(path)) and "\n" not in str(err)
                store.close()
                assert files_of(data) == before
                return
            assert store.integrity_ok()
            again = import_file(store, path, embedder=embedder)
            assert sum(again.added.values()) == 0


@_FUZZ
@given(st.data())
@pytest.mark.slow
def test_fuzz_chatgpt(fuzz_store, embedder, data):
    obj = _mutate(data, chatgpt_export()[:2])
    _fuzz_import(fuzz_store, lambda d: write_json(d / "conversations.json", obj), embedder)


@_FUZZ
@given(st.data())
def test_fuzz_claude(fuzz_store, embedder, data):
    obj = _mutate(data, claude_export())
    _fuzz_import(fuzz_store, lambda d: write_json(d / "conversations.json", obj), embedder)


@_FUZZ
@given(st.data())
def test_fuzz_openwebui(fuzz_store, embedder, data):
    obj = _mutate(data, openwebui_export())
    _fuzz_import(fuzz_store, lambda d: write_json(d / "export.json", obj), embedder)


@_FUZZ
@given(st.data())
def test_fuzz_jan(fuzz_store, embedder, data):
    def write(d: Path) -> Path:
        folder = jan_threads(d)
        f = folder / "threads" / "jan_1714000000" / "messages.jsonl"
        lines = [json.loads(x) for x in f.read_text(encoding="utf-8").splitlines()]
        lines = _mutate(data, lines)
        f.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
        return folder

    _fuzz_import(fuzz_store, write, embedder)


@_FUZZ
@given(texts=st.lists(st.text(max_size=200) | st.binary(max_size=200), min_size=1, max_size=3),
       links=st.lists(st.sampled_from(["[[n0]]", "[[n1#h]]", "[[n2|x]]", "![[n0]]", "[[]]",
                                       "[[#h]]", "# h", "---", "```"]), max_size=4))
def test_fuzz_notes(fuzz_store, embedder, texts, links):
    def write(d: Path) -> Path:
        v = d / "vault"
        v.mkdir()
        for i, t in enumerate(texts):
            raw = t if isinstance(t, bytes) else (t + "\n" + "\n".join(links)).encode(
                "utf-8", "surrogatepass")
            (v / f"n{i}.md").write_bytes(raw)
        return v

    _fuzz_import(fuzz_store, write, embedder)


@_FUZZ
@given(data=st.binary(max_size=600), head=st.sampled_from([b"", b"[", b"[{", b"{", b"PK"]))
def test_fuzz_random_bytes(fuzz_store, embedder, data, head):
    def write(d: Path) -> Path:
        (d / "conversations.json").write_bytes(head + data)
        return d / "conversations.json"

    _fuzz_import(fuzz_store, write, embedder)


# --------------------------------------------------------------------------- app ------
