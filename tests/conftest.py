"""Shared fixtures: paths to the seed corpus, the glossary and helpers to write ruling files;
the builds that the modules of one theme share; the grouping of tests for parallel runs
(pytest-xdist's --dist loadgroup)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rulings"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks into node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that uses a module- or session-scoped fixture of ours (a built corpus, a browser)
    runs on the same worker as the rest of its module, so each worker builds that fixture at
    most once; every other test is scheduled alone, so the long self-contained tests (a build
    from scratch each) spread over the workers."""
    if not getattr(config.option, "loadgroup", False):  # set by xdist for --dist loadgroup
        return
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:  # not a plain test function (a doctest): nothing to share
            continue
        # pytest's own fixtures (tmp_path_factory) have an empty baseid: they cost nothing.
        if any(
            d.scope != "function" and d.baseid
            for defs in info.name2fixturedefs.values()
            for d in defs
        ):
            item.add_marker(pytest.mark.xdist_group(item.path.relative_to(ROOT).as_posix()))


@pytest.fixture
def seeds() -> list[Path]:
    """The five seed files of the corpus, sorted by name."""
    return sorted(CORPUS.glob("*.txt"))


@pytest.fixture(scope="session")
def g():
    """The shipped glossary (kb/reference/glossary.yaml), loaded once."""
    from kb.reference import glossary

    return glossary.load()


@pytest.fixture
def corpus_copy(tmp_path) -> Path:
    """A writable copy of the seed corpus."""
    target = tmp_path / "rulings"
    shutil.copytree(CORPUS, target)
    return target


@pytest.fixture
def write(tmp_path):
    """Write bytes or text to a file under tmp_path and return its path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        return path

    return _write


@pytest.fixture(scope="session")
def synthetic(tmp_path_factory) -> Path:
    """The search index of 2,000 synthetic rulings (tests/synthetic.py): many near-identical
    card-specific texts, so each language's postings span several blocks and scores tie by
    the thousand."""
    from synthetic import generate

    from kb.pipeline.build import build

    folder = tmp_path_factory.mktemp("synth")
    generate(folder, 2000)
    build([str(folder / "rulings")], folder / "_build")
    return folder / "_build" / "index"


# -- builds shared by the modules of one theme ------------------------------------------------
# Each is made at most once per process (per xdist worker). Their names are used by no module's
# own fixture (``built`` in test_cli.py, ``seeds_db`` in test_link_corpora.py are other builds).


@pytest.fixture(scope="session")
def search_build(tmp_path_factory) -> Path:
    """The seed corpus built into a _build folder: the search tests' store and index
    (test_search.py, test_search_shortcuts.py)."""
    from kb.pipeline.build import build

    out = tmp_path_factory.mktemp("search") / "_build"
    build([str(CORPUS)], out)
    return out


@pytest.fixture(scope="session")
def index(search_build) -> Path:
    """The whoosh index of ``search_build``."""
    return search_build / "index"


@pytest.fixture(scope="session")
def checks_db(tmp_path_factory):
    """The seeds without their suppressions, run up to the check stage: the checks' tests'
    store (test_check.py, test_check_copies.py)."""
    from check_helpers import store_of

    work = tmp_path_factory.mktemp("seeds")
    corpus = work / "rulings"
    shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("suppressions.toml"))
    return store_of(corpus, work)


@pytest.fixture(scope="session")
def robustness_build(tmp_path_factory) -> Path:
    """The seeds built by `kb build` in a project folder (test_robustness_support.seed_build)."""
    from test_robustness_support import seed_build

    return seed_build(tmp_path_factory)


@pytest.fixture
def proj(tmp_path, robustness_build) -> Path:
    """A user's project: the corpus, a previous build, a .git folder and notes (the robustness
    tests: test_robustness.py, test_robustness_input.py)."""
    from test_robustness_support import project

    return project(tmp_path / "proj", robustness_build)


@pytest.fixture()
def blocked(tmp_path, monkeypatch, tmp_path_factory):
    """The ``project`` corpus, aligned by blocking keys, built once; records updates (the
    incremental alignment's tests: test_realign.py, test_realign_site.py)."""
    from realign_helpers import record, steady_build_key
    from test_incremental import first_build

    from kb.align import scoring as align_scoring
    from kb.align import update as realign
    from kb.checks import update as check_update
    from kb.pipeline import build as kb_build

    monkeypatch.setattr(align_scoring, "ALL_PAIRS_LIMIT", 0)
    # The spies below see only this process: the checks must not run in a forked child.
    monkeypatch.setattr(kb_build, "ALONGSIDE", {})
    steady_build_key(monkeypatch)
    corpus = tmp_path / "rulings"
    shutil.copytree(ROOT / "rulings", corpus)
    for i, seed in enumerate(
        ["de-unterkellersaeuberung.txt", "es-vidente-del-pasaje.txt", "fr-chasseur-vengeur.txt"]
    ):
        name, rest = (ROOT / "rulings" / seed).read_text(encoding="utf-8").split("\n", 1)
        (corpus / f"extra-{i}.txt").write_text(f"{name} II\n{rest}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    first_build(tmp_path, "blocked", tmp_path_factory)
    updates = record(monkeypatch, realign, "update")
    record(monkeypatch, check_update, "update", into=updates, tag="check")
    return tmp_path, updates
