"""`python -m repozero` runs the CLI."""

from repozero.cli import main

raise SystemExit(main())
