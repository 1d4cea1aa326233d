"""The edges of ctlsp: the language server and the command line."""
