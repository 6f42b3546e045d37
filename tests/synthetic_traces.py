"""Synthetic but realistic event streams (every event kind, growing conversations, token ids), for tests
and benchmarks of anything that consumes events: the trace store, exporters, the viewer, the bus."""

from __future__ import annotations

import random
import time

from repozero.traces.events import (
    AgentFinished,
    EpisodeFinished,
    EpisodeStarted,
    Event,
    HiddenCasesGraded,
    ModelCalled,
    ModelCallFailed,
    OracleAnswered,
    RoundFinished,
    RunFinished,
    RunStarted,
    ToolExecuted,
    VisibleCasesGraded,
)
from repozero.traces.grades import (
    GradeSummary,
    HiddenCaseResult,
    HiddenGradeRecord,
    OracleAnswerRecord,
    OracleVerdict,
    VisibleCaseResult,
    VisibleGradeRecord,
)
from repozero.traces.messages import CallTiming, ModelCall, TokenTrace, TraceMessage, TraceToolCall, Usage
from repozero.traces.records import (
    AgentRunRecord,
    EpisodeRecord,
    EpisodeStartRecord,
    ModelCallFailedRecord,
    Rewards,
    RoundRecord,
    RunFinishedRecord,
    RunRecord,
    ToolExecutionRecord,
)

__all__ = ["TOOLS", "episode_events", "run_events"]

_WORDS = "the quick brown fox jumps over a lazy dog while node prints json lines to stdout".split()

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "execute_bash",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    },
    {"type": "function", "function": {"name": "finish", "parameters": {"type": "object", "properties": {}}}},
]


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def run_events(run_id: str = "synthetic") -> tuple[RunStarted, RunFinished]:
    now = time.time()
    started = RunStarted(
        run=RunRecord(
            run_id=run_id,
            started_at=now,
            protocol="repozero-strict",
            grader_version="1",
            config={"run": {"concurrency": 4}},
            versions={"repozero": "0.1.0"},
        )
    )
    finished = RunFinished(run=RunFinishedRecord(run_id=run_id, finished_at=now, status="completed"))
    return started, finished


def episode_events(
    episode: int,
    *,
    rng: random.Random,
    steps: int = 5,
    token_ids: bool = True,
    big_output_at: int | None = None,
    big_output_bytes: int = 200_000,
    run_id: str = "synthetic",
) -> list[Event]:
    """One episode of one coder conversation (`steps` calls, a command after each), one ACE round.

    `big_output_at` makes that step's command output `big_output_bytes` long (a blob, by default size).
    Hidden cases carry canary ids only; their (never recorded) inputs are not even generated.
    """
    eid, conv, now = f"{run_id}-ep{episode}", f"{run_id}-ep{episode}-coder", time.time()
    group, sample = f"g{episode // 4}", f"s{episode % 7}"
    events: list[Event] = [
        EpisodeStarted(
            episode=EpisodeStartRecord(
                episode_id=eid,
                run_id=run_id,
                group_id=group,
                sample=sample,
                library=f"lib{episode % 3}",
                policy_model="m",
                attempt=episode % 4,
                protocol="p",
                started_at=now,
            )
        )
    ]
    messages = [
        TraceMessage(role="system", content=_text(rng, 150)),
        TraceMessage(role="user", content=_text(rng, 400)),
    ]
    tokens: TokenTrace | None = None
    for step in range(steps):
        call_id = f"{eid}-c{step}"
        reply = TraceMessage(
            role="assistant",
            content=_text(rng, 40),
            reasoning=_text(rng, 20) if step % 3 == 0 else None,
            tool_calls=[
                TraceToolCall(
                    id=f"t{step}", name="execute_bash", arguments=f'{{"command": "node test.mjs {step}"}}'
                )
            ],
        )
        tokens = _next_tokens(rng, tokens, messages[-1]) if token_ids else None
        call = ModelCall(
            call_id=call_id,
            episode_id=eid,
            conversation_id=conv,
            role="coder",
            step=step,
            model="m",
            endpoint="local",
            replica="http://127.0.0.1:8000",
            messages=list(messages),
            tools=TOOLS,
            params={"temperature": 1.0, "max_tokens": 4096},
            response=reply,
            finish_reason="tool_calls",
            usage=Usage(prompt_tokens=len(tokens.prompt_ids or []) if tokens else 0, completion_tokens=60),
            timing=CallTiming(started_at=now, latency_s=0.5),
            token_fidelity="exact" if tokens else "none",
            tokens=tokens,
        )
        output = "x" * big_output_bytes if step == big_output_at else _text(rng, rng.randrange(20, 300))
        events.append(ModelCalled(call=call))
        events.append(
            ToolExecuted(
                execution=ToolExecutionRecord(
                    episode_id=eid,
                    conversation_id=conv,
                    call_id=call_id,
                    tool_call_id=f"t{step}",
                    step=step,
                    tool="execute_bash",
                    command=f"node test.mjs {step}",
                    exit_code=0,
                    started_at=now,
                    duration_s=0.05,
                    output=output,
                    output_bytes=len(output),
                )
            )
        )
        messages += [reply, TraceMessage(role="tool", content=output, tool_call_id=f"t{step}")]
    events += _round_events(eid, conv, steps, now, rng)
    rewards = Rewards(
        hidden_success_rate=[0.9],
        hidden_passed=[False],
        visible_success_rate=[1.0],
        visible_passed=[True],
        build_ok=True,
    )
    events.append(
        EpisodeFinished(
            episode=EpisodeRecord(
                episode_id=eid,
                run_id=run_id,
                group_id=group,
                sample=sample,
                library=f"lib{episode % 3}",
                policy_model="m",
                attempt=episode % 4,
                protocol="p",
                status="failed",
                termination_reason="rounds_exhausted",
                rewards=rewards,
                reward=0.9,
                reward_formula="hidden_success_rate",
                model_calls=steps,
                rounds=1,
                started_at=now,
                finished_at=now + 60,
            )
        )
    )
    return events


