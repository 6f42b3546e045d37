"""The HTML report opened in headless Chromium: a screenshot shows tables and plots; the DOM holds them.

Chromium comes from Debian (scripts/setup.d/30-chromium.sh). The screenshot is decoded with the stdlib
(zlib + PNG chunks + filter reversal) and checked for the colours the tables and charts are drawn in.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest

from repozero.cli import main

from .synthetic_report import random_episodes, write_run

WIDTH, HEIGHT = 1280, 2000
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--window-size={WIDTH},{HEIGHT}",
]


def _chromium() -> str:
    path = shutil.which("chromium")
    assert path, "chromium is not installed: run scripts/setup.d/30-chromium.sh"
    return path


def _run_chromium(tmp_path: Path, name: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    profile = tmp_path / f"profile-{name}"
    profile.mkdir()
    argv = [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
    return subprocess.run(argv, capture_output=True, timeout=120, check=False)


def _swar_add(a: int, b: int, low7: int, high: int) -> int:
    """Bytewise (a + b) mod 256 over whole rows packed in ints: no carry crosses a byte."""
    return ((a & low7) + (b & low7)) ^ ((a ^ b) & high)


def _unfilter(kind: int, line: bytes, prev: bytes, bpp: int, masks: tuple[int, int, int]) -> bytes:
    low7, high, full = masks
    stride = len(line)
    if kind == 0:
        return line
    if kind == 2:
        return _swar_add(int.from_bytes(line, "little"), int.from_bytes(prev, "little"), low7, high).to_bytes(
            stride, "little"
        )
    if kind == 1:
        x, shift = int.from_bytes(line, "little"), 8 * bpp
        while shift < 8 * stride:  # prefix sums by doubling
            x = _swar_add(x, (x << shift) & full, low7, high)
            shift *= 2
        return x.to_bytes(stride, "little")
    out = bytearray(stride)
    for i in range(stride):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 3:
            out[i] = (line[i] + ((a + b) >> 1)) & 255
            continue
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        out[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(out)


def decode_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """(width, height, rows of raw pixels, bytes per pixel) of an 8-bit RGB/RGBA non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (2, 6), header
    bpp = 3 if color == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    masks = (
        int.from_bytes(b"\x7f" * stride, "little"),
        int.from_bytes(b"\x80" * stride, "little"),
        (1 << (8 * stride)) - 1,
    )
    rows, prev = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        prev = _unfilter(raw[start], raw[start + 1 : start + 1 + stride], prev, bpp, masks)
        rows.append(prev)
    return width, height, rows, bpp


def _colour_counts(rows: list[bytes], bpp: int) -> Counter[bytes]:
    counts: Counter[bytes] = Counter()
    for row in rows:
        counts.update(row[i : i + 3] for i in range(0, len(row), bpp))
    return counts


def _rgb(hex_colour: str) -> bytes:
    return bytes.fromhex(hex_colour.lstrip("#"))


@pytest.fixture
def html_report(tmp_path: Path) -> Path:
    rng = random.Random(5)
    strict = write_run(
        tmp_path / "strict",
        random_episodes(rng, skill=0.2, attempts=2),
        model="weak",
        ace_rounds=2,
        attempts=2,
    )
    public = write_run(
        tmp_path / "public",
        random_episodes(rng, skill=0.4, attempts=2),
        model="strong",
        protocol="repozero-public",
        ace_rounds=2,
        attempts=2,
    )
    out = tmp_path / "out"
    assert (
        main(
            ["report", str(strict), str(public), "--out", str(out), "--format", "html", "--resamples", "100"]
        )
        == 0
    )
    return out / "report.html"


def test_html_is_self_contained(html_report: Path) -> None:
    html = html_report.read_text()
    for external in ("src=", "<link", "url(", "@import", "<script"):
        assert external not in html, external
    assert html.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http") == 0


