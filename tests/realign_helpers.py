"""What the incremental-alignment tests (tests/test_realign*.py) share: an updated build compared
with a full build of the same project, spies on a stage's updates, rulings swapped between
groups, and a build key that stays put while others edit the code."""

from __future__ import annotations

from pathlib import Path

from test_incremental import files, rows
from test_search_shortcuts import stored_documents

from kb.pipeline.build import build

#: Not compared: the site stage's own bookkeeping (page digests; its pages are compared byte
#: for byte), and the build key (a hash of the code, which others may edit during the test).
SITE_STATE = {"site_pages", "build_state"}


def compared_rows(db_path: Path) -> dict[str, list[tuple]]:
    return {t: r for t, r in rows(db_path).items() if t not in SITE_STATE}


def assert_same_as_full(project: Path, _timings=None) -> None:
    build(["rulings"], "full", reuse=False)
    assert compared_rows(project / "out" / "rulings.db") == compared_rows(
        project / "full" / "rulings.db"
    )
    assert files(project / "out" / "site") == files(project / "full" / "site")
    # The patched search index holds the same documents as the full build's.
    assert stored_documents(project / "out" / "index") == stored_documents(
        project / "full" / "index"
    )
    for name in ("documents.json", "cards.json"):
        assert (project / "out" / "index" / name).read_bytes() == (
            project / "full" / "index" / name
        ).read_bytes()


def steady_build_key(monkeypatch) -> None:
    """Others may edit the code while these tests run: keep one build key for the test."""
    from kb.pipeline import incremental

    key = incremental.build_key(None)
    monkeypatch.setattr(incremental, "build_key", lambda lang: key)


def record(monkeypatch, owner, name: str, into: list | None = None, tag: str | None = None):
    """Spy on ``owner.name``: each call's result is appended to ``into`` (a new list if None),
    as ``(tag, result)`` when tagged; return that list."""
    calls = [] if into is None else into
    real = getattr(owner, name)

    def spy(*args):
        result = real(*args)
        calls.append(result if tag is None else (tag, result))
        return result

    monkeypatch.setattr(owner, name, spy)
    return calls


def swap_rulings(path: Path, first: int, second: int) -> None:
    """Swap the texts of two rulings of a file (1-based): each moves to the other's group."""
    head, *blocks = path.read_text(encoding="utf-8").split("\n\n")
    texts = [i for i, b in enumerate(blocks) if not b.strip()[:2].isdigit()]
    a, b = texts[first - 1], texts[second - 1]
    blocks[a], blocks[b] = blocks[b], blocks[a]
    path.write_text("\n\n".join([head, *blocks]), encoding="utf-8")
