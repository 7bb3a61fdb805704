"""The same corpus gives the same site, byte for byte, wherever it is built."""

from __future__ import annotations

import shutil

from site_helpers import CORPUS, build_site


def files(site):
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_same_corpus_same_bytes(seed_site, tmp_path):
    shutil.copytree(CORPUS, tmp_path / "rulings")
    again = build_site(tmp_path / "rulings", tmp_path / "elsewhere" / "_build")
    first, second = files(seed_site), files(again)
    assert sorted(first) == sorted(second)
    differing = [name for name in first if first[name] != second[name]]
    assert differing == []
    assert len(first) > 300
