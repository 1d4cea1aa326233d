"""The LSP handlers of ctlsp, one module per concern; ``features.create_server`` registers them.

Handlers are module-level functions (as in pygls' example servers) so each concern can be read and
tested on its own; every one is wrapped in ``base.guarded`` so that a bug answers one request badly
instead of ending the session.
"""
