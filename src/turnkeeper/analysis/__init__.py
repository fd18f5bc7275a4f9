"""Analysis for designers: exact odds of procedures and fast simulation (``simulate``)."""
