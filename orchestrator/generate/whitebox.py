"""Choosing the whitebox cases an agent sees: ones that cover different behaviours, not the first four.

Greedy over measured code paths: each pick adds the most lines (of the package and the program) not yet
reached; ties go to an output not yet shown, then to input order. With every line covered, the rest are
picked for distinct outputs, then in input order. Deterministic for the same measurements.
"""

from __future__ import annotations

__all__ = ["choose_whitebox"]


def choose_whitebox(
    order: list[str], per_case: dict[str, list[int]], outputs: dict[str, bytes], count: int
) -> list[str]:
    """`count` case ids from `order` (or all of them when there are fewer), in the order picked."""
    covered: set[int] = set()
    shown: set[bytes] = set()
    chosen: list[str] = []
    left = list(order)
    while left and len(chosen) < count:
        best = max(
            left,
            key=lambda cid: (
                len(set(per_case.get(cid, ())) - covered),
                outputs.get(cid) not in shown,
                -order.index(cid),
            ),
        )
        chosen.append(best)
        left.remove(best)
        covered.update(per_case.get(best, ()))
        shown.add(outputs.get(best, b""))
    return chosen
