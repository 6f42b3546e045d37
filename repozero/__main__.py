"""`python -m repozero` runs the CLI."""

from repozero.cli import entry

raise SystemExit(entry())
