"""Print a source environment's fingerprint as JSON: run by that environment's own interpreter (stdlib only).

Entries: the interpreter version, implementation and platform, and per installed distribution its version
and a sha256 over the files it installed (paths and bytes, as listed in its RECORD) — so a re-built or
tampered environment shows up. Left out, because they differ between identical installs: byte-compiled
files, files outside site-packages (console scripts carry the venv's path in their shebang) and the
installer's own bookkeeping (RECORD, INSTALLER, REQUESTED, direct_url.json).
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
import sys
import sysconfig
from importlib import metadata

__all__ = ["fingerprint"]

_BOOKKEEPING = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def _dist_digest(dist: metadata.Distribution) -> str:
    digest = hashlib.sha256()
    for rel in sorted(str(f) for f in dist.files or []):
        name = rel.rsplit("/", 1)[-1]
        if rel.startswith("..") or name.endswith(".pyc") or name in _BOOKKEEPING:
            continue
        try:
            with open(str(dist.locate_file(rel)), "rb") as handle:
                data = hashlib.sha256(handle.read()).hexdigest()
        except OSError:
            data = "missing"
        digest.update(f"{rel}\0{data}\n".encode())
    return digest.hexdigest()


def fingerprint() -> dict[str, str]:
    entries = {
        "python": platform.python_version(),
        "implementation": sys.implementation.cache_tag or sys.implementation.name,
        "platform": sysconfig.get_platform(),
    }
    for dist in metadata.distributions():
        name = re.sub(r"[-_.]+", "-", dist.metadata["Name"] or "unknown").lower()
        entries[f"dist:{name}"] = f"{dist.version} sha256:{_dist_digest(dist)}"
    return entries


if __name__ == "__main__":
    sys.stdout.write(json.dumps(fingerprint(), sort_keys=True) + "\n")
