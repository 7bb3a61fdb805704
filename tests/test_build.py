"""kb.pipeline.build's stage runner: a stage listed in ALONGSIDE runs in a forked process next to its
partner, its errors come back as the parent's, and it never outlives the build."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kb.corpus.files import corpus_files, display
from kb.errors import KbError
from kb.pipeline import build, forking
from kb.pipeline.context import BuildContext


def _record(ctx, name: str) -> None:
    started = time.monotonic()
    time.sleep(0.5)
    (ctx.work / f"{name}.txt").write_text(f"{os.getpid()} {started} {time.monotonic()}")


def first(ctx):
    _record(ctx, "first")


def partner(ctx):
    _record(ctx, "partner")


def beside(ctx):
    _record(ctx, "beside")


def refuses(ctx):
    raise KbError("rulings/x.txt: 3: no date")


def crashes(ctx):
    raise ZeroDivisionError("boom")


def partner_fails(ctx):
    time.sleep(0.2)
    raise KbError("the partner failed")


def run(tmp_path: Path, monkeypatch, stages: dict[str, str]) -> BuildContext:
    monkeypatch.setattr(build, "STAGES", [(n, f"{__name__}:{f}") for n, f in stages.items()])
    monkeypatch.setattr(build, "ALONGSIDE", {"beside": "partner"})
    ctx = BuildContext(corpus=[], work=tmp_path)
    build.run_stages(ctx, tmp_path)
    return ctx


needs_fork = pytest.mark.skipif(not forking.available(), reason="needs fork and two cores")


@needs_fork
def test_a_stage_alongside_runs_in_another_process_at_the_same_time(tmp_path, monkeypatch):
    ctx = run(tmp_path, monkeypatch, {"first": "first", "partner": "partner", "beside": "beside"})
    assert set(ctx.timings) == {"first", "partner", "beside"}
    pid_p, start_p, end_p = (tmp_path / "partner.txt").read_text().split()
    pid_b, start_b, end_b = (tmp_path / "beside.txt").read_text().split()
    assert pid_b != pid_p == str(os.getpid())
    assert float(start_b) < float(end_p) and float(start_p) < float(end_b)  # they overlapped
    assert ctx.timings["beside"] >= 0.5


@needs_fork
@pytest.mark.parametrize(
    "stage, error, text",
    [
        ("refuses", KbError, "rulings/x.txt: 3: no date"),
        ("crashes", RuntimeError, "ZeroDivisionError"),
    ],
)
def test_errors_of_a_stage_alongside_are_raised_by_the_build(
    tmp_path, monkeypatch, stage, error, text
):
    with pytest.raises(error, match=text):
        run(tmp_path, monkeypatch, {"partner": "partner", "beside": stage})


@needs_fork
def test_a_failing_partner_still_waits_for_the_stage_alongside(tmp_path, monkeypatch):
    with pytest.raises(KbError, match="the partner failed"):
        run(tmp_path, monkeypatch, {"partner": "partner_fails", "beside": "beside"})
    assert (tmp_path / "beside.txt").is_file()  # finished before the build gave up


def test_corpus_files_lists_folders_as_rglob_would(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    (corpus / "b" / "deep").mkdir(parents=True)
    (corpus / "a").mkdir()
    for name in ["z.txt", "a/y.txt", "b/x.txt", "b/deep/w.txt", "b/notes.md", "a/B.txt"]:
        (corpus / name).write_text("x", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "v.txt").write_text("x", encoding="utf-8")
    (corpus / "linked.txt").symlink_to(outside / "v.txt")  # known by its target
    (corpus / "linked-dir").symlink_to(outside, target_is_directory=True)  # not followed
    monkeypatch.chdir(tmp_path)
    reference = list(
        dict.fromkeys(
            display(p) for p in sorted(p for p in Path("corpus").rglob("*.txt") if p.is_file())
        )
    )
    assert corpus_files(["corpus"]) == reference
    assert "outside/v.txt" in reference and "corpus/b/deep/w.txt" in reference
    assert corpus_files([str(corpus)]) == reference  # absolute input, same display


def test_stages_run_without_automatic_full_collections(tmp_path, monkeypatch):
    """Inside a build only the collection after each stage is a full one (a stage's growing
    heap is not scanned again and again); the thresholds are restored after the build."""
    import gc

    seen = []
    monkeypatch.setattr(build, "STAGES", [("parse", f"{__name__}:first")])
    monkeypatch.setattr(build, "run_stages", lambda ctx, out: seen.append(gc.get_threshold()))
    (tmp_path / "rulings").mkdir()
    (tmp_path / "rulings" / "x.txt").write_text("x", encoding="utf-8")
    before = gc.get_threshold()
    build.build([str(tmp_path / "rulings")], tmp_path / "out")
    assert seen[0][:2] == before[:2] and seen[0][2] >= 2**30
    assert gc.get_threshold() == before
