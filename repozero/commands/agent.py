"""`repozero agent run`: one coder invocation on one sample, streamed, then graded."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog

from repozero.agents.models import Message, ModelResponse, ToolSpec
from repozero.agents.provider import open_model
from repozero.agents.scaffolds import AgentLimits, AgentResult
from repozero.commands import add_command, group
from repozero.commands.common import config_from_args, print_json
from repozero.datasets import Dataset, load_dataset
from repozero.kernel.runtime import run_async
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.protocols import PROTOCOLS, get_protocol
from repozero.orchestrator.engine.single import run_coder_once
from repozero.sandbox import open_backend

log = structlog.get_logger()


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "agent", "run a single agent invocation", parent)
    cmd = add_command(commands, "run", "one coder invocation on one sample, streamed, then graded", parent)
    cmd.add_argument("--dataset", required=True, help="dataset folder or builtin:NAME")
    cmd.add_argument("--sample", required=True, help="sample id")
    cmd.add_argument("--model", required=True, help="endpoint name from config, or fake:POLICY")
    cmd.add_argument("--scaffold", choices=["bash", "tools"], default=None, help="default: agent.scaffold")
    cmd.add_argument("--target-dir", type=Path, help="where to copy the repository the agent wrote")
    cmd.add_argument("--sandbox", choices=["local", "docker"], help="sandbox backend (default: config)")
    cmd.add_argument("--protocol", choices=sorted(PROTOCOLS), help="grading rules (default: run.protocol)")
    cmd.add_argument(
        "--json",
        action="store_true",
        help='print {"exit_status", "passed", "success_rate", "steps", "tokens", "cost_usd"}',
    )
    cmd.set_defaults(func=_run)


class StreamHooks:
    """Streams an agent's steps as log events (stderr), so a person sees it work."""

    def model_called(
        self, step: int, messages: Sequence[Message], tools: Sequence[ToolSpec], response: ModelResponse
    ) -> None:
        log.info(
            "agent_step",
            step=step,
            tokens=response.usage.prompt_tokens + response.usage.completion_tokens,
            latency_s=round(response.timings.total_s, 3),
            tool_calls=[c.name for c in response.tool_calls],
        )

    def model_failed(self, step: int, error: str) -> None:
        log.warning("agent_model_failed", step=step, error=error)

    def tool_executed(self, step: int, tool: str, command: str, output: str, **info: Any) -> None:
        log.info(
            "agent_tool",
            step=step,
            tool=tool,
            command=command[:120],
            exit_code=info.get("exit_code"),
            timed_out=info.get("timed_out"),
        )

    def agent_finished(self, result: AgentResult) -> None:
        log.info("agent_finished", exit_status=result.exit_status, steps=result.steps, tokens=result.tokens)


def _run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    dataset = load_dataset(args.dataset)
    dataset.sample(args.sample)  # a bad id fails here, with the dataset named
    out = run_async(_invoke, config, dataset, args)
    result, grade = out
    if args.json:
        print_json(
            {
                "exit_status": result.exit_status,
                "passed": grade.passed,
                "success_rate": grade.success_rate,
                "steps": result.steps,
                "tokens": result.tokens,
                "cost_usd": result.cost_usd,
            }
        )
    else:
        print(
            f"{args.sample}: agent {result.exit_status} after {result.steps} steps ({result.tokens} tokens); "
            f"{'PASS' if grade.passed else 'FAIL'} success rate {grade.success_rate:.3f}"
            f"{' (' + grade.failure_category + ')' if grade.failure_category else ''}"
        )
    return 1 if result.infra_error or grade.infra_error else 0


async def _invoke(config: Config, dataset: Dataset, args: argparse.Namespace) -> tuple[Any, Any]:
    policy = get_protocol(args.protocol or config.run.protocol).grading_policy(config.sandbox.output_cap)
    async with (
        open_backend(config.sandbox, args.sandbox) as backend,
        open_model(config.endpoints, args.model, dataset) as provider,
    ):
        result, grade, _ = await run_coder_once(
            provider,
            backend,
            dataset,
            args.sample,
            scaffold=args.scaffold or config.agent.scaffold,
            limits=AgentLimits.coder(config.agent),
            policy=policy,
            target_dir=args.target_dir,
            hooks=StreamHooks(),
        )
    return result, grade
