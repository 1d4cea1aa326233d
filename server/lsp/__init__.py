"""The ctlsp language server: one module per job (documents, settings, scheduling, LSP features)."""
