"""Path workbench: extend, trim, normalize a URL's path with furl.Path objects and report each step."""

import argparse
import json

from furl import Path, furl


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def describe(path):
    flags = " ".join(
        f"{name}={'yes' if value else 'no'}"
        for name, value in (("absolute", path.isabsolute), ("dir", path.isdir), ("file", path.isfile))
    )
    return f"{json.dumps(str(path), ensure_ascii=False)} segments={json.dumps(path.segments, ensure_ascii=False)} {flags}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="base URL")
    parser.add_argument("--add", help="path string to append")
    parser.add_argument("--remove", help="path string to remove from the end")
    parser.add_argument("--normalize", type=parse_bool, default=False, help="resolve . and .. segments")
    parser.add_argument("--absolute", help="true/false: force the path (not) absolute")
    args = parser.parse_args()

    try:
        target = furl(args.url)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return
    print(f"path: {describe(target.path)}")

    if args.add is not None:
        extra = Path(args.add)
        print(f"add: {describe(extra)}")
        target.path.add(extra)
        print(f"after add: {describe(target.path)}")
    if args.remove is not None:
        target.path.remove(args.remove)
        print(f"after remove: {describe(target.path)}")
    if args.normalize:
        target.path.normalize()
        print(f"after normalize: {describe(target.path)}")
    if args.absolute is not None:
        try:
            target.path.isabsolute = parse_bool(args.absolute)
            print(f"after absolute: {describe(target.path)}")
        except AttributeError as exc:
            print(f"error: AttributeError: {exc}")
    print(f"url: {target.url}")


if __name__ == "__main__":
    main()
