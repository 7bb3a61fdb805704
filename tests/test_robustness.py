"""Never lose a user's files, never show a traceback (issue 23): `kb build --out`, hostile
names and text, arguments, `kb serve` requests. Each case: one line, exit 2, every folder
byte-identical; or, where the case is allowed, a build that works.

Stores and indexes that cannot be used: test_robustness_stores.py; property tests:
test_robustness_properties.py; helpers: test_robustness_support.py.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from test_robustness_support import (
    KB,
    MOUNTED,
    SEEDS,
    SLOW,
    Ran,
    assert_refused,
    changes,
    kb,
    kb_here,
    needs_unshare,
    on_a_terminal,
    printable,
    project,
    seed_build,
    tree,
)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return seed_build(tmp_path_factory)


@pytest.fixture
def proj(tmp_path, built) -> Path:
    """A user's project: the corpus, a previous build, a .git folder and notes."""
    return project(tmp_path / "proj", built)


# ---------------------------------------------------------------------------------------------
# --out: only a new folder, an empty one or a previous build; refused before any work


def test_out_is_the_corpus(proj, tmp_path):
    before = tree(tmp_path)
    assert "corpus" in assert_refused(kb_here("build", "rulings", "--out", "rulings", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_folder_holding_the_corpus(proj, tmp_path):
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "proj/rulings", "--out", "proj", cwd=tmp_path))
    assert "corpus" in line
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_folder_not_built_by_kb(proj, tmp_path):
    (proj / "docs").mkdir()
    (proj / "docs" / "thesis.tex").write_text("\\chapter{One}\n")
    before = tree(tmp_path)
    assert "not empty" in assert_refused(kb_here("build", "rulings", "--out", "docs", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


@pytest.mark.parametrize("out", [".", "..", "", "./", "/"])
def test_out_is_the_current_folder_or_above(proj, tmp_path, out):
    before = tree(tmp_path)
    assert_refused(kb_here("build", "rulings", "--out", out, cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_is_a_file(proj, tmp_path):
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "--out", "notes.txt", cwd=proj))
    assert re.search("is a file|not a folder", line), line
    assert changes(before, tree(tmp_path)) == []


def test_out_symlink_to_a_foreign_folder_is_refused(proj, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.tex").write_text("\\chapter{One}\n")
    (proj / "site-link").symlink_to(tmp_path / "docs")
    before = tree(tmp_path)
    assert_refused(kb_here("build", "rulings", "--out", "site-link", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


def test_out_in_an_empty_folder_then_again_with_the_index_progress(proj):
    """The allowed cases through the real command, on a terminal: an empty folder, then that
    build again (a previous build). The index stage's bar moves through the documents (it sat
    at 0% and then jumped to 100%)."""
    (proj / "empty").mkdir()
    code, printed = on_a_terminal("build", "rulings", "--out", "empty", cwd=proj, timeout=SLOW)
    assert code == 0, printed[-800:]
    assert (proj / "empty" / ".kb-build").is_file() and (proj / "empty" / "rulings.db").is_file()
    shown = {int(m) for m in re.findall(rb"index +\[[#-]+\] +(\d+)%", printed)}
    assert shown and min(shown) < 50 < max(shown) and len(shown) > 5, sorted(shown)
    ran = kb("build", "rulings", "--out", "empty", cwd=proj)  # a previous build of kb
    assert ran.code == 0, ran


def test_out_symlink_is_followed_across_file_systems(proj, tmp_path, built):
    """The build goes into the link's target, with the lock and the staging folder beside
    the target, so no rename crosses file systems (it was an EXDEV traceback); the link stays
    a link; nothing is left beside it. (A link on the same file system: test_outdir.py.)"""
    if os.stat("/dev/shm").st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("/dev/shm is on the same file system here")
    base = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        target = base / "kb-out"
        shutil.copytree(built, target, symlinks=True)
        (proj / "out").symlink_to(target)
        changed = proj / "rulings" / "ru-issledovatel-podzemya.txt"
        changed.write_bytes(changed.read_bytes() + b"\n")
        before = tree(tmp_path)
        ran = kb("build", "rulings", "--out", "out", cwd=proj)
        assert b"Traceback" not in ran.err and ran.code == 0, ran
        assert (proj / "out").is_symlink() and os.readlink(proj / "out") == str(target)
        assert (target / "rulings.db").is_file() and (target / "site" / "index.html").is_file()
        assert sorted(p.name for p in base.iterdir() if not p.name.startswith(".kb-out.old-")) == [
            ".kb-out.lock",
            "kb-out",
        ]
        assert changes(before, tree(tmp_path)) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)


@needs_unshare
def test_out_is_a_mount_point(proj, tmp_path):
    """Refused before any work, with one line (a mount point cannot be swapped)."""
    (proj / "mnt").mkdir()
    before = tree(tmp_path)
    ran = kb(
        "build",
        "rulings",
        "--out",
        "mnt",
        cwd=proj,
        prefix=(*MOUNTED, str(proj / "mnt"), "size=64m"),
    )
    assert ran.code != 99, "could not mount"
    assert "mount point" in assert_refused(ran)
    assert changes(before, tree(tmp_path)) == []  # the mount went with its namespace


@needs_unshare
@pytest.mark.parametrize("mode,room", [("incremental", 0.05), ("--full", 0.4)])
def test_disk_fills_during_the_build(proj, tmp_path, built, mode, room):
    """A build that runs out of space (``room``: free space beside the previous output, as a
    share of its size): one line, exit 2, the previous output byte-identical."""
    size = sum(
        -(-f.stat().st_size // 4096) * 4096 if f.is_file() else 4096 for f in built.rglob("*")
    )  # whole 4 KiB pages per file and folder on tmpfs
    disk = tmp_path / "disk"
    disk.mkdir()
    if mode == "incremental":  # one file changed: the build starts from the previous one
        changed = proj / "rulings" / "fr-chasseur-vengeur.txt"
        changed.write_bytes(changed.read_bytes().replace(b"vengeur", b"vengeur ", 1))
    script = tmp_path / "inside.py"
    # Inside the namespace: put the previous build on the small disk, hash it, build, hash.
    script.write_text(
        "import shutil, subprocess, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_robustness_support import tree\n"
        "disk, mode, kb = sys.argv[1], sys.argv[2].split(), sys.argv[3:]\n"
        f"shutil.copytree({str(built)!r}, disk + '/out', symlinks=True)\n"
        "before = tree(disk + '/out')\n"
        "ran = subprocess.run(kb + ['build', 'rulings', *mode, '--out', disk + '/out'],\n"
        "                     capture_output=True, stdin=subprocess.DEVNULL)\n"
        "after = tree(disk + '/out')\n"
        "sys.stdout.buffer.write(ran.stdout)\n"
        "sys.stderr.buffer.write(ran.stderr)\n"
        "sys.exit(98 if ran.returncode and before != after else ran.returncode)\n"
    )
    done = subprocess.run(
        [
            *MOUNTED,
            str(disk),
            f"size={size + int(size * room)}",
            sys.executable,
            str(script),
            str(disk),
            mode if mode == "--full" else "",
            *KB,
        ],
        cwd=proj,
        capture_output=True,
        timeout=SLOW,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    ran = Ran(done.returncode, done.stdout, done.stderr)
    assert ran.code != 99, "could not mount"
    assert ran.code != 98, f"previous output changed: {ran}"
    if ran.code == 0:
        pytest.skip("the build fit on the disk: nothing filled it")
    line = assert_refused(ran)
    assert re.search(r"space|full", line, re.IGNORECASE), line  # the disk filled


# ---------------------------------------------------------------------------------------------
# Hostile names and text in the corpus


def test_corpus_file_name_not_utf8(proj, tmp_path):
    """A file whose name is not UTF-8: refused with one line naming it escaped (real stderr)."""
    name = os.fsencode(proj / "rulings") + b"/ru-\xff\xfe-podzemya.txt"
    with open(name, "wb") as f:
        f.write((SEEDS / "ru-issledovatel-podzemya.txt").read_bytes())
    before = tree(tmp_path)
    line = assert_refused(kb("build", "rulings", cwd=proj))
    assert "ru-\\xff\\xfe-podzemya.txt" in line and "not printable" in line, line
    assert changes(before, tree(tmp_path)) == []


def test_corpus_file_name_with_control_characters(proj, tmp_path):
    with open(os.fsencode(proj / "rulings") + b"/ru-\xff\x1b[31m.txt", "wb") as f:
        f.write("Карта\n\nнет даты\n".encode())
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "rulings", cwd=proj))
    assert "ru-\\xff\\x1b[31m.txt" in line, line
    assert changes(before, tree(tmp_path)) == []


CONTROLS = {
    "ESC": "\x1b[2J\x1b[31m",
    "BEL": "\x07",
    "DEL": "\x7f",
    "C1-CSI": "\x9b31m",
    "BS": "\x08",
    "FF": "\x0c",
}


@pytest.mark.parametrize(
    "where,char",
    [("text", c) for c in CONTROLS.values()]
    + [("card", CONTROLS["ESC"]), ("card", CONTROLS["C1-CSI"])],
    ids=[f"text-{k}" for k in CONTROLS] + ["card-ESC", "card-C1-CSI"],
)
def test_control_characters_in_the_corpus(proj, tmp_path, char, where):
    """A parse error with file and line; the previous output left as it was."""
    path = proj / "rulings" / "de-unterkellersaeuberung.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = 0 if where == "card" else 4
    lines[at] = lines[at][:10] + char + lines[at][10:]
    path.write_text("\n".join(lines), encoding="utf-8")
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "rulings", cwd=proj))
    assert line.startswith(f"rulings/de-unterkellersaeuberung.txt:{at + 1}: control character"), (
        line
    )
    assert changes(before, tree(tmp_path)) == []


def test_search_prints_no_control_character_of_an_older_store(proj):
    """A store built before control characters were refused may hold them: `kb search`
    shows them escaped, on a terminal too."""
    from kb import store
    from kb.search import build_index

    db = store.open_db(proj / "_build" / "rulings.db")
    with db.conn:
        db.execute("UPDATE rulings SET text = text || ?", ["\x1b[2J\x07"])
    shutil.rmtree(proj / "_build" / "index")
    build_index(db, proj / "_build" / "index")  # the index shows the texts as stored
    db.close()
    ran = kb_here("search", "initiative", "--lang", "de", "--limit", "2", cwd=proj)
    assert ran.code == 0, ran
    assert "\\x1b[2J\\x07" in printable(ran.out)


# ---------------------------------------------------------------------------------------------
# Arguments


def test_search_query_starting_with_a_dash(proj):
    """`-word` leaves a word out, also as the first word of the query; alone it is the query
    language's "nothing to search for", not an unknown option."""
    ran = kb_here("search", "-monarch initiative", "--format", "json", cwd=proj)
    assert ran.code == 0, ran
    same = kb_here("search", "--format", "json", "--", "-monarch initiative", cwd=proj)
    assert ran.out == same.out and b"initiative" in ran.out.lower()
    alone = assert_refused(kb_here("search", "-initiative", cwd=proj))
    assert alone.startswith("query: nothing to search for"), alone
    assert b"Usage:" in kb_here("search", "-h", cwd=proj).out  # help is still help


@pytest.mark.parametrize(
    "args",
    [
        ["search"],
        ["search", "x", "--limit", "0"],
        ["rules", "--format", "xml"],
        ["nosuchcommand"],
        ["build", "--nosuchoption"],
        ["--nosuchoption"],
    ],
    ids=" ".join,
)
def test_usage_error(tmp_path, args):
    """Usage errors: one line on stderr and exit 2, as DESIGN.md's CLI contract says."""
    line = assert_refused(kb_here(*args, cwd=tmp_path))
    assert "--help" in line


@pytest.mark.parametrize("on", ["notadate", "2022-13-45", "", "10/06/2022"])
def test_rules_on_not_a_date(tmp_path, on):
    assert "--on" in assert_refused(kb_here("rules", "--on", on, cwd=tmp_path))


def test_build_lang_is_checked_before_any_work(proj, tmp_path):
    before = tree(tmp_path)
    assert "--lang" in assert_refused(kb_here("build", "--lang", "xx", "--full", cwd=proj))
    assert changes(before, tree(tmp_path)) == []


@pytest.mark.parametrize(
    "target", ["missing/t.json", "notes.txt/t.json", "rulings", "rulings/fr-chasseur-vengeur.txt"]
)
def test_timings_json_to_a_bad_path(proj, tmp_path, target):
    """Refused before any work: the previous output and everything else byte-identical."""
    before = tree(tmp_path)
    assert_refused(kb_here("build", "rulings", "--full", "--timings-json", target, cwd=proj))
    assert changes(before, tree(tmp_path)) == []


@pytest.mark.parametrize("kind", ["fifo", "looping-symlink", "dangling-symlink"])
def test_special_file_on_the_command_line(proj, tmp_path, kind):
    """Named for what it is (not "no such file"), at once (a FIFO is never opened)."""
    special = proj / "special.txt"
    if kind == "fifo":
        os.mkfifo(special)
    elif kind == "looping-symlink":
        special.symlink_to(special)
    else:
        special.symlink_to(proj / "gone.txt")
    before = tree(tmp_path)
    line = assert_refused(kb_here("build", "special.txt", cwd=proj))
    assert line.startswith("special.txt: ") and "no such file" not in line.lower(), line
    assert {"fifo": "FIFO", "looping-symlink": "loops", "dangling-symlink": "target is missing"}[
        kind
    ] in line
    assert changes(before, tree(tmp_path)) == []


@pytest.mark.parametrize(
    "name",
    ["\x1b[2J\x1b[31mred.txt", "bell\x07.txt", "\x9b31mc1.txt", "line\nbreak.txt"],
    ids=["ESC", "BEL", "C1-CSI", "LF"],
)
def test_hostile_name_on_the_command_line(tmp_path, name):
    """A missing file whose name carries control characters: one line, shown escaped, also
    on a terminal (the real command)."""
    assert_refused(kb_here("build", name, "--out", "out", cwd=tmp_path))
    code, printed = on_a_terminal("build", name, "--out", "out", cwd=tmp_path)
    assert code == 2, printed
    assert len(printed.splitlines()) == 1, printed
    printable(printed.replace(b"\r\n", b"\n"))
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# kb serve


@pytest.mark.parametrize(
    "path",
    [
        "/%00",
        "/index.html%00",
        "/%00/..%2f..%2fetc%2fpasswd",
        "/%ff%fe",
        "/" + "a" * 5000,
        "/%1b[2J",
    ],
)
def test_serve_hostile_request(proj, path):
    child = subprocess.Popen(
        [*KB, "serve", "--out", "_build", "--port", "0"],
        cwd=proj,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(SEEDS.parent)},
    )
    try:
        first = child.stderr.readline().decode()
        port = int(re.search(r":(\d+)/", first).group(1))
        con = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        con.request("GET", path)
        answer = con.getresponse()
        answer.read()
        assert answer.status in (400, 404, 414), answer.status
        con = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        con.request("GET", "/")
        assert con.getresponse().status == 200  # still serving
    finally:
        child.send_signal(signal.SIGINT)
        try:
            _, err = child.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            _, err = child.communicate()
    assert b"Traceback" not in err, err[-800:]
    printable(err)
