"""Never show a traceback nor a raw control character (issue 23): hostile names and text in the
corpus, command-line arguments, hostile `kb serve` requests. A refusal is one line, exit 2, every
folder byte-identical; what is allowed prints control characters escaped."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import subprocess

import pytest
from test_robustness_support import (
    KB,
    SEEDS,
    assert_refused,
    changes,
    kb,
    kb_here,
    on_a_terminal,
    printable,
    tree,
)

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
