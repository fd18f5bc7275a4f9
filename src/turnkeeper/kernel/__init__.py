"""The campaign kernel: the state, the event base and its registry type, the draft and the
scheduler with its hooks.

Everything a procedure needs to read the campaign and say what happens; nothing here knows
any procedure. Procedures import the kernel; the command table (:mod:`turnkeeper.campaign`)
wires procedures to commands and names every event kind.
"""
