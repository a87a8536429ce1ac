"""The documentation site as a reader sees it: built (mkdocs build --strict, the figures drawn by exactpte draw),
served from this machine and rendered by headless Chromium, with every request that leaves the machine caught by
a proxy that answers none.  The home page has an example, a picture and links named by the pages' titles; the
closed-forms and family-proofs pages render every formula with the site's own KaTeX; the closed-forms page shows
its pictures; nothing is loaded from the network.

Needs the docs extra and Chromium (Debian: apt-get install chromium); skipped with the reason when either is
missing.  Slow (a site build and a browser a page): CI's second stage runs it."""

from __future__ import annotations

import functools
import html
import importlib.util
import http.server
import re
import shutil
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="no Chromium to render the site (Debian: apt-get install chromium)")]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    log: list[tuple[str, int]] = []

    def log_request(self, code: Any = "-", size: Any = "-") -> None:  # what the browser asked of the site
        self.log.append((self.path, int(code) if str(code).isdigit() else 0))

    def log_message(self, *args: Any) -> None:
        pass


class _Catch(socketserver.BaseRequestHandler):
    """The proxy every request leaving the machine goes to: it records the request and answers nothing."""

    seen: list[str] = []

    def handle(self) -> None:
        data = self.request.recv(4096)
        self.seen.append(data.split(b"\r\n", 1)[0].decode("latin-1"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    # not marked extra("docs"): Chromium is no Python extra, and its absence is a skip, not a failure, in CI's
    # second stage (which has every extra, so the site always builds there)
    missing = [m for m in ("mkdocs", "material", "matplotlib") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f'the site needs the docs extra (pip install ".[docs]"): {", ".join(missing)} missing')
    out = tmp_path_factory.mktemp("site") / "site"
    mkdocs = shutil.which("mkdocs") or f"{sys.executable} -m mkdocs"
    built = subprocess.run(f"{mkdocs} build --strict -d {out}".split(), cwd=ROOT, capture_output=True, text=True, timeout=900,
                           env={"NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"})
    assert built.returncode == 0, built.stderr[-3000:]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    catch = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Catch)
    for s in (server, catch):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    yield {"dir": out, "url": f"http://127.0.0.1:{server.server_address[1]}", "proxy": catch.server_address[1],
           "pages": {}}
    server.shutdown()
    catch.shutdown()


QUIET_BROWSER = ("--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
                 "--no-pings", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
                 "--disable-features=NetworkTimeServiceQuerying,AutofillServerCommunication,OptimizationHints,MediaRouter,"
                 "Translate,CertificateTransparencyComponentUpdater", "--disable-field-trial-config", "--no-service-autorun",
                 "--disable-breakpad", "--metrics-recording-only", "--no-default-browser-check")
"""The browser's own calls home turned off (what is left of them, a blank page makes too: :func:`_off_site`)."""


def _host(request_line: str) -> str:
    """The host of a proxied request's first line (``CONNECT host:443 ...`` or ``GET http://host/...``)."""
    target = request_line.split(" ")[1] if " " in request_line else request_line
    return re.sub(r"^[a-z]+://", "", target).split("/")[0].split(":")[0]


def _off_site(site: dict[str, Any], page: str, tmp_path: Path) -> set[str]:
    """The hosts off this machine that rendering ``page`` reached, less those Chromium itself reaches on a blank
    page (its own services, whatever the page): what the page asked for."""
    if "baseline" not in site:
        _Catch.seen.clear()
        _chromium(site, "about:blank", tmp_path)
        site["baseline"] = {_host(x) for x in _Catch.seen}
    _Catch.seen.clear()
    site["pages"].pop(page, None)
    _render(site, page, tmp_path)
    return {_host(x) for x in _Catch.seen} - site["baseline"]


ASSET_HOSTS = ("fonts.googleapis.com", "fonts.gstatic.com", "cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com",
               "polyfill.io", "mathjax.org", "cdn.mathjax.org")
"""Where a documentation site's fonts and scripts usually come from: never reached, baseline or not."""


def _chromium(site: dict[str, Any], url: str, tmp_path: Path) -> str:
    res = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", *QUIET_BROWSER,
                          f"--user-data-dir={tmp_path / 'profile'}", f"--proxy-server=http://127.0.0.1:{site['proxy']}",
                          "--virtual-time-budget=10000", "--window-size=1280,2000", "--dump-dom", url],
                         capture_output=True, text=True, timeout=180)
    assert res.returncode == 0 and "</html>" in res.stdout, res.stderr[-2000:]
    return res.stdout


