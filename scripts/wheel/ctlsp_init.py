"""ctlsp: a language server, command-line checker and library that finds temporal bugs in C.

Installed, the parts are ``ctlsp.checker`` (CTL model checking), ``ctlsp.extractors`` (the C front
end; ``ctlsp.extractors.api`` is its public API) and ``ctlsp.server`` (command lines and the
language server). ``python -m ctlsp`` is the ``ctlsp`` command.
"""
