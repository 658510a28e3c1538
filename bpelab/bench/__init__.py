"""The side-by-side benchmark: ``python -m bpelab.bench`` (or ``make bench``) prints the table.

One module per section (training, encoding, scaling, hostile, stepper), each with
``rows(quick=False)`` returning ``(what, ours, peer, ratio)`` rows; ``__main__`` runs and prints them.
"""
