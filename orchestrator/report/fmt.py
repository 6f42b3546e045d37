"""How cells read as text: one place, so Markdown and HTML show the same numbers the same way."""

from __future__ import annotations

from repozero.orchestrator.report.estimates import Estimate
from repozero.orchestrator.report.model import Cell, Row, Share

__all__ = ["cell_detail", "cell_main", "cell_text", "pct", "short_hash"]

MISSING = "—"


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def cell_main(cell: Cell, row: Row) -> str:
    """The headline of a cell: `mean ± std` for rates (percent), a formatted number otherwise."""
    if cell is None:
        return MISSING
    if isinstance(cell, Estimate):
        if row.unit == "rate_macro":
            return f"{pct(cell.macro)} ± {pct(cell.macro_std)}"
        return f"{pct(cell.mean)} ± {pct(cell.std)}"
    if isinstance(cell, Share):
        return f"{pct(cell.fraction)}% ({cell.count}/{cell.total})"
    if isinstance(cell, str):
        return cell
    if row.unit == "usd":
        return f"${cell:.4f}" if abs(cell) < 1 else f"${cell:,.2f}"
    if row.unit == "tokens":
        return f"{cell:,.0f}"
    return f"{cell:g}" if isinstance(cell, float) else str(cell)


def cell_detail(cell: Cell, row: Row) -> str:
    """The small print under a rate: 95% interval, the i.i.d. std beside it, and the sample count."""
    if not isinstance(cell, Estimate):
        return ""
    if row.unit == "rate_macro":
        return f"95% [{pct(cell.macro_lo)}, {pct(cell.macro_hi)}] · {cell.libraries} libraries"
    return f"95% [{pct(cell.lo)}, {pct(cell.hi)}] · i.i.d. ± {pct(cell.iid_std)} · n={cell.n}, {cell.libraries} lib."


def cell_text(cell: Cell, row: Row) -> str:
    """Headline and small print on one line (Markdown)."""
    detail = cell_detail(cell, row)
    return f"{cell_main(cell, row)} ({detail})" if detail else cell_main(cell, row)


def short_hash(digest: str) -> str:
    algo, _, hexdigest = digest.partition(":")
    return f"{algo}:{hexdigest[:12]}" if hexdigest else digest[:16]
