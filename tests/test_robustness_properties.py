"""Property tests (hypothesis) over corpus bytes, file names, command-line arguments and
queries (issue 23): never a traceback, nothing raw printed, never a changed byte in the
previous output (when refused) nor anywhere but the output the command names.

Run in this process (click's runner) to stay fast; ``KB_EXAMPLES`` sets how many examples
each property tries (a few by default: most refuse at once, each accepted one is a build).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_robustness_support import (
    SEEDS,
    changes,
    kb_here,
    previous_build,
    printable,
    project,
    tree,
)

EXAMPLES = int(os.environ.get("KB_EXAMPLES", "6"))


def examples(factor: int = 1):
    return settings(
        max_examples=EXAMPLES * factor,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


SEED_BYTES = (SEEDS / "es-vidente-del-pasaje.txt").read_bytes()


@pytest.fixture(scope="module")
def proj(tmp_path_factory, robustness_build) -> Path:
    """A project only read by the queries."""
    return project(tmp_path_factory.mktemp("queries") / "proj", robustness_build)


def outside(named: list[bytes]):
    """Whether a changed path is outside every named output (and the lock and staging
    folders beside it)."""
    return lambda rel: (
        not any(
            rel == n
            or rel.startswith((n + b"/", b"." + n + b"."))
            or (b"/" in n and rel.startswith(_beside(n)))
            for n in named
        )
    )


def _beside(path: bytes) -> bytes:
    head, _, name = path.rpartition(b"/")
    return head + b"/." + name + b"."


@st.composite
def corpus_bytes(draw) -> bytes:
    """Raw bytes, or a seed file with a few bytes inserted, replaced or cut."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=400))
    data = bytearray(SEED_BYTES)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "cut", "replace"]))
        chunk = draw(st.binary(min_size=1, max_size=6))
        if action == "insert":
            data[at:at] = chunk
        elif action == "cut":
            del data[at : at + len(chunk)]
        else:
            data[at : at + len(chunk)] = chunk
    return bytes(data)


@examples()
@given(data=corpus_bytes())
@example(data=b"")
@example(data=SEED_BYTES.replace(b"Undercity", b"Under\x1b[31mcity", 1))
def test_property_any_corpus_bytes(robustness_build, data):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(SEEDS, root / "rulings")
        (root / "rulings" / "es-vidente-del-pasaje.txt").write_bytes(data)
        previous_build(robustness_build, root)
        before = tree(root)
        ran = kb_here("build", "rulings", cwd=root)
        assert b"Traceback" not in ran.err, ran
        assert ran.code in (0, 2), ran
        printable(ran.out), printable(ran.err)
        changed = changes(before, tree(root))
        if ran.code == 2:
            assert changed == []
        else:
            assert [k for k in changed if outside([b"_build"])(k)] == []


file_names = st.binary(min_size=1, max_size=40).filter(
    lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b"..")
)


@examples()
@given(name=file_names)
@example(name=b"ru-\x80.txt")
@example(name=b"\x1b[2J.txt")
@example(name="Vidente del pasaje – copia (2).txt".encode())  # a name that builds
def test_property_any_file_name(name):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "rulings").mkdir()
        path = os.fsencode(root / "rulings") + b"/" + name
        with open(path, "wb") as f:
            f.write(SEED_BYTES)
        before = tree(root)
        ran = kb_here("build", os.fsdecode(path), "--out", "out", cwd=root)
        assert b"Traceback" not in ran.err, ran
        assert ran.code in (0, 2), ran
        printable(ran.out), printable(ran.err)
        assert [k for k in changes(before, tree(root)) if outside([b"out"])(k)] == []


COMMANDS = [
    ["build"],
    ["search"],
    ["check"],
    ["export", "json"],
    ["export", "tmx"],
    ["export", "tbx"],
    ["examples"],
    ["rules"],
    ["links"],
    ["changes"],
]
TOKENS = [
    "--out",
    "--db",
    "--lang",
    "--limit",
    "--format",
    "--timings-json",
    "--full",
    "--on",
    "--suppressions",
    "--help",
    "-",
    "--",
    "-x",
    "-initiative",
    ".",
    "..",
    "",
    "rulings",
    "_build",
    "_build/rulings.db",
    "rulings/fr-chasseur-vengeur.txt",
    "notes.txt",
    "%00",
    "\x1b[31m",
    "card:x",
    "date>=x",
    "rule:726.3",
    "json",
    "sarif",
    "ru",
    "0",
    "-1",
    "99999999999999999999",
    "2022-06-10",
    "nope/x.json",
    "\u202etxt.exe",
]


def named_outputs(command: list[str], args: list[str]) -> list[bytes]:
    """What a successful build may change: every value given to --out or --timings-json (or
    the default _build)."""
    if command != ["build"]:
        return []
    named = []
    for i, arg in enumerate(args):
        for option in ("--out", "--timings-json"):
            if arg == option and i + 1 < len(args):
                named.append(args[i + 1])
            elif arg.startswith(option + "="):
                named.append(arg.split("=", 1)[1])
    if not any(a == "--out" or a.startswith("--out=") for a in args):
        named.append("_build")
    return [os.fsencode(os.path.normpath(value)) for value in named if value]


@examples(3)
@given(
    command=st.sampled_from(COMMANDS),
    args=st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=12)), max_size=5),
)
@example(command=["build"], args=["--out", ""])
@example(command=["build"], args=["\x08"])
@example(command=["build"], args=["--out", "--out", ""])
@example(command=["search"], args=["-initiative", "--limit", "-1"])
@example(command=["rules"], args=["--on", "notadate"])
def test_property_any_arguments(robustness_build, command, args):
    """Exit 0, 1 or 2, no traceback, nothing raw printed; nothing but a named output changes."""
    args = [a for a in args if "\0" not in a]  # not passable as an argument at all
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(SEEDS, root / "rulings")
        previous_build(robustness_build, root)
        (root / "notes.txt").write_text("mine\n")
        before = tree(root)
        ran = kb_here(*command, *args, cwd=root)
        assert b"Traceback" not in ran.err, ran
        assert ran.code in (0, 1, 2), ran
        printable(ran.out), printable(ran.err)
        allowed = named_outputs(command, args) if ran.code == 0 else []
        changed = [k for k in changes(before, tree(root)) if outside(allowed)(k)]
        assert changed == [], (changed, ran)


@examples(8)
@given(query=st.text(max_size=30))
@example(query="\x1b[31m -x")
def test_property_any_query(proj, query):
    """Any query: results or one line and exit 2; nothing raw reaches the terminal."""
    ran = kb_here("search", "--", query.replace("\0", ""), cwd=proj)
    assert b"Traceback" not in ran.err, ran
    assert ran.code in (0, 2), ran
    printable(ran.out), printable(ran.err)
