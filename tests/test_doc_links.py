"""Every link in README.md and docs/*.md points at something that exists: a relative link's
file, its #anchor among the target's headings (as GitHub makes them), and a section named in
the pages' own way of citing one (docs/search.md "The reference bot", docs/evidence.md,
"Speed") among the headings of that page. A section renamed or a page removed fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
CITED = re.compile(r"((?:docs/)?[a-z-]+\.md),? \(?\"([^\"]+)\"")


def _prose(text: str) -> str:
    """``text`` without its fenced code blocks (a shell example is not a link)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def headings(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6} (.+)$", _prose(text), re.M)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower())
    return text.replace(" ", "-")


def _target(page: Path, ref: str) -> Path:
    return (page.parent / ref).resolve() if ref else page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_and_anchors_exist(page):
    bad = []
    for m in LINK.finditer(_prose(page.read_text(encoding="utf-8"))):
        link = m.group(1) or m.group(2)
        if re.match(r"[a-z]+:", link):
            continue
        ref, _, anchor = link.partition("#")
        target = _target(page, ref)
        if not target.exists():
            bad.append(f"{link}: no file {target.relative_to(ROOT)}")
        elif anchor and target.suffix == ".md" and \
                anchor not in {slug(h) for h in headings(target.read_text(encoding="utf-8"))}:
            bad.append(f"{link}: no heading #{anchor} in {target.name}")
    assert not bad, f"{page.name}: {bad}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_sections_cited_by_name_exist(page):
    bad = []
    for ref, title in CITED.findall(_prose(page.read_text(encoding="utf-8"))):
        title = " ".join(title.split())  # a citation may wrap across lines
        target = ROOT / ref if "/" in ref else ROOT / "docs" / ref
        if not target.exists():
            target = ROOT / ref
        if not target.exists():
            bad.append(f'{ref} "{title}": no such page')
            continue
        text = target.read_text(encoding="utf-8")
        names = [" ".join(h.replace("`", "").split()) for h in headings(text)]
        blocks = re.findall(r"<!-- evidence ([\w-]+)", text)
        if not any(n.startswith(title.replace("`", "")) for n in names) and title not in blocks:
            bad.append(f'{ref} "{title}": no such section')
    assert not bad, f"{page.name}: {bad}"


def test_the_checks_see_a_broken_link_and_a_missing_section(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# Top\n\n## Two words\n\n[x](#two-words) [y](#gone) [z](b.md)\n")
    links = [m.group(1) for m in LINK.finditer(page.read_text())]
    assert links == ["#two-words", "#gone", "b.md"]
    assert {slug(h) for h in headings(page.read_text())} == {"top", "two-words"}
    assert not (tmp_path / "b.md").exists()
    assert slug("The reference bot `expert`") == "the-reference-bot-expert"
    assert CITED.findall('see docs/search.md "The ladder" and reports.md, "Seat verdicts"') == \
        [("docs/search.md", "The ladder"), ("reports.md", "Seat verdicts")]


# The code's own citations of a page's section; the Python engine and bots (imhotep_stats/
# engine, imhotep_stats/bots) and their tests of its C rows go with the Python engine.
CODE = [*(ROOT / "imhotep_stats").rglob("*.py"), *(ROOT / "src").rglob("*.rs"),
        *(ROOT / "tools").glob("*"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "tests").glob("*.py"),
        *(ROOT / "configs").glob("*.toml"), ROOT / "Makefile"]
GOING = ("imhotep_stats/engine/", "imhotep_stats/bots/", "tests/test_engine_rows.py")


def test_sections_the_code_cites_exist():
    bad = []
    for f in CODE:
        name = f.relative_to(ROOT).as_posix()
        if name.startswith(GOING) or not f.is_file():
            continue
        for ref, title in CITED.findall(f.read_text(encoding="utf-8")):
            title = " ".join(re.sub(r"(#|//[/!]?)", " ", title).split())  # wrapped comments
            target = ROOT / ref if "/" in ref else ROOT / "docs" / ref
            if not target.exists() or ref == "README.md":
                continue  # a file name in a message, or the README's own headings
            text = target.read_text(encoding="utf-8")
            names = [" ".join(h.replace("`", "").split()) for h in headings(text)]
            blocks = re.findall(r"<!-- evidence ([\w-]+)", text)
            if not any(n.startswith(title.replace("`", "")) for n in names) and \
                    title not in blocks and not principle(text, title):
                bad.append(f'{name}: {ref} "{title}"')
    assert not bad, bad


def principle(text: str, title: str) -> bool:
    """`Architecture: randomness`: a bold principle of a page's "Architecture" section."""
    head, _, word = title.partition(": ")
    part = re.split(r"^## ", text, flags=re.M)
    return any(s.startswith(head) and re.search(rf"^- \*\*{re.escape(word)}", s, re.M | re.I)
               for s in part) if word else False


def test_a_principle_is_found_in_its_section_only():
    text = "# P\n\n## Architecture: the rules\n\n- **Randomness and more.** x\n\n## Other\n\n- **Speed.**\n"
    assert principle(text, "Architecture: randomness")
    assert not principle(text, "Architecture: speed") and not principle(text, "Architecture")
