"""Ruling files -> records.

A ruling file holds one card: its name on the first line, then rulings, each a date line
followed by the ruling's text (one or more paragraphs) up to the next date line. The file's
language is detected from its text unless the caller states it. Texts are kept exactly as
written; only a BOM, CRLF line ends and trailing spaces are tolerated and dropped. Control
characters other than tabs and line ends (ESC, BEL, DEL, C1...) are an error: a ruling is text.

Every problem is a :class:`kb.errors.Problem` naming the file and line; :func:`parse_files`
collects the problems of all files before failing, so one run reports every bad file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kb.corpus import dates, languages, safe
from kb.errors import KbError, Problem


@dataclass(frozen=True)
class Ruling:
    position: int  # 1-based order within the file
    date: str  # ISO 8601
    text: str
    line: int  # line of the text's first line in the source file


@dataclass(frozen=True)
class ParsedFile:
    path: str
    sha256: str
    lang: str
    lang_stated: bool
    lang_confidence: float
    card: str
    rulings: tuple[Ruling, ...] = field(default_factory=tuple)


class FileProblem(Exception):
    """Raised inside the parser for the first problem of one file."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def parse_file(path: str | Path, lang: str | None = None) -> ParsedFile:
    """Parse one ruling file; raise :class:`KbError` with one problem if it is bad."""
    data = Path(path).read_bytes()
    try:
        return parse_bytes(data, str(path), lang)
    except FileProblem as exc:
        raise KbError([Problem(str(path), exc.line, exc.message)]) from None


def parse_files(paths: list[str], lang: str | None = None, progress=None) -> list[ParsedFile]:
    """Parse many files; raise one :class:`KbError` listing every bad file's problem.

    The languages of all files are detected in one batch, which lingua spreads over every core
    (detection is most of the parsing time).
    """
    parsed, problems = [], []
    datas: dict[str, bytes] = {}
    for path in paths:
        try:
            datas[path] = Path(path).read_bytes()
        except OSError as exc:
            problems.append(Problem(path, 0, f"cannot read: {exc.strerror or exc}"))
    detected = {} if lang else _detect_all(datas)
    for path, data in datas.items():
        try:
            parsed.append(parse_bytes(data, path, lang, detected.get(path)))
        except FileProblem as exc:
            problems.append(Problem(path, exc.line, exc.message))
        if progress:
            progress(1)
    if problems:
        order = {path: i for i, path in enumerate(paths)}
        raise KbError(sorted(problems, key=lambda p: order.get(p.path, len(order))))
    return parsed


def _detect_all(datas: dict[str, bytes]) -> dict[str, languages.Detection]:
    """{path: detection} for the files that decode and are not empty (the others fail later)."""
    bodies = {}
    for path, data in datas.items():
        try:
            lines = _lines(data)
        except FileProblem:
            continue
        if any(lines):
            bodies[path] = _body(lines)
    return dict(zip(bodies, languages.detect_many(list(bodies.values()))))


def parse_bytes(
    data: bytes, path: str, lang: str | None = None, detection: languages.Detection | None = None
) -> ParsedFile:
    """Parse the bytes of one file; raise :class:`FileProblem` on the first problem.

    ``detection`` is the language detected beforehand for this file (see :func:`parse_files`).
    """
    lines = _lines(data)
    if not any(lines):
        raise FileProblem(1, "empty file: expected a card name, then dated rulings")
    code, confidence = _language(lines, lang, detection)
    card_line = next(i for i, line in enumerate(lines) if line)
    card = lines[card_line]
    if dates.looks_like_date(card):
        raise FileProblem(card_line + 1, f"no card name: the first line is the date {card!r}")
    rulings = tuple(_rulings(lines, card_line + 1, code))
    if not rulings:
        raise FileProblem(card_line + 1, "no rulings: expected a date line after the card name")
    return ParsedFile(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        lang=code,
        lang_stated=lang is not None,
        lang_confidence=round(confidence, 4),
        card=card.strip(),
        rulings=rulings,
    )


def _decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileProblem(
            line, f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}"
        ) from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    control = safe.CONTROL.search(text)
    if control:  # ESC, BEL, backspace...: they would act on the terminal that shows the text
        line = text.count("\n", 0, control.start()) + 1
        if control.group() == "\x00":
            raise FileProblem(line, "NUL character in a text file")
        raise FileProblem(
            line,
            f"control character U+{ord(control.group()):04X} in the text "
            "(only tabs and line ends may be)",
        )
    return text


def _lines(data: bytes) -> list[str]:
    return [line.rstrip() for line in _decode(data).split("\n")]


def _body(lines: list[str]) -> str:
    """The text the language is detected from: every line but the dates."""
    return "\n".join(line for line in lines if line and not dates.looks_like_date(line))


def _language(
    lines: list[str], stated: str | None, found: languages.Detection | None = None
) -> tuple[str, float]:
    """(the file's language, the confidence in it): stated, detected, or a FileProblem."""
    if stated:
        try:
            return languages.check_stated(stated), 1.0
        except ValueError as exc:
            raise FileProblem(1, str(exc)) from None
    if found is None:
        found = languages.detect(_body(lines))
    if found.lang is None:
        guesses = (
            ", ".join(f"{code} {value:.2f}" for code, value in found.candidates)
            or "too little text"
        )
        supported = ", ".join(languages.CORPUS_LANGUAGES)
        raise FileProblem(
            1,
            f"cannot decide the language among {supported} (detector: {guesses}); "
            "state it with --lang",
        )
    return found.lang, found.confidence


def _rulings(lines: list[str], start: int, lang: str):
    """Yield the rulings: each date line and the text that follows it."""
    date, date_line, position = None, 0, 0
    text_lines: list[tuple[int, str]] = []
    for number, line in enumerate(lines[start:], start + 1):
        if dates.looks_like_date(line):
            if date is not None:
                position += 1
                yield _ruling(position, date, date_line, text_lines)
            date, date_line, text_lines = _date(line, number, lang), number, []
        elif line and date is None:
            raise FileProblem(number, "ruling text with no date before it")
        elif date is not None:
            text_lines.append((number, line))
    if date is not None:
        yield _ruling(position + 1, date, date_line, text_lines)


def _date(line: str, number: int, lang: str) -> str:
    try:
        return _iso_date(line, lang)
    except dates.DateError as exc:
        raise FileProblem(number, str(exc)) from None


@lru_cache(maxsize=4096)
def _iso_date(line: str, lang: str) -> str:
    """Dates repeat across a corpus: parse each distinct (line, language) once."""
    return dates.parse(line, lang).isoformat()


def _ruling(position: int, date: str, date_line: int, text_lines: list[tuple[int, str]]) -> Ruling:
    while text_lines and not text_lines[-1][1]:
        text_lines.pop()
    while text_lines and not text_lines[0][1]:
        text_lines.pop(0)
    if not text_lines:
        raise FileProblem(date_line, f"date {date} has no ruling text after it")
    text = "\n".join(line for _, line in text_lines)
    return Ruling(position=position, date=date, text=text, line=text_lines[0][0])
