"""``build_report(run_dir, formats)``: every report file of a stored run, and the gates.

Run by ``imhotep-stats run`` after simulating and by ``imhotep-stats report`` on a stored
run; both produce the same bytes, because every input is in the run directory (shards and
manifest: no clock, no paths outside it) and every output is formatted deterministically.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from imhotep_stats.reporting import document, export, html, markdown, playtest, terminal
from imhotep_stats.reporting.figures import ReportData, compute
from imhotep_stats.reporting.gates import GateResult, evaluate

FORMATS = ("md", "html", "json", "csv", "parquet")
FILES = {"md": "report.md", "html": "report.html", "json": "summary.json"}
TABLES = "tables"
STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def parse_formats(text: str) -> tuple[str, ...]:
    """``"md,html"`` -> ("md", "html"); ``"all"`` -> every format; ``"none"`` -> no files
    (check the gates only). ValueError if unknown."""
    names = [x.strip().lower() for x in text.split(",") if x.strip()]
    if names == ["all"]:
        return FORMATS
    if names == ["none"]:
        return ()
    bad = [x for x in names if x not in FORMATS]
    if bad or not names:
        raise ValueError(f"unknown format {', '.join(bad) or '(none)'}; expected a comma-"
                         f"separated list of {', '.join(FORMATS)}, or all, or none")
    return tuple(x for x in FORMATS if x in names)


@dataclass
class Report:
    """What build_report made: the figures, gate results, texts and files written."""

    data: ReportData
    gates: list[GateResult]
    markdown: str
    terminal: str
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[GateResult]:
        return [g for g in self.gates if not g.passed]


def _samples(run_dir: Path, data: ReportData) -> dict[str, list[str]]:
    """Per cell id, the game viewer pages ``run --keep-games`` kept, relative to the run."""
    from imhotep_stats.sim.samples import kept_pages

    out = {}
    for c in data.cells:
        pages = kept_pages(run_dir, c.index)
        if pages:
            out[c.id] = [p.relative_to(run_dir).as_posix() for p in pages]
    return out


def build_report(run_dir: str | Path, formats: tuple[str, ...] = FORMATS,
                 step_summary: bool = True) -> Report:
    """Compute the figures of a finished run and write the files ``formats`` name.

    report.md is also appended to the file named by ``$GITHUB_STEP_SUMMARY`` when that is
    set (and ``step_summary``), as CI systems expect. Raises RunStoreError for a directory
    that is no finished run, GateConfigError for an invalid gates table in its manifest.
    """
    run_dir = Path(run_dir)
    data = compute(run_dir)
    gates = evaluate(data)
    blocks = playtest.extend(document.build(data, gates, _samples(run_dir, data)), data)
    md = markdown.render(blocks)
    report = Report(data, gates, md, terminal.render(data, gates))
    if "md" in formats:
        path = run_dir / FILES["md"]
        export.write_text(path, md)
        report.written.append(path)
        target = os.environ.get(STEP_SUMMARY_ENV)
        if target and step_summary:
            try:
                with open(target, "a", encoding="utf-8") as fh:
                    fh.write(md)
            except OSError as exc:
                report.warnings.append(f"cannot append to ${STEP_SUMMARY_ENV} ({target}): "
                                       f"{exc.strerror or exc}")
    if "html" in formats:
        path = run_dir / FILES["html"]
        export.write_text(path, html.render(blocks, f"Balance report: {data.study}"))
        report.written.append(path)
    if "json" in formats:
        path = run_dir / FILES["json"]
        export.write_text(path, export.summary_json(data, gates))
        report.written.append(path)
    table_formats = tuple(x for x in formats if x in ("csv", "parquet"))
    if table_formats:
        report.written += export.write_tables(data, gates, run_dir / TABLES, table_formats)
    return report
