"""A tiny query builder: turn a JSON query spec into a JMESPath syntax tree and run it on a document."""

import argparse
import json
import sys

import jmespath.ast as jast
from jmespath.exceptions import JMESPathError
from jmespath.parser import ParsedResult

OPS = {"=": "eq", "!=": "ne", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def path(text: str):
    parts = [jast.field(p) for p in text.split(".")]
    return parts[0] if len(parts) == 1 else jast.subexpression(parts)


def build(spec: dict):
    source = path(spec["from"]) if spec.get("from") else jast.identity()
    shown = [spec.get("from") or "@"]
    conditions = []
    for field_name, op, value in spec.get("where", []):
        if op not in OPS:
            raise ValueError(f"unknown operator {op!r}")
        conditions.append(jast.comparator(OPS[op], path(field_name), jast.literal(value)))
    if spec.get("where_any"):
        alternatives = [jast.not_expression(jast.not_expression(path(f))) for f in spec["where_any"]]
        combined = alternatives[0]
        for alt in alternatives[1:]:
            combined = jast.or_expression(combined, alt)
        conditions.append(combined)
    if conditions:
        condition = conditions[0]
        for extra in conditions[1:]:
            condition = jast.and_expression(condition, extra)
        tree = jast.filter_projection(source, jast.identity(), condition)
    else:
        tree = jast.projection(source, jast.identity())
    shown.append(f"{len(conditions)} condition(s)")
    if spec.get("sort"):
        tree = jast.pipe(tree, jast.function_expression("sort_by", [jast.current_node(), jast.expref(path(spec["sort"]))]))
        shown.append(f"sorted by {spec['sort']}")
    select = spec.get("select")
    if isinstance(select, dict):
        right = jast.multi_select_dict([jast.key_val_pair(k, path(v)) for k, v in select.items()])
    elif isinstance(select, list):
        right = jast.multi_select_list([path(v) for v in select])
    else:
        right = None
    if right is not None:
        tree = jast.pipe(tree, jast.projection(jast.identity(), right))
    if spec.get("limit") is not None:
        tree = jast.pipe(tree, jast.index_expression([jast.identity(), jast.slice(None, spec["limit"], None)]))
        shown.append(f"first {spec['limit']}")
    return tree, ", ".join(shown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--query", required=True, help="JSON spec: from, where, where_any, select, sort, limit")
    args = parser.parse_args()

    try:
        spec = json.loads(args.query)
        data = json.loads(sys.stdin.read())
    except ValueError as exc:
        print(f"error: bad JSON: {exc}")
        return
    if not isinstance(spec, dict):
        print("error: the query must be a JSON object")
        return
    try:
        tree, summary = build(spec)
    except (ValueError, TypeError, AttributeError) as exc:
        print(f"error: bad query: {exc}")
        return
    print(f"plan: {summary}")
    try:
        result = ParsedResult("<built>", tree).search(data)
    except (JMESPathError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if isinstance(result, list):
        print(f"rows: {len(result)}")
        for row in result:
            print(json.dumps(row, sort_keys=True))
    else:
        print(f"result: {json.dumps(result, sort_keys=True)}")


if __name__ == "__main__":
    main()
