"""axe-core (Deque's accessibility engine) for the browser tests: find WCAG 2.1 A/AA problems in a page.

The engine is one script, ``axe.min.js``, taken from the npm package at a pinned version whose
published sha512 is checked, exactly as ``make html`` gets the widget manager (``npm pack`` once,
cached in ``build/web-assets/``). Nothing comes from a CDN at test time. Without npm or the
registry the tests that need it are skipped, and the skip says why.

    from tests.browser.axe import axe_violations, describe_violations
    found = axe_violations(page, include=[".bpe-stepper"])
    assert not found, describe_violations(found)

Only *serious* and *critical* findings are returned: those are what the course promises to have
none of. Scope every call to the course's own markup (``include``): JupyterLab's and Voilà's own
chrome have findings of their own that the course cannot fix.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from bpelab.course.html_export import CACHE_DIR, NpmAsset, fetch_tarball

AXE_CORE = NpmAsset(
    package="axe-core",
    version="4.14.1",
    integrity="sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
    licence="MPL-2.0",
    files={"package/axe.min.js": "axe.min.js"},
    folders={},
)
"""The engine; its sha512 is the one the npm registry publishes for axe-core 4.14.1."""

WCAG_21_AA_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""The rules of WCAG 2.0 and 2.1, levels A and AA (axe's own tags for them)."""

BLOCKING_IMPACTS = ("serious", "critical")

_RUN_AXE_JS = """async ([include, exclude, tags]) => {
    const context = {include: include.map(s => [s])};
    if (exclude.length) context.exclude = exclude.map(s => [s]);
    const results = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, tags: v.tags,
        nodes: v.nodes.map(n => ({target: n.target, html: n.html, impact: n.impact, summary: n.failureSummary})),
    }));
}"""


def axe_script(cache_dir: Path = CACHE_DIR) -> Path:
    """``axe.min.js`` from the verified, cached npm tarball (fetched with ``npm pack`` the first
    time); the calling test is skipped, with the reason, if it cannot be had."""
    target = cache_dir / f"axe-core-{AXE_CORE.version}" / "axe.min.js"
    if target.is_file():
        return target
    try:
        tarball = fetch_tarball(AXE_CORE, cache_dir)
        with tarfile.open(tarball, "r:gz") as archive:
            data = archive.extractfile("package/axe.min.js")
            if data is None:
                raise RuntimeError(f"{tarball.name} has no package/axe.min.js")
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".part")
            partial.write_bytes(data.read())
            partial.replace(target)
    except (RuntimeError, OSError, tarfile.TarError, KeyError) as err:
        pytest.skip(
            f"axe-core {AXE_CORE.version} could not be had from the npm registry ({err}); accessibility untested"
        )
    return target


def axe_violations(page: Page, include: list[str], exclude: list[str] | None = None) -> list[dict[str, Any]]:
    """Run axe-core's WCAG 2.1 A/AA rules on the elements matching ``include`` (CSS selectors),
    minus those matching ``exclude``; return the serious and critical violations.

    Every ``include`` selector must match something: a scope that matches nothing would make a
    clean report mean nothing, so that raises AssertionError instead.
    """
    missing = [selector for selector in include if page.locator(selector).count() == 0]
    if missing:
        raise AssertionError(f"nothing to check: no element matches {missing} on {page.url}")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_script()))
    found = page.evaluate(_RUN_AXE_JS, [list(include), list(exclude or []), list(WCAG_21_AA_TAGS)])
    return [violation for violation in found if violation["impact"] in BLOCKING_IMPACTS]


def count_nodes(violations: list[dict[str, Any]]) -> int:
    """How many elements the violations name (one rule can fail on many elements)."""
    return sum(len(violation["nodes"]) for violation in violations)


def describe_violations(violations: list[dict[str, Any]], *, max_nodes: int = 5) -> str:
    """The violations as lines a person can act on: rule, impact, what to do, where, and the markup."""
    if not violations:
        return "no serious or critical accessibility violations"
    lines = [f"{len(violations)} rule(s) failed on {count_nodes(violations)} element(s):"]
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}  <{violation['helpUrl']}>")
        for node in violation["nodes"][:max_nodes]:
            html = " ".join(node["html"].split())
            lines.append(f"    at {' > '.join(map(str, node['target']))}: {html[:160]}")
        if len(violation["nodes"]) > max_nodes:
            lines.append(f"    … and {len(violation['nodes']) - max_nodes} more")
    return "\n".join(lines)
