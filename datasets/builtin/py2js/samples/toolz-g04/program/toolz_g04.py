"""Summarise 'region,product,quantity,unit_cents' sales rows: revenue by region and category, units sold and the top sales (toolz.reduceby / pluck / join / merge_with / valmap / topk)."""
import argparse
import sys

import toolz


def money(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--catalog", default="", help="product:category pairs separated by commas")
    parser.add_argument("--top", type=int, default=3, help="how many best sales to list")
    args = parser.parse_args()

    rows = []
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        try:
            if len(fields) != 4:
                raise ValueError
            rows.append((fields[0], fields[1], int(fields[2]), int(fields[3]), number))
        except ValueError:
            print(f"line {number}: skipped")
    catalog = [tuple(p.strip() for p in pair.split(":", 1)) for pair in args.catalog.split(",") if ":" in pair]

    print(f"rows: {len(rows)}, units: {sum(toolz.pluck(2, rows))}")
    revenue = toolz.reduceby(lambda r: r[0], lambda total, r: total + r[2] * r[3], rows, 0)
    for region, text in sorted(toolz.valmap(money, revenue).items()):
        print(f"region {region}: {text}")
    matched = list(toolz.join(0, catalog, lambda r: r[1], rows))
    per_category = toolz.merge_with(sum, *[{cat[1]: row[2] * row[3]} for cat, row in matched])
    for category, total in sorted(per_category.items()):
        print(f"category {category}: {money(total)}")
    covered = {row[4] for _, row in matched}
    uncategorised = [row[1] for row in rows if row[4] not in covered]
    print(f"uncategorised: {' '.join(uncategorised) if uncategorised else '(none)'}")
    for row in toolz.topk(max(args.top, 0), rows, key=lambda r: r[2] * r[3]):
        print(f"top: line {row[4]} {row[0]}/{row[1]} {money(row[2] * row[3])}")


if __name__ == "__main__":
    main()
