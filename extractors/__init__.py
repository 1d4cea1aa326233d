"""The C front end of ctlsp: C source to CFGs to projected RSMs, rules, findings (see ``extractors.api``)."""
