"""Errors the tool reports to users: each names a place (file and line) and a problem.

They are the only exceptions the CLI turns into the one-line ``path:line: problem`` output
and exit status 2; anything else is a bug and keeps its traceback. Beside them, the readers of
the settings and data files every package shares (TOML and YAML, with their faults as these
errors).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem found in user input, located by path and 1-based line."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class KbError(Exception):
    """A user-facing error: bad input, a bad option, an unusable output folder."""

    def __init__(self, problems: list[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem("kb", 0, problems)]
        self.problems = list(problems)
        super().__init__("\n".join(map(str, self.problems)))

    def lines(self) -> list[str]:
        """The lines to print on stderr, one per problem; line 0 means "no line"."""
        return [
            p.message
            if p.line == 0 and p.path == "kb"
            else (f"{p.path}: {p.message}" if p.line == 0 else str(p))
            for p in self.problems
        ]


def load_yaml(source: str | IO[str]):
    """A YAML document (text or an open file), parsed safely by libyaml when PyYAML was built
    with it (its wheels are): the same documents as the pure-Python parser, eight times
    faster (the examples are read at every build, the glossary at every start)."""
    import yaml

    return yaml.load(source, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path: str | Path):
    """A YAML data file (the glossary, the rules' descriptions and hints, the card catalog, an
    example), its faults as one :class:`KbError` naming the file and, for bad YAML, the line:
    whoever edits one to add a rule or a concept sees where, not a traceback."""
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            return load_yaml(handle)
    except UnicodeDecodeError:
        raise KbError([Problem(str(path), 0, "not UTF-8 text")]) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, path) from None


def yaml_error(exc: Exception, path: str | Path | None = None) -> KbError:
    """A YAML parser's error as one problem, ``path:line: not valid YAML: ...``; the path is
    the one the parser read from (a file it was handed open) unless ``path`` names it."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = path if path is not None else getattr(mark, "name", "kb")
    line = mark.line + 1 if mark is not None else 0
    return KbError([Problem(str(where), line, f"not valid YAML: {problem}")])


def read_toml(path: Path) -> dict:
    """A settings file beside the corpus (suppressions, checklist), its faults as one
    :class:`KbError` naming the file and, for bad TOML, the line."""
    import re
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise KbError([Problem(str(path), 0, "not UTF-8 text")]) from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise KbError(
            [Problem(str(path), int(line.group(1)) if line else 0, f"not valid TOML: {exc}")]
        ) from None
