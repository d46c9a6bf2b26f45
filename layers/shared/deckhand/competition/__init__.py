"""Competition core (RULES.md §1): matchpoints, rank points, standings, Swiss movement, event grades.

Pure Python, no I/O: used by the scoring and pairing functions and by tournament directors' CLI.
"""
