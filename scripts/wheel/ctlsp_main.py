"""``python -m ctlsp`` is the ``ctlsp`` command (the VS Code extension starts the server this way)."""

from ctlsp.server.cli import main

raise SystemExit(main())
