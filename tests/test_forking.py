"""kb.pipeline.forking: workers forked by a build die with it when it is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.pipeline import forking

ROOT = Path(__file__).resolve().parent.parent
PARENT = """
import os, sys, time
from kb.pipeline import forking

def report(_):
    print(os.getpid(), flush=True)
    time.sleep(60)

pool = forking.pool(1)
pool.apply_async(report, (0,))
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(
    not forking.available(cores=1) or not Path("/proc").is_dir(), reason="needs fork and /proc"
)
def test_a_pool_worker_dies_when_its_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    worker = int(parent.stdout.readline())
    assert alive(worker)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(worker)


UNGUARDED = """
import sys
from pathlib import Path
import kb.site.build
from kb.pipeline.build import build

kb.site.build.PARALLEL_FROM = 1  # the seeds are few: write the data dump in a spawned process anyway
print("started", flush=True)  # once: a worker that ran this script again would print it too
build([sys.argv[1]], sys.argv[2])
print("built", Path(sys.argv[2], "site", "data", "rulings.json").is_file(), flush=True)
"""


def test_a_script_without_a_main_guard_can_build_with_spawned_workers(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(UNGUARDED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(ROOT / "rulings"), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["started", "built True"]
