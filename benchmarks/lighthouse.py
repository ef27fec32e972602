#!/usr/bin/env python
"""Lighthouse scores of the browser client: the lobby and a table of each game, desktop
and phone, against Debian's chromium.

Lighthouse comes from npm (``lighthouse@12.8.2``), installed once into a scratch folder
(``--tools``, default ``~/.cache/velvet-lighthouse``), never a dependency of Velvet. The
server is ``velvet serve`` on a new SQLite file, on 127.0.0.1; each table is a new room
whose seat the page claims from its invite (Lighthouse starts each run with empty storage,
so a room serves one run).

    python benchmarks/lighthouse.py
    python benchmarks/lighthouse.py --pages lobby,vs --forms mobile --runs 3

Prints performance, accessibility and best practices per page and form (the median of
``--runs``), and the first contentful paint; ``--json FILE`` keeps every run's scores,
``--reports DIR`` every run's full Lighthouse report (its audits say what cost the points).
Performance moves with the machine's load: docs/web.md gives the figures with the load
they were measured under.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from serve_load import start_server

LIGHTHOUSE = "lighthouse@12.8.2"
CATEGORIES = ("performance", "accessibility", "best-practices")
FORMS = ("desktop", "mobile")


def lighthouse_bin(tools: Path) -> Path:
    """The Lighthouse command in ``tools``, installed there with npm the first time."""
    found = tools / "node_modules" / ".bin" / "lighthouse"
    if found.exists():
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is needed to install Lighthouse: apt-get install -y npm")
    tools.mkdir(parents=True, exist_ok=True)
    print(f"installing {LIGHTHOUSE} into {tools} …", flush=True)
    subprocess.run(
        [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(tools), LIGHTHOUSE],
        check=True,
    )
    return found


def page_url(base: str, page: str) -> str:
    """The address of ``page``: the lobby, or a new room's table of that game."""
    if page == "lobby":
        return f"{base}/"
    body: dict[str, Any] = {"game": page, "listed": False}
    made = httpx.post(f"{base}/api/rooms", json=body, timeout=30)
    made.raise_for_status()
    return str(made.json()["invites"][0]["url"])


def run_once(command: Path, chrome: str, url: str, form: str, out: Path) -> dict[str, float]:
    flags = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
    args = [
        str(command),
        url,
        "--quiet",
        f"--chrome-flags={flags}",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    if form == "desktop":
        args.append("--preset=desktop")
    subprocess.run(args, check=True, env={**os.environ, "CHROME_PATH": chrome}, timeout=300)
    report = json.loads(out.read_text())
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    paint = report["audits"]["first-contentful-paint"]["numericValue"]
    return {**scores, "fcp_ms": round(paint)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default="lobby,p5,vs", help="lobby and game names")
    parser.add_argument("--forms", default="desktop,mobile", help="desktop, mobile or both")
    parser.add_argument("--runs", type=int, default=1, help="runs of each (the median shown)")
    parser.add_argument(
        "--tools",
        type=Path,
        default=Path.home() / ".cache" / "velvet-lighthouse",
        help="where Lighthouse is installed from npm",
    )
    parser.add_argument("--json", dest="json_out", type=Path, help="write every run here")
    parser.add_argument(
        "--reports", type=Path, help="keep Lighthouse's full JSON report of each run in this folder"
    )
    args = parser.parse_args(argv)
    forms = args.forms.split(",")
    if set(forms) - set(FORMS) or args.runs < 1:
        parser.error("--forms takes desktop and/or mobile, --runs 1 or more")
    chrome = shutil.which("chromium")
    if chrome is None:
        raise SystemExit("Debian's chromium is needed: apt-get install -y chromium")
    command = lighthouse_bin(args.tools)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="velvet-lighthouse-") as tmp:
        folder = Path(tmp)
        proc, port = start_server(f"sqlite:///{folder / 'lh.sqlite3'}", folder / "server.log")
        base = f"http://127.0.0.1:{port}"
        try:
            for page in args.pages.split(","):
                for form in forms:
                    runs = []
                    for n in range(args.runs):
                        out = folder / f"{page}-{form}-{n}.json"
                        runs.append(run_once(command, chrome, page_url(base, page), form, out))
                        if args.reports:
                            args.reports.mkdir(parents=True, exist_ok=True)
                            shutil.copy(out, args.reports / out.name)
                    median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                    results.append({"page": page, "form": form, "median": median, "runs": runs})
                    print(
                        f"{page:6} {form:7} performance {median['performance']:5.0f}  "
                        f"accessibility {median['accessibility']:5.0f}  best practices "
                        f"{median['best-practices']:5.0f}  first paint {median['fcp_ms']:6.0f} ms",
                        flush=True,
                    )
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
