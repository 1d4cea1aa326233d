"""``python -m server`` is the ``ctlsp`` command (the VS Code client starts the server this way)."""

from server.cli import main

raise SystemExit(main())