def _next_tokens(rng: random.Random, prev: TokenTrace | None, last: TraceMessage) -> TokenTrace:
    """Prompt ids that extend the previous prompt + completion, as a server's chat template would."""
    base = [] if prev is None else [*(prev.prompt_ids or []), *prev.completion_ids]
    prompt = base + [rng.randrange(50_000) for _ in range(8 + len(str(last.content)) // 40)]
    completion = [rng.randrange(50_000) for _ in range(60)]
    return TokenTrace(
        prompt_ids=prompt, completion_ids=completion, completion_logprobs=[-rng.random() for _ in completion]
    )


def _round_events(eid: str, conv: str, steps: int, now: float, rng: random.Random) -> list[Event]:
    hidden = GradeSummary(passed=False, success_rate=0.9, passed_cases=9, total=10)
    visible = GradeSummary(passed=True, success_rate=1.0, passed_cases=2, total=2)
    verdicts = [
        OracleVerdict(input_id="f0", argv=["--n", "3"], kept=True, stdout=b"3\n", exit_code=0, repeats=3),
        OracleVerdict(
            input_id="f1", argv=["--n", "x"], kept=False, drop_reason="nondeterministic", repeats=3
        ),
    ]
    cases = [
        VisibleCaseResult(
            case_id="w0",
            origin="whitebox",
            status="pass",
            argv=["--n", "1"],
            expected_stdout=b"1\n",
            stdout=b"1\n",
            exit_code=0,
        ),
        VisibleCaseResult(
            case_id="f0",
            origin="fresh",
            status="pass",
            argv=["--n", "3"],
            expected_stdout=b"3\n",
            stdout=b"3\n",
            exit_code=0,
        ),
    ]
    failed = ModelCallFailedRecord(
        call_id=f"{eid}-failed",
        episode_id=eid,
        conversation_id=conv,
        role="coder",
        step=steps,
        model="m",
        error="HTTP 503 after 3 retries",
        timing=CallTiming(started_at=now, latency_s=0.0, retry_wait_s=3.5),
    )
    return [
        ModelCallFailed(failure=failed),
        AgentFinished(
            agent=AgentRunRecord(
                episode_id=eid,
                conversation_id=conv,
                role="coder",
                model="m",
                scaffold="tools",
                steps=steps,
                termination="submitted",
                started_at=now,
                wall_s=60.0,
            )
        ),
        VisibleCasesGraded(
            grade=VisibleGradeRecord(
                episode_id=eid, round=0, grader_version="1", summary=visible, cases=cases
            )
        ),
        HiddenCasesGraded(
            grade=HiddenGradeRecord(
                episode_id=eid,
                round=0,
                grader_version="1",
                summary=hidden,
                cases=[
                    HiddenCaseResult(case_id=f"h{i}", status="pass" if i else "wrong_output")
                    for i in range(10)
                ],
            )
        ),
        OracleAnswered(
            answer=OracleAnswerRecord(episode_id=eid, round=0, verdicts=verdicts, wall_s=rng.random())
        ),
        RoundFinished(
            round=RoundRecord(
                episode_id=eid,
                index=0,
                started_at=now,
                visible=visible,
                hidden=hidden,
                fresh_inputs=2,
                fresh_kept=1,
                feedback="<!-- repozero: feedback failing=1 -->\ncase w0 ...",
                feedback_failing=1,
            )
        ),
    ]
