"""The kernel: what every part of RepoZero shares and that imports nothing else of ours.

Errors (`errors`), the base of every persisted record (`records`), the vocabulary of outcomes
(`vocabulary`), logging (`log`), reading text in any encoding (`textio`), spawning processes (`spawn`),
taking secrets out of what is written (`redact`) and running one event loop (`runtime`). Keeping it free of
imports of the layers above is what lets any of them use it without a cycle; `pyproject.toml`'s
import-linter contracts check that.
"""

__version__ = "0.1.0"
"""The package's version (`repozero.__version__`), here so that records below the front door can stamp it."""