def _render(site: dict[str, Any], page: str, tmp_path: Path) -> str:
    """The page's DOM once its scripts ran (Chromium, headless), every request off this machine sent to the
    catching proxy."""
    if page not in site["pages"]:
        site["pages"][page] = _chromium(site, f"{site['url']}/{page}", tmp_path)
    return str(site["pages"][page])


def _title(site: dict[str, Any], href: str) -> str:
    """The H1 of the page ``href`` (relative to the home page) in the built site."""
    text = (site["dir"] / href.split("#")[0] / "index.html").read_text(encoding="utf-8")
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", text, re.DOTALL)
    assert h1 is not None, href
    return _plain(h1[1])


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("¶", "").split())


def test_home_page_has_an_example_a_picture_and_links_named_by_title(site: dict[str, Any], tmp_path: Path) -> None:
    dom = _render(site, "", tmp_path)
    body = dom[dom.index('<article'):dom.index('</article>')]
    assert re.search(r'<img[^>]+src="img/ruin\.svg"', body)
    assert "exactpte decompose --example ruin" in _plain(body) and "exactpte.decompose(exactpte.example" in _plain(body)
    links = re.findall(r'<a href="([a-z0-9_/-]+/)(?:#[^"]*)?"[^>]*>(.*?)</a>', body)
    pages = {href: _plain(text) for href, text in links if not href.startswith(("http", "#"))}
    assert len(pages) >= 20
    for href, text in pages.items():
        assert text == _title(site, href), (href, text)
        assert not text.endswith(".md")
    assert ("/img/ruin.svg", 200) in _Quiet.log


@pytest.mark.parametrize("page", ["closed-forms/", "proofs-for-families/"])
def test_maths_render_with_the_sites_own_katex(site: dict[str, Any], page: str, tmp_path: Path) -> None:
    """Every formula (arithmatex span) rendered by KaTeX, none in error, none left as TeX source; KaTeX's fonts
    served by the site; no request leaves the machine."""
    reached = _off_site(site, page, tmp_path)
    dom = _render(site, page, tmp_path)
    formulas = dom.split('class="arithmatex"')[1:]  # each formula's element, up to the next one
    rendered = [f for f in formulas if re.match(r'>(?:<span>)?<span class="katex(?:-display)?">', f)]
    assert len(formulas) > 10 and len(rendered) == len(formulas)
    assert "katex-error" not in dom
    assert not re.search(r'class="arithmatex">\\\(', dom)
    assert any(path.startswith("/assets/katex/fonts/") and path.endswith(".woff2") and code == 200 for path, code in _Quiet.log)
    assert reached == set() and not set(site["baseline"]) & set(ASSET_HOSTS)


def test_closed_forms_page_shows_its_pictures(site: dict[str, Any], tmp_path: Path) -> None:
    reached = _off_site(site, "closed-forms/", tmp_path)
    dom = _render(site, "closed-forms/", tmp_path)
    for name in ("strata.png", "ruin-strata.png"):
        assert re.search(rf'<img[^>]+src="\.\./img/{re.escape(name)}"', dom), name
        assert (f"/img/{name}", 200) in _Quiet.log, name  # the browser fetched it, and got it
        assert (site["dir"] / "img" / name).read_bytes()[:4] == b"\x89PNG"
    assert reached == set()


def test_no_page_loads_anything_from_the_network(site: dict[str, Any], tmp_path: Path) -> None:
    """The pages reference no script, style sheet or font off the site (Material's Google fonts are off)."""
    for page in ("", "quickstart/", "closed-forms/", "proofs-for-families/"):
        assert _off_site(site, page, tmp_path) == set(), page
        dom = _render(site, page, tmp_path)
        assert not re.search(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//', dom), page
