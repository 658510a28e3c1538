"""Mutation testing of the exercise checkers: every shown solution's single-point mutants against its checker."""
