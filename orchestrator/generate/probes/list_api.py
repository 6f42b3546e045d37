"""List a distribution's public API as JSON (stdlib only; run by the Oracle inside the source environment).

argv: DIST [MAX_CHARS]. Prints {"modules": [...], "api": "text"}: each public module of the distribution,
its public functions and classes with signatures and the first paragraph of their docstrings.
"""

import importlib
import importlib.metadata
import inspect
import json
import sys


def modules_of(dist):
    tops = set()
    for file in importlib.metadata.distribution(dist).files or []:
        parts = file.parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info")) or parts[0] in ("..", "__pycache__"):
            continue
        if len(parts) == 1 and parts[0].endswith(".py"):
            tops.add(parts[0][:-3])
        elif len(parts) > 1 and parts[-1] == "__init__.py" and len(parts) == 2:
            tops.add(parts[0])
    return sorted(t for t in tops if not t.startswith("_"))


def first_paragraph(obj):
    doc = inspect.getdoc(obj) or ""
    return doc.split("\n\n")[0].replace("\n", " ")[:300]


def describe(name):
    module = importlib.import_module(name)
    lines = [f"## module {name}", first_paragraph(module)]
    public = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for attr in sorted(public):
        obj = getattr(module, attr, None)
        if (
            not (inspect.isfunction(obj) or inspect.isclass(obj))
            or getattr(obj, "__module__", "").split(".")[0] != name
        ):
            continue
        try:
            signature = str(inspect.signature(obj))
        except (TypeError, ValueError):
            signature = "(...)"
        kind = "class" if inspect.isclass(obj) else "def"
        lines.append(f"- {kind} {name}.{attr}{signature}: {first_paragraph(obj)}")
    return lines


def main():
    dist = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    modules = modules_of(dist)
    lines = []
    for name in modules:
        try:
            lines.extend(describe(name))
        except Exception as exc:  # a module that does not import is listed as such
            lines.append(f"## module {name} (does not import: {type(exc).__name__})")
    print(json.dumps({"modules": modules, "api": "\n".join(lines)[:limit]}))


main()
