"""The coder's `run_source` tool (`oracle_access = "tool"`): black-box runs of the source, through the Oracle.

The source runs where the Oracle runs it — its own sandbox, never the coder's — once per query (a black
box answers what the program printed; the determinism filter is for ground truth, not for questions), at
most the protocol's `oracle_queries` times per episode. The scaffold traces each call like any tool call.
"""

from __future__ import annotations

from repozero.kernel.errors import OracleError
from repozero.oracle import GroundTruthRequest, env_spec, program_ref
from repozero.orchestrator.engine.context import RunContext
from repozero.sandbox import CaseInput

__all__ = ["SourceAccess"]


class SourceAccess:
    """A `SourceRunner` for one episode, with its query budget."""

    def __init__(self, ctx: RunContext, sample_id: str) -> None:
        self.ctx = ctx
        self.sample = ctx.dataset.sample(sample_id)
        self.budget = ctx.protocol.oracle_queries
        self.used = 0

    async def __call__(self, argv: list[str], stdin: bytes | None) -> tuple[bytes, int] | str:
        if self.used >= self.budget:
            return f"no queries left: the protocol allows {self.budget} per episode"
        self.used += 1
        ds = self.ctx.dataset
        request = GroundTruthRequest(
            env=env_spec(self.sample.source),
            program=program_ref(ds.program_dir(self.sample.id), self.sample.test_program.path),
            cases=[CaseInput(id=f"q{self.used}", argv=argv, stdin=stdin)],
            repeats=1,
            timeout_s=self.ctx.oracle_timeout_s,
            output_cap=self.ctx.oracle_output_cap,
        )
        try:
            async with self.ctx.limiters.oracle:
                (verdict,) = await self.ctx.oracle.ground_truth(request, use_cache=False)
        except OracleError as exc:
            return f"the source could not be run: {exc}"
        if verdict.reason == "oracle_timeout":
            return f"the source did not finish within {self.ctx.oracle_timeout_s:g} s"
        if verdict.stdout is None:  # it failed: its exit code, and no output kept
            return b"", verdict.exit_code
        return verdict.stdout, verdict.exit_code
