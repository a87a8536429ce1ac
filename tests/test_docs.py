"""The documentation: the site builds strictly (no broken reference, no unparsable docstring), every
page is in the docs index and the site nav, no link points outside the project."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.extra("docs")
def test_docs_build_strictly(tmp_path):
    """mkdocs build --strict succeeds (no broken link or reference, every docstring renders) and
    writes the API reference."""
    pytest.importorskip("mkdocstrings", reason='the docs extra is not installed (pip install ".[docs]")')
    pytest.importorskip("material", reason='the docs extra is not installed (pip install ".[docs]")')
    mkdocs = shutil.which("mkdocs") or f"{sys.executable} -m mkdocs"
    out = subprocess.run(f"{mkdocs} build --strict -d {tmp_path / 'site'}".split(), cwd=ROOT, capture_output=True, text=True,
                         timeout=600, env={"NO_MKDOCS_2_WARNING": "1", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "exactpte" / "index.html").exists()


def test_docs_never_point_outside_the_project():
    """No page (nor README.md) links the old shared folder or THEOREMS.md, which are outside the project."""
    for path in list((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "THEOREMS.md" not in text, path


def _pages() -> list[str]:
    """Every page of the docs site: docs/**/*.md, relative to docs/."""
    return sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md"))


def test_docs_readme_lists_every_page():
    """docs/README.md (the docs index, also the site's home page) links every page of docs/."""
    linked = set(re.findall(r"\]\(([^)#\s]+\.md)\)", (ROOT / "docs" / "README.md").read_text(encoding="utf-8")))
    assert [p for p in _pages() if p != "README.md" and p not in linked] == []


def test_mkdocs_nav_has_every_page():
    """mkdocs.yml's nav names every page of docs/ (mkdocs only warns about a page left out of it)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    in_nav = set(re.findall(r":\s*(\S+\.md)\s*$", nav, flags=re.MULTILINE))
    assert [p for p in _pages() if p not in in_nav] == []


def test_architecture_places_every_module():
    """docs/architecture.md names every module of exactpte and proofs_check (as **`name`**, or as
    `pkg.name` for a module inside a subpackage), so a new module cannot stay undocumented."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for pkg in ("exactpte", "proofs_check"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT / pkg).with_suffix("").parts
            if parts[-1] in ("__init__", "__main__"):
                continue
            name, dotted = parts[-1], ".".join(parts)
            if f"`{name}`" not in text and f"`{dotted}`" not in text and f"{name} (" not in text:
                missing.append(f"{pkg}/{'/'.join(parts)}.py")
    assert missing == [], "modules docs/architecture.md does not place: " + ", ".join(missing)


def test_format_examples_read_as_documented():
    """Every example file written out in docs/formats.md is read by its reader (the page's DRN examples
    once declared parameters that a rational file may not have)."""
    import exactpte
    from exactpte.io.drn import read_drn

    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    drn = re.findall(r"```\n(@type.*?)```", text, flags=re.DOTALL)
    assert len(drn) == 2
    rational, parametric = (read_drn(block, reward_model="visits") for block in drn)
    assert exactpte.decompose(rational).v_star[0] == 2
    assert parametric.params == ("p",) and parametric.assumptions() == ["0 < p < 1"]
    for line in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)[0].strip().splitlines():
        exactpte.loads(line)
