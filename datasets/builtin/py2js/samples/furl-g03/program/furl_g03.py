"""Path segment calculator: join segment lists with furl.join_path_segments, trim with remove_path_segments."""

import argparse
import json

from furl import join_path_segments, remove_path_segments


def to_segments(value, what):
    if isinstance(value, str):
        return value.split("/")
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    raise TypeError(f"{what} must be a string or a list of strings")


def show(segments):
    return json.dumps(segments, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--join", required=True,
                        help='JSON list of paths; each a "a/b" string or a ["a","b"] list of segments')
    parser.add_argument("--remove", help="JSON string or list of segments to remove from the end")
    parser.add_argument("--steps", default="false", help="true to print the result after each join")
    args = parser.parse_args()

    try:
        parts = json.loads(args.join)
        if not isinstance(parts, list):
            raise TypeError("--join must be a JSON list")
        lists = [to_segments(part, f"part {i + 1}") for i, part in enumerate(parts)]
        remove = None
        if args.remove is not None:
            remove = to_segments(json.loads(args.remove), "--remove")
    except (ValueError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return

    steps = args.steps.lower() in ("true", "1", "yes")
    result = []
    for index, segments in enumerate(lists, 1):
        result = join_path_segments(result, segments)
        if steps:
            print(f"step {index}: + {show(segments)} -> {show(result)}")
    print(f"joined: {show(result)}")
    print(f"path: {'/'.join(result)!s}")

    if remove is not None:
        before = list(result)
        trimmed = remove_path_segments(result, remove)
        print(f"remove {show(remove)}: {show(trimmed)}")
        print(f"path: {'/'.join(trimmed)}")
        print("changed: " + ("yes" if trimmed != before else "no"))


if __name__ == "__main__":
    main()
