"""Procedures: pure functions from the campaign's state and a command to events.

Each procedure imports the kernel (:mod:`turnkeeper.kernel`) and the layers below it, never
the command table (:mod:`turnkeeper.campaign`). The modules here (light, rest, supplies,
countdowns, hit points, surprise) are shared: the procedure packages (dungeon, wilderness,
combat, scenes) may call them, and never call one another.
"""
