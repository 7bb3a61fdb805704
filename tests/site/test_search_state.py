"""The browser index's state between builds: an index written from a previous build's state is
the index written from scratch, and only what changed is read and analysed."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest
from test_search_index import seed_docs

from kb.site import search_index as si
from kb.site import search_state
from kb.site.search_state import Texts


def grouped(docs: list[dict], size: int = 3) -> dict[str, list[dict]]:
    """The seed documents in groups of ``size`` (ids g00, g01, ...)."""
    out: dict[str, list[dict]] = {}
    for i, doc in enumerate(docs):
        out.setdefault(f"g{i // size:02d}", []).append(doc)
    return out


def index(folder, groups, previous=None, changed=None, asked=None):
    """Write the index of ``groups`` into ``folder/search`` and its state into ``folder``, from
    the state ``previous`` kept; ``asked`` collects the group ids read."""
    saved = search_state.load(previous)
    texts = Texts(si.analyse, saved.texts if saved else None)

    def read(ids):
        if asked is not None:
            asked.extend(ids)
        return {g: groups[g] for g in ids}

    documents, _ = search_state.assemble(sorted(groups), texts, read, saved, changed)
    flat = [m for g in documents.groups for m in groups[g]]

    def chunk(number):
        low = number * si.DOCS_PER_CHUNK
        return [
            si.document(m, f"ruling/{low + i}.html")
            for i, m in enumerate(flat[low : low + si.DOCS_PER_CHUNK])
        ]

    folder.mkdir(parents=True, exist_ok=True)
    si.write_index(
        folder / "search",
        documents.parts,
        documents.group_of.tolist(),
        texts,
        chunk,
        si._write_text,
    )
    search_state.save(folder, texts, documents)
    return texts, documents


def files(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def edited(groups: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """One ruling reworded (g03), one group gone (g05), one new (g05a: a split's id sorts next
    to its origin), holding a new text and a text seen before."""
    out = {g: list(members) for g, members in groups.items() if g != "g05"}
    first = out["g03"][0]
    out["g03"][0] = {**first, "text": first["text"] + " Neu formuliert."}
    seen = groups["g07"][0]
    out["g05a"] = [
        {**seen, "card": "Karte ohne Vorbild"},
        {**seen, "text": "Ein ganz neuer Text über die Initiative."},
    ]
    return out


@pytest.fixture()
def first(tmp_path):
    groups = grouped(seed_docs())
    index(tmp_path / "first", groups)
    return groups, tmp_path / "first"


def test_an_index_written_from_the_state_is_the_index_written_from_scratch(first, tmp_path):
    groups, before = first
    after = edited(groups)
    index(tmp_path / "full", after)
    index(tmp_path / "again", after, previous=before, changed={"g03", "g05", "g05a"})
    assert files(tmp_path / "again" / "search") == files(tmp_path / "full" / "search")
    # The state the incremental build kept serves the next build as well.
    once_more = {**after, "g01": [{**after["g01"][0], "text": "Kurz."}, *after["g01"][1:]]}
    index(tmp_path / "full2", once_more)
    index(tmp_path / "again2", once_more, previous=tmp_path / "again", changed={"g01"})
    assert files(tmp_path / "again2" / "search") == files(tmp_path / "full2" / "search")


def test_only_changed_groups_are_read_and_only_new_texts_analysed(first, tmp_path):
    groups, before = first
    after = edited(groups)
    asked = []
    texts, _ = index(
        tmp_path / "again", after, previous=before, changed={"g03", "g05", "g05a"}, asked=asked
    )
    assert asked == ["g03", "g05a"]
    # New: g03's reworded text; g05a's new card name and new text (its other parts are known).
    assert texts.analysed == 3


def test_without_a_state_everything_is_read(first, tmp_path):
    groups, _ = first
    asked = []
    texts, _ = index(
        tmp_path / "again", groups, previous=tmp_path / "nowhere", changed=set(), asked=asked
    )
    assert asked == sorted(groups)
    assert texts.analysed == len(
        {(d[part], d["lang"]) for g in groups.values() for d in g for part in ("card", "text")}
    )


def test_a_missing_corrupt_or_other_version_state_is_not_used(first, tmp_path):
    _, before = first
    assert search_state.load(before) is not None
    assert search_state.load(None) is None
    assert search_state.load(tmp_path / "nowhere") is None
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / search_state.FILE).write_bytes((before / search_state.FILE).read_bytes()[:200])
    assert search_state.load(broken) is None
    other = tmp_path / "other"
    other.mkdir()
    with np.load(before / search_state.FILE, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    np.savez(other / search_state.FILE, **{**arrays, "version": np.array([99])})
    assert search_state.load(other) is None
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    np.savez(pickled / search_state.FILE, **{**arrays, "groups": np.array([{"a": 1}])})
    assert search_state.load(pickled) is None  # an object array is never unpickled


def test_the_state_keeps_only_the_texts_documents_use(first, tmp_path):
    groups, before = first
    after = {g: members for g, members in groups.items() if g < "g05"}
    index(tmp_path / "fewer", after, previous=before, changed=set(groups) - set(after))
    saved = search_state.load(tmp_path / "fewer")
    used = {
        search_state.text_key(d[part], d["lang"])
        for g in after.values()
        for d in g
        for part in ("card", "text")
    }
    assert set(saved.texts["keys"]) == used and len(saved.texts["keys"]) == len(used)
    assert len(saved.texts["lengths"]) == len(used)
    assert saved.groups == sorted(after)
    assert int(saved.parts.max()) == len(used) - 1
    with zipfile.ZipFile(tmp_path / "fewer" / search_state.FILE) as saved_zip:
        assert all(name.endswith(".npy") for name in saved_zip.namelist())


def test_same_chunks_are_the_ones_holding_the_same_documents_at_the_same_numbers():
    from kb.site.search_index import DOCS_PER_CHUNK
    from kb.site.search_state import same_chunks

    size = si.DOCS_PER_CHUNK
    source = np.arange(3 * size + 2)  # the previous build had as many documents
    source[size + 1] = -1  # read anew: the second chunk changed
    documents = search_state.Documents(
        ["g"], np.array([0, len(source)]), np.zeros((len(source), 2), dtype=np.int64), source
    )
    assert same_chunks(documents, len(source), DOCS_PER_CHUNK).tolist() == [True, False, True, True]
    # One document more than before: the last chunk holds another document now.
    assert same_chunks(documents, len(source) - 1, DOCS_PER_CHUNK).tolist() == [
        True,
        False,
        True,
        False,
    ]
