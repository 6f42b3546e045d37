"""The run engine: one run's episodes from its spec to their grades, results and traces.

It owns the spec (`spec`), the session that opens a run's parts and runs its episodes (`session`), one
episode's ACE loop (`episode`), its events and trace hooks (`events`, `tracing`), the results store
(`results`), the seeds (`seeds`), the run's directory, lock and manifest, and the live progress a person
watches. It imports nothing of sweeps, reports, the Ray executor or dataset generation: they are built on it.
"""
