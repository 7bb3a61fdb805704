"""The wheel carries every module and data file the tool reads at run time.

An installed `kb` (not an editable checkout) must find its templates, catalogs, glossary and
examples; this test builds the real wheel and compares it with the files git tracks.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tracked(*folders: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        # Not a git checkout (e.g. an sdist): fall back to the files on disk.
        return [
            str(p.relative_to(ROOT))
            for f in folders
            for p in (ROOT / f).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        ]
    return out.stdout.split()


def test_wheel_contains_modules_templates_catalogs_and_data(tmp_path):
    source = tmp_path / "src"
    for name in tracked("kb", "site_templates") + ["pyproject.toml", "README.md"]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, source / name)
    # A clean copy: setuptools would otherwise reuse a stale build/ folder of the checkout.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(source),
            "-w",
            str(tmp_path / "dist"),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {p for p in tracked("kb") if not p.endswith((".pyc",))}
    expected |= {
        "kb/site_templates/" + p.removeprefix("site_templates/") for p in tracked("site_templates")
    }
    assert sorted(expected - names) == []
