"""Running one episode to exactly one end: retried on infrastructure failure, recorded once.

The only place (with the run) that catches broad exceptions: anything but cancellation that escapes an
episode is an infrastructure failure, retried up to a bound and then reported apart — never scored as
the model's failure.
"""

from __future__ import annotations

import time

import anyio
import msgspec
import structlog

from repozero.errors import RepoZeroError
from repozero.orchestrator.context import EpisodeInfraError, RunContext
from repozero.orchestrator.diskspace import disk_full_error
from repozero.orchestrator.episode import Episode
from repozero.orchestrator.results import EpisodeResult, RoundResult
from repozero.orchestrator.spec import EpisodeKey
from repozero.traces import (
    EpisodeFinished,
    EpisodeRecord,
    EpisodeStarted,
    EpisodeStartRecord,
    EpisodeTimings,
    Rewards,
    Usage,
    compute_reward,
)

__all__ = ["REWARD_FORMULA", "run_episode"]

log = structlog.get_logger()
REWARD_FORMULA = "hidden_solved"


async def run_episode(ctx: RunContext, key: EpisodeKey, infra_retries: int) -> EpisodeResult:
    sample = ctx.dataset.sample(key.sample)
    eid = key.episode_id
    error = ""
    for try_no in range(infra_retries + 1):
        ctx.store.start_episode(eid, key.sample, key.attempt, key.sample)
        started = time.time()
        _emit_start(ctx, key, sample.package, started)
        with structlog.contextvars.bound_contextvars(episode_id=eid, sample=key.sample, attempt=key.attempt):
            log.info("episode_started", try_no=try_no)
            episode = Episode(ctx, key.sample, key.attempt, eid)
            try:
                result = await episode.run()
            except (EpisodeInfraError, RepoZeroError) as exc:
                _stop_on_full_disk(ctx, exc)
                error = str(exc)
                log.warning("episode_infra_failure", try_no=try_no, error=error)
                continue
            except anyio.get_cancelled_exc_class():
                raise
            except Exception as exc:  # an unexpected bug is still infrastructure, not the model's failure
                _stop_on_full_disk(ctx, exc)
                error = f"{type(exc).__name__}: {exc}"
                log.exception("episode_crashed", try_no=try_no)
                continue
        rewards = _rewards(result, episode.rounds)
        result = msgspec.structs.replace(
            result, rounds=episode.rounds, reward=compute_reward(REWARD_FORMULA, rewards)
        )
        ctx.store.finish_episode(result)
        _emit_finish(ctx, key, result, rewards, started)
        log.info("episode_finished", episode_id=eid, passed=result.passed, rounds=result.rounds_used)
        return result
    result = EpisodeResult(
        episode_id=eid,
        sample=key.sample,
        attempt=key.attempt,
        passed=None,
        success_rate=0.0,
        failure_category=None,
        cheat_flags=[],
        infra_error=True,
        infra_detail=error,
        rounds_used=0,
        exit_status="infra_error",
        package=sample.package,
        difficulty=sample.difficulty,
        category=sample.category,
        subset=sample.subset,
    )
    ctx.store.finish_episode(result, status="infra_failed")
    _emit_finish(ctx, key, result, _rewards(result, []), time.time())
    return result


def _stop_on_full_disk(ctx: RunContext, exc: BaseException) -> None:
    """A full disk is the run's failure, not the episode's: stop the run (resumable), label nothing."""
    full = disk_full_error(exc, ctx.run_dir)
    if full is not None:
        raise full from None


def _emit_start(ctx: RunContext, key: EpisodeKey, library: str, started: float) -> None:
    ctx.bus.emit(
        EpisodeStarted(
            episode=EpisodeStartRecord(
                episode_id=key.episode_id,
                run_id=ctx.run_id,
                group_id=key.sample,
                sample=key.sample,
                library=library,
                attempt=key.attempt,
                policy_model=ctx.model_name,
                protocol=ctx.protocol.name,
                started_at=started,
            )
        )
    )


def _rewards(result: EpisodeResult, rounds: list[RoundResult]) -> Rewards:
    return Rewards(
        hidden_pass_rate=[r.hidden_success_rate for r in rounds],
        hidden_solved=[r.hidden_passed for r in rounds],
        visible_pass_rate=[r.visible_success_rate for r in rounds],
        visible_solved=[r.visible_passed for r in rounds],
        build_ok=bool(rounds) and result.failure_category != "no_executable",
    )


def _emit_finish(
    ctx: RunContext, key: EpisodeKey, result: EpisodeResult, rewards: Rewards, started: float
) -> None:
    reason = result.termination
    status = {"infra_error": "error", "solved": "solved"}.get(reason, "failed")
    t = result.timings
    ctx.bus.emit(
        EpisodeFinished(
            episode=EpisodeRecord(
                episode_id=key.episode_id,
                run_id=ctx.run_id,
                group_id=key.sample,
                sample=key.sample,
                library=result.package,
                attempt=key.attempt,
                policy_model=ctx.model_name,
                protocol=ctx.protocol.name,
                status=status,
                termination_reason=reason,
                infra_failure=result.infra_error,  # type: ignore[arg-type]
                failure_category=result.failure_category,
                cheat_flags=result.cheat_flags,  # type: ignore[arg-type]
                rewards=rewards,
                reward=compute_reward(REWARD_FORMULA, rewards),
                reward_formula=REWARD_FORMULA,
                usage=Usage(
                    prompt_tokens=result.tokens_in, completion_tokens=result.tokens_out, cost_usd=result.cost
                ),
                rounds=result.rounds_used,
                timings=EpisodeTimings(
                    wall_s=time.time() - started,
                    model_s=t.get("model", 0.0),
                    sandbox_s=t.get("sandbox", 0.0) + t.get("grade", 0.0),
                    oracle_s=t.get("oracle", 0.0),
                ),
                started_at=started,
                finished_at=time.time(),
                error=result.infra_detail,
            )
        )
    )
