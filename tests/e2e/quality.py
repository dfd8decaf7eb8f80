"""Checks every browser test can run on any page of the web app: no sideways scrolling
of the whole page, and no serious or critical accessibility violation found by axe-core.

axe-core is the web app's npm dev dependency, injected from frontend/node_modules (never
a CDN): the tests run offline and check with the version the lock file pins."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_SOURCE = Path(__file__).resolve().parents[2] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
# Moderate and minor findings are advice; these two block people from using a page.
BLOCKING_IMPACTS = ("serious", "critical")


@cache
def _axe_source() -> str:
    if not AXE_SOURCE.exists():
        raise AssertionError(f"{AXE_SOURCE} is missing: `cd frontend && npm ci` installs axe-core")
    return AXE_SOURCE.read_text()


def accessibility_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluate() goes through the DevTools protocol, so a page's CSP cannot block it.
        page.evaluate(_axe_source())
    results = page.evaluate(
        """async () => {
            const results = await window.axe.run(document, {
                runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
                // Only the violations are read: axe then skips the details of every passing node.
                resultTypes: ["violations"],
            });
            return results.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary),
            }));
        }"""
    )
    return [violation for violation in results if violation["impact"] in BLOCKING_IMPACTS]


def assert_accessible(page: Page) -> None:
    """No serious or critical axe-core violation on the page as it is now."""
    violations = accessibility_violations(page)
    lines = [f"- {v['impact']} {v['id']} ({v['help']}): {'; '.join(v['nodes'][:5])}" for v in violations]
    assert not violations, f"accessibility violations at {page.url}:\n" + "\n".join(lines)


def horizontal_overflow(page: Page) -> int:
    """How many CSS pixels the whole page is wider than its layout viewport (0: it fits); not
    window.innerWidth, which a phone browser widens when it zooms out to show an overflowing page."""
    root = "document.documentElement"
    return int(page.evaluate(f"Math.max(0, {root}.scrollWidth - {root}.clientWidth)"))


# The innermost elements reaching past the layout viewport's right edge, named as CSS paths.
WIDE_ELEMENTS = """() => {
    const width = document.documentElement.clientWidth;
    const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
        + [...e.classList].map((c) => "." + c).join("");
    const path = (e) => { const parts = []; for (; e && e !== document.body; e = e.parentElement)
        parts.unshift(name(e)); return parts.join(" > "); };
    // Its box, or the content overflowing it (a long word sticks out of a box that fits).
    const right = (e) => Math.max(e.getBoundingClientRect().right,
        e.getBoundingClientRect().left + e.scrollWidth);
    const wide = [...document.body.querySelectorAll("*")].filter((e) => right(e) > width + 0.5);
    return wide.filter((e) => !wide.some((other) => other !== e && e.contains(other)))
        .slice(0, 5).map((e) => path(e) + " (" + Math.round(right(e)) + "px)");
}"""


def assert_no_horizontal_scroll(page: Page) -> None:
    """The whole page fits the window's width (wide tables may scroll inside their own box)."""
    overflow = horizontal_overflow(page)
    if overflow:
        wide = "; ".join(page.evaluate(WIDE_ELEMENTS))
        raise AssertionError(f"{page.url} scrolls sideways by {overflow}px at {page.viewport_size}: {wide}")


def assert_page_quality(page: Page) -> None:
    """Both checks: what every test step on a page should hold."""
    assert_no_horizontal_scroll(page)
    assert_accessible(page)
