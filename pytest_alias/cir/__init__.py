"""Consistent identifier renaming (CIR): names, spec and cfg renaming, descriptions, analysis, verification."""
