"""Every web-app page the service links to (``campaign.links``) is a route of the web app's
router, read from ``frontend/src/App.tsx``; and no other module writes a page's path itself."""

from __future__ import annotations

import re
from pathlib import Path

from campaign import links

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "frontend" / "src" / "App.tsx"


def app_routes(source: str) -> set[str]:
    """The full paths of the router's ``<Route>`` elements, nested ones joined to their parent's
    (an index route is its parent's path)."""
    routes: set[str] = set()
    parents: list[str] = []
    position = 0
    while (start := source.find("<Route", position)) != -1:
        if source.startswith("<Routes", start):
            position = start + 1
            continue
        del parents[len(parents) - source.count("</Route>", position, start) :]  # the elements closed
        depth, end = 0, start
        while True:  # the tag ends at the first ">" outside braces: element={<Page />} holds some
            char = source[end]
            depth += {"{": 1, "}": -1}.get(char, 0)
            if char == ">" and depth == 0:
                break
            end += 1
        tag = source[start : end + 1]
        found = re.search(r'\bpath="([^"]*)"', tag)
        parent = parents[-1] if parents else ""
        path = found.group(1) if found else ""
        full = path if path.startswith("/") else f"{parent.rstrip('/')}/{path}".rstrip("/") or "/"
        routes.add(full)
        if not tag.endswith("/>"):
            parents.append(full)
        position = end + 1
    return routes


def test_the_parser_reads_nested_and_index_routes():
    source = (
        '<Routes><Route path="/a" element={<A x={1} />} />'
        '<Route path="/c/:id" element={<L />}><Route index element={<D />} />'
        '<Route path="b" element={<B />} /></Route><Route path="*" element={<N />} /></Routes>'
    )
    assert app_routes(source) == {"/a", "/c/:id", "/c/:id/b", "/*"}


def test_every_page_the_service_links_to_is_a_route_of_the_web_app():
    routes = app_routes(APP.read_text())
    assert "/campaigns/:slug/battles/:battleId" in routes  # the parser found the nested routes
    missing = {name: path for name, path in links.PAGES.items() if path not in routes}
    assert not missing, f"pages linked to that the web app's router does not have: {missing}"


def test_no_other_module_writes_a_page_path_itself():
    written = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in ("campaign", "api")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and path != ROOT / "campaign" / "links.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"""f?["']/(campaigns|join|inbox)/""", line)
    ]
    assert not written, f"web-app paths written outside campaign.links: {written}"
