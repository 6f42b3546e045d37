"""Sweeps and pools: many runs (cells) over the axes of a sweep spec, sharing one Oracle and one sandbox pool.

A sweep plans its cells (`sweep_plan`), opens the parts they share (`sweep_parts`), runs them on the run
engine (`sweep`), extends them on resume, and shows one panel for all of them (`sweep_progress`); `pool`
grades a pool of targets against a dataset. Built on `repozero.orchestrator.engine`, never the reverse.
"""
