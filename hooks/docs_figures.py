"""mkdocs hook: the figures the documentation talks about, drawn by ``exactpte draw`` when the site builds.

Each figure of :data:`FIGURES` is drawn into a folder of its own (never into docs/, so a rebuild sees no change
of its sources) and added to the site's files under ``img/``, so the pages' links to it are checked by
``mkdocs build --strict`` like any other.  A figure that cannot be drawn fails the build.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

FIGURES: dict[str, list[str]] = {
    # the home page: the gambler's-ruin chain (two transient states into a 2-cycle)
    "img/ruin.svg": ["draw", "--example", "ruin", "--edge-labels"],
    # the quickstart: two classes of periods 2 and 3 reached from transient states
    "img/branching.svg": ["draw", "--example", "branching", "--edge-labels"],
    # the closed-forms page: the strata of its example (two-loops), g* of state a over (p, q)
    "img/strata.png": ["draw", "--example", "two-loops", "--strata", "--quantity", "g_star", "--state", "a", "--dpi", "110"],
    # the closed-forms page: h(home) of the ruin chain over (p, q), a pole at p = q = 1
    "img/ruin-strata.png": ["draw", "--example", "ruin", "--strata", "--quantity", "h", "--state", "home", "--dpi", "110"],
}
"""Site path -> the ``exactpte`` command line that draws it (``-o`` added)."""

_FOLDER: list[str] = []


def on_files(files: Any, config: Any) -> Any:
    """Draw every figure and add it to the site's files."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    from exactpte.cli.commands import main

    folder = tempfile.mkdtemp(prefix="exactpte-docs-figures-")
    _FOLDER.append(folder)
    for name, args in FIGURES.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with contextlib.redirect_stdout(io.StringIO()):  # "wrote ..." is for the command line
            code = main([*args, "-o", path])
        if code != 0:
            raise PluginError(f"exactpte {' '.join(args)} -o {name} failed")
        files.append(File.generated(config, name, abs_src_path=path))
    return files


def on_post_build(config: Any) -> None:
    """Remove the figures' folder (the site has its copies)."""
    while _FOLDER:
        shutil.rmtree(_FOLDER.pop(), ignore_errors=True)
