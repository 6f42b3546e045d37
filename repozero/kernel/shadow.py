"""Keep our `datasets/` folder from shadowing Hugging Face's `datasets` package.

When the repository root is on `sys.path` (running `python` from the checkout), `import datasets` would
find our folder. Its `__init__` calls `unshadow`, which redoes the import without the checkout on the
path and puts the result in `sys.modules` (the import statement returns what is there): Hugging Face's
package if installed, else the usual ModuleNotFoundError.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

__all__ = ["unshadow"]


def unshadow(name: str, init_file: str) -> None:
    root = Path(init_file).resolve().parent.parent
    sys.modules.pop(name, None)
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if Path(p or os.getcwd()).resolve() != root]
    try:
        real = importlib.import_module(name)
    except ModuleNotFoundError:
        hint = f"No module named {name!r} (the folder {root / name} is `repozero.{name}`)"
        raise ModuleNotFoundError(hint, name=name) from None
    finally:
        sys.path[:] = saved
    sys.modules[name] = real
