"""Procedures: pure functions from state and command to events, one module per procedure."""
