"""Every way python-semver raises a version: bump_*, next_version, finalize_version."""

import sys

from semver import Version

NAMES = ("version", "token", "loose", "part")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def main():
    opts = parse_args(sys.argv[1:])
    loose = opts.get("loose", "no")
    if loose not in ("yes", "no"):
        print("error: --loose must be yes or no")
        return
    try:
        version = Version.parse(opts.get("version", ""), optional_minor_and_patch=loose == "yes")
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"version: {version}")
    if "part" in opts:
        try:
            print(f"next {opts['part']}: {version.next_version(opts['part'], opts.get('token', 'rc'))}")
        except ValueError as exc:
            print(f"error: {exc}")
        return
    token_pre = opts.get("token", "rc")
    token_build = opts.get("token", "build")
    print(f"bump_major: {version.bump_major()}")
    print(f"bump_minor: {version.bump_minor()}")
    print(f"bump_patch: {version.bump_patch()}")
    print(f"bump_prerelease: {version.bump_prerelease(token_pre)}")
    print(f"bump_build: {version.bump_build(token_build)}")
    print(f"finalize_version: {version.finalize_version()}")
    for part in ("major", "minor", "patch", "prerelease"):
        print(f"next {part}: {version.next_version(part, token_pre)}")


main()