def test_report_renders_in_headless_chromium(html_report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    result = _run_chromium(tmp_path, "shot", f"--screenshot={shot}", html_report.as_uri())
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    width, height, rows, bpp = decode_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    colours = _colour_counts(rows, bpp)
    backgrounds = sum(n for _, n in colours.most_common(2))  # the page and the section cards
    assert width * height - backgrounds > 0.05 * width * height, "the page is (nearly) blank"
    assert len(colours) > 200, "too few colours for text, tables and charts"
    # tables: header cells and the protocol note box are drawn in their own colours
    assert colours[_rgb("#eef1f5")] > 5_000
    assert colours[_rgb("#fff6db")] > 5_000
    # plots: the first two runs' series colours fill bars, lines and interval marks
    assert colours[_rgb("#3366cc")] > 500
    assert colours[_rgb("#dc7633")] > 500


def test_dom_holds_the_tables_and_plots(html_report: Path, tmp_path: Path) -> None:
    result = _run_chromium(tmp_path, "dom", "--dump-dom", html_report.as_uri())
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    dom = result.stdout.decode()
    assert (
        dom.count("<table") == 13
    )  # runs + 12 report tables (case statuses, paired, compute-matched, per sample)
    assert dom.count("<svg") >= 9
    assert dom.count("<rect") > 50 and dom.count("<circle") > 5
    for section in ("summary", "pr_by_difficulty", "pr_by_category", "ace_pr", "ace_sr", "failures", "cost"):
        assert f'id="{section}"' in dom
    assert "Runs differ in protocol" in dom


LAYOUT_PROBE = """<script>
const bad = [];
for (const svg of document.querySelectorAll('svg.chart')) {
  const width = svg.viewBox.baseVal.width;
  const boxes = [...svg.querySelectorAll('text')].filter(t => !t.hasAttribute('transform'))
    .map(t => [t.textContent, t.getBBox()]);
  for (const [s, b] of boxes) if (b.x < -0.5 || b.x + b.width > width + 0.5) bad.push('outside: ' + s);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [s1, a] = boxes[i], [s2, b] = boxes[j];
    if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5
        && b.y < a.y + a.height - 0.5) bad.push('overlap: ' + s1 + ' / ' + s2);
  }
}
const charts = [...document.querySelectorAll('svg.chart')].map(c => c.getBoundingClientRect().width);
const page = document.querySelector('main').getBoundingClientRect().width;
document.body.insertAdjacentHTML('beforeend', '<pre id="layout">' + JSON.stringify({bad, charts, page,
  wide: document.documentElement.scrollWidth > window.innerWidth + 1}) + '</pre>');
</script>"""


@pytest.mark.parametrize("width", [1400, 800])
def test_every_chart_and_table_fits_at_both_widths(tmp_path: Path, width: int) -> None:
    """At 1400 px and 800 px: no chart text outside its chart or over another text, no page wider than
    the window, charts at least half the page wide; the screenshots are kept beside the test's files."""
    rng = random.Random(9)
    runs = [
        write_run(tmp_path / f"r{i}", random_episodes(rng, skill=0.2 + 0.2 * i, attempts=2), model=name,
                  ace_rounds=2, attempts=2)
        for i, name in enumerate(["fake:mix:never@roman-numerals,gold@*", "hosted-model-with-a-long-name", "m"])
    ]  # fmt: skip
    out = tmp_path / "out"
    assert main(["report", *map(str, runs), "--out", str(out), "--format", "html", "--resamples", "50"]) == 0
    probe = out / "probe.html"
    probe.write_text((out / "report.html").read_text().replace("</body>", LAYOUT_PROBE + "</body>"))
    size = f"--window-size={width},{HEIGHT}"
    result = _run_chromium(tmp_path, f"layout{width}", size, "--dump-dom", probe.as_uri())
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    found = re.findall(
        r'<pre id="layout">(\{.*?)</pre>', result.stdout.decode(), re.S
    )  # not the script's own
    assert found, result.stdout.decode()[-2000:]
    layout = json.loads(html.unescape(found[-1]))
    assert layout["bad"] == [] and not layout["wide"], layout
    assert len(layout["charts"]) >= 9 and min(layout["charts"]) >= min(0.5 * layout["page"], 600), layout
    shot = tmp_path / f"report-{width}.png"
    _run_chromium(tmp_path, f"shot{width}", size, f"--screenshot={shot}", (out / "report.html").as_uri())
    print(f"screenshot at {width} px: {shot}")
    assert shot.stat().st_size > 10_000
