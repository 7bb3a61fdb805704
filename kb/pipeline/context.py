"""The build context: what the stages of one `kb build` share, typed.

Made by :func:`kb.pipeline.build.build` and passed to each stage's ``build_stage(ctx)``. The
fields below the timings say how much of the previous build is reused (see
:mod:`kb.pipeline.incremental`); on a full build they keep their defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

    from kb.corpus.parse import ParsedFile


@dataclass
class BuildContext:
    """What stages share: inputs, the work folder, the open store, timings, and what changed."""

    corpus: list[str]
    work: Path
    lang: str | None = None
    db: sqlite_utils.Database | None = None
    files: list[ParsedFile] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: {path: sha256} of the corpus files, found before the build (None: not computed yet).
    hashes: dict[str, str] | None = None
    #: The previous build's store was copied in as this build's starting point.
    reused: bool = False
    #: The previous build's folder, when its store was reused.
    previous: Path | None = None
    #: Files added, changed or removed since the previous build (None: every file is new).
    changed_sources: set[str] | None = None
    #: Files of the previous build that are gone.
    removed_sources: list[str] = field(default_factory=list)
    #: Groups whose rows changed or went in the alignment stage (None: every group is new).
    changed_groups: set[str] | None = None

    @property
    def db_path(self) -> Path:
        return self.work / "rulings.db"
