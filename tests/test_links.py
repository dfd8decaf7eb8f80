"""Every web-app page the service links to (``campaign.links``) is a route of the web app's
router, read from ``frontend/src/App.tsx``'s route objects; and no other module writes a page's
path itself."""

from __future__ import annotations

import re
from pathlib import Path

from campaign import links

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "frontend" / "src" / "App.tsx"


def app_routes(source: str) -> set[str]:
    """The full paths of the router's route objects (``const routes``), nested ones (in their
    parent's ``children``) joined to their parent's; an index route is its parent's path."""
    start = source.index("const routes")
    body = source[start : source.index("\n];", start)]
    routes: set[str] = set()
    # For each object open where the tokens are: the full path of its parent's route, and its own
    # (its parent's until a ``path`` says otherwise). A route's handle and a page's arguments are
    # objects too, which add nothing: they name no path.
    opened: list[tuple[str, str]] = []
    for token in re.finditer(r'[{}]|\bpath: "([^"]*)"|\bindex: true', body):
        text = token.group(0)
        if text == "{":
            own = opened[-1][1] if opened else ""
            opened.append((own, own))
        elif text == "}":
            opened.pop()
        elif token.group(1) is not None:
            parent, path = opened[-1][0], token.group(1)
            full = path if path.startswith("/") else f"{parent.rstrip('/')}/{path}".rstrip("/") or "/"
            opened[-1] = (parent, full)
            routes.add(full)
        else:
            routes.add(opened[-1][0] or "/")
    return routes


def test_the_parser_reads_nested_and_index_routes():
    source = """
const routes: RouteObject[] = [
  { path: "/a", ...page(A, (client, { slug = "" }) => prefetch(client, slug)) },
  {
    element: <Gate />,
    children: [
      {
        path: "/c/:id",
        handle: { preload: (client) => void client.prefetchQuery(q) },
        children: [{ index: true, ...page(D) }, { path: "b", ...page(B) }],
      },
    ],
  },
  { path: "*", element: <p>No such page.</p> },
];
"""
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
