"""Checks every browser test can run on any page of the web app: no sideways scrolling
of the whole page, and no serious or critical accessibility violation found by axe-core.

axe-core is the web app's npm dev dependency, injected from frontend/node_modules (never
a CDN): the tests run offline and check with the version the lock file pins."""

from __future__ import annotations

import re
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
    """What every test step on a page should hold: no sideways scroll, no accessibility
    violation, every text in words (issue 30: the whole club night is read so)."""
    assert_no_horizontal_scroll(page)
    assert_accessible(page)
    assert_readable(page)


# What a person reads on the page as it is now, and where the map's names and markers stand: one
# round trip. Text in code-like boxes (addresses, keys, the feed's lines) and form fields is left
# out: it is meant to be copied, not read as words; so is a chart's cell quoted in the chart's own
# notation (a roll's "Read from the chart"), which the charts page explains.
READING = """() => {
    const skip = "code, pre, kbd, samp, input, textarea, script, style, [hidden], .line, .chart-cell, "
        + "[aria-hidden=true]";
    // Each text in the sentence it is part of (a doubled word may straddle a link or a bold word).
    const blocks = "p, li, td, th, h1, h2, h3, h4, label, button, a, dd, dt, legend, caption, figcaption, "
        + "summary, option, text";
    const sentences = new Map();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest(skip)) continue;
        if (!parent.getClientRects().length) continue;  // not rendered (display: none)
        const block = parent.closest(blocks) ?? parent;
        // A space between two elements ({" "} in JSX) keeps their words apart; alone it is no text.
        if (!node.textContent.trim() && !sentences.has(block)) continue;
        sentences.set(block, (sentences.get(block) ?? "") + node.textContent);
    }
    const texts = [...sentences.values()];
    const box = (e) => { const r = e.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
    const named = (e) => e.closest("[data-sector]")?.getAttribute("data-sector") ?? "";
    const zoomed = [...document.querySelectorAll("svg.map-svg > g")]
        .some((g) => (g.getAttribute("transform") ?? "") !== "translate(0,0) scale(1)");
    return {
        texts: [...new Set(texts.map((t) => t.replace(/\\s+/g, " ").trim()))],
        names: zoomed ? [] : [...document.querySelectorAll("svg.map-svg .map-name")]
            .map((e) => ({sector: named(e), text: e.textContent, ...box(e)})),
        markers: zoomed ? [] : [...document.querySelectorAll("svg.map-svg .map-marker")]
            .map((e) => ({sector: named(e), ...box(e)})),
    };
}"""
# A code where words belong: snake_case, or a slug of three or more parts (dz-hal-far, malta-1942).
CODE_TOKEN = re.compile(
    r"(?<![\w/.@-])(?:[a-z0-9]+_[a-z0-9_]+|[a-z]+-[a-z0-9]+-[a-z0-9-]+|[a-z]+-\d+)(?![\w/@-])"
)
# A roll opened on its dice reads each throw in words: "2d6 [5+1] = 6".
DICE_TEXT = re.compile(r"\d*d\d+ \[[\d+]+\] = \d+")
DOUBLED_WORD = re.compile(r"\b([A-Za-z]{2,}) \1\b", re.IGNORECASE)
# "1 points": one of something counted in the plural, not "Day 1 orders" where the 1 names the day.
ONE_PLURAL = re.compile(r"(?:\b([A-Za-z]+)\.? )?\b1 (?!is\b|was\b|has\b|minus\b|plus\b)([a-z]{2,}s)\b")
NAMING = {"day", "turn", "segment", "round", "night", "table", "battle", "phase", "week", "no", "number"}
# A capital letter standing alone as a rating or grade ("led by B", "(C,B)", "A) Highly responsive"): the
# reader meets a code where the word it stands for belongs. "A" and "I" as words, a letter in a name
# ("C Ops", "A Coy", "Force A", "rating C"), a Roman numeral in a unit's name ("V Battaglione": no
# rating is V, X or L) and a compass point after a distance (3" N) are words.
LETTER_CODE = re.compile(
    r'(?<![\w\'’./-])(?<!" )(?!A [a-z])(?![IVXL]\b)[A-Z](?![\w\'’./-])(?! (?:Ops|Coy)\b)'
)
LETTER_NAMES = {"force", "template", "plan", "zone", "column", "table", "rating", "profile", "category"}


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    # Half a pixel of slack: boxes that only touch do not overlap.
    across = a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
    return across and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


def readability_findings(page: Page) -> list[str]:
    """What a reader should not meet on the page as it is now: a code where words belong, a
    doubled word, "1 points", a letter code without its meaning ("led by B"), and on the map (at
    its whole-map view) a name overlapping another name or a marker."""
    found = page.evaluate(READING)
    findings: list[str] = []
    for text in found["texts"]:
        for token in CODE_TOKEN.findall(text):
            findings.append(f"a code where words belong ({token!r}) in {text!r}")
        for match in DOUBLED_WORD.finditer(text):
            findings.append(f"a doubled word ({match.group(0)!r}) in {text!r}")
        for match in LETTER_CODE.finditer(text):
            before = re.sub(r"[^a-z ]", "", text[: match.start()].lower()).split()
            if not before or before[-1] not in LETTER_NAMES:
                findings.append(f"a letter code without its meaning ({match.group(0)!r}) in {text!r}")
        for match in ONE_PLURAL.finditer(text):
            if (match.group(1) or "").lower() not in NAMING:
                findings.append(f"one counted in the plural ({match.group(0)!r}) in {text!r}")
    names, markers = found["names"], found["markers"]
    for index, name in enumerate(names):
        for other in names[index + 1 :]:
            if _overlap(name, other):
                findings.append(f"map names overlap: {name['text']!r} and {other['text']!r}")
        for marker in markers:
            if marker["sector"] != name["sector"] and _overlap(name, marker):
                findings.append(f"map name {name['text']!r} covers the marker of {marker['sector']}")
    return sorted(set(findings))


def assert_readable(page: Page) -> None:
    """Every text the page renders reads as words, and the map's names stand clear of each other."""
    findings = readability_findings(page)
    assert not findings, f"unreadable at {page.url} ({page.viewport_size}):\n- " + "\n- ".join(findings)
