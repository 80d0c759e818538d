"""Executable claims from the lecture notes, one module per chapter or topic."""
