"""CSV to YAML: read CSV from stdin and write YAML by emitting PyYAML events directly."""
import argparse
import csv
import io
import sys

import yaml


def scalar(text, typed, style=None):
    # typed: the value may be read back as int/bool/null...; untyped: it must stay a string
    implicit = (True, False) if typed else (False, True)
    return yaml.ScalarEvent(anchor=None, tag=None, implicit=implicit, value=text, style=style)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--layout", default="records", help="records (list of mappings) or columns (mapping of lists)")
    parser.add_argument("--typed", default="false", help="let values resolve to numbers, booleans and nulls")
    parser.add_argument("--flow", default="false", help="write each row (or column) in flow style")
    parser.add_argument("--delimiter", default=",", help="one-character CSV delimiter")
    parser.add_argument("--explicit", default="false", help="explicit document start and end markers")
    args = parser.parse_args()
    if args.layout not in ("records", "columns") or len(args.delimiter) != 1:
        print("error: --layout is records or columns and --delimiter a single character")
        return
    typed = args.typed.lower() in ("true", "1", "yes")
    flow = args.flow.lower() in ("true", "1", "yes")
    explicit = args.explicit.lower() in ("true", "1", "yes")
    try:
        rows = list(csv.reader(io.StringIO(sys.stdin.read()), delimiter=args.delimiter))
    except csv.Error as exc:
        print(f"error: bad CSV: {exc}")
        return
    if not rows:
        print("error: no header row")
        return
    header, body = rows[0], rows[1:]

    events = [yaml.StreamStartEvent(), yaml.DocumentStartEvent(explicit=explicit)]
    if args.layout == "records":
        events.append(yaml.SequenceStartEvent(anchor=None, tag=None, implicit=True, flow_style=False))
        for row in body:
            events.append(yaml.MappingStartEvent(anchor=None, tag=None, implicit=True, flow_style=flow))
            for index, name in enumerate(header):
                events.append(scalar(name, False))
                events.append(scalar(row[index] if index < len(row) else "", typed))
            events.append(yaml.MappingEndEvent())
        events.append(yaml.SequenceEndEvent())
    else:
        events.append(yaml.MappingStartEvent(anchor=None, tag=None, implicit=True, flow_style=False))
        for index, name in enumerate(header):
            events.append(scalar(name, False))
            events.append(yaml.SequenceStartEvent(anchor=None, tag=None, implicit=True, flow_style=flow))
            for row in body:
                events.append(scalar(row[index] if index < len(row) else "", typed))
            events.append(yaml.SequenceEndEvent())
        events.append(yaml.MappingEndEvent())
    events += [yaml.DocumentEndEvent(explicit=explicit), yaml.StreamEndEvent()]
    sys.stdout.write(yaml.emit(events, allow_unicode=True))
    print(f"# {len(body)} rows, {len(header)} columns, {len(events)} events")


if __name__ == "__main__":
    main()
