"""Duration normaliser: load YAML whose plain values like 1h30m are durations, scale them, and dump normalised YAML."""
import argparse
import re
import sys

import yaml

PATTERN = re.compile(r"^(?:[0-9]+[dhms])+$")
UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


class Duration:
    def __init__(self, seconds):
        self.seconds = seconds

    def text(self):
        if self.seconds == 0:
            return "0s"
        rest, parts = self.seconds, []
        for unit in "dhms":
            count, rest = divmod(rest, UNITS[unit])
            if count:
                parts.append(f"{count}{unit}")
        return "".join(parts)


class DurationLoader(yaml.SafeLoader):
    pass


class DurationDumper(yaml.SafeDumper):
    pass


def parse_duration(text):
    if not PATTERN.match(text):
        raise ValueError(f"not a duration: {text!r}")
    return sum(int(n) * UNITS[u] for n, u in re.findall(r"([0-9]+)([dhms])", text))


def construct_duration(loader, node):
    value = loader.construct_scalar(node)
    try:
        return Duration(parse_duration(value.strip()))
    except ValueError as exc:
        raise yaml.constructor.ConstructorError(None, None, str(exc), node.start_mark)


def represent_duration(dumper, data):
    return dumper.represent_scalar("!duration", data.text())


yaml.add_implicit_resolver("!duration", PATTERN, list("0123456789"), Loader=DurationLoader, Dumper=DurationDumper)
yaml.add_constructor("!duration", construct_duration, Loader=DurationLoader)
yaml.add_representer(Duration, represent_duration, Dumper=DurationDumper)


def collect(value, path, found):
    if isinstance(value, Duration):
        found.append((path or "(root)", value))
    elif isinstance(value, dict):
        for key, item in value.items():
            collect(item, f"{path}.{key}" if path else str(key), found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            collect(item, f"{path}[{index}]", found)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", default="1", help="multiply every duration by this factor (int or a/b)")
    parser.add_argument("--flow", default="false", help="dump in flow style")
    args = parser.parse_args()
    num, _, den = args.scale.partition("/")
    if not num.isdigit() or (den and not den.isdigit()) or den == "0":
        print(f"error: bad scale {args.scale!r}")
        return
    num, den = int(num), int(den or 1)
    try:
        data = yaml.load(sys.stdin.read(), Loader=DurationLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        print(f"error: {type(exc).__name__}: {exc.problem} (line {mark.line + 1}, column {mark.column + 1})")
        return
    found = []
    collect(data, "", found)
    for path, duration in found:
        duration.seconds = duration.seconds * num // den
        print(f"{path}: {duration.seconds}s")
    print(f"total: {Duration(sum(d.seconds for _, d in found)).text()} in {len(found)} values")
    sys.stdout.write(yaml.dump(data, Dumper=DurationDumper, sort_keys=False,
                               default_flow_style=args.flow.lower() in ("true", "1", "yes")))


if __name__ == "__main__":
    main()
