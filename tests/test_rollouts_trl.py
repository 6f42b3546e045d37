"""TRL's GRPOTrainer on RepoZero episodes, for real, on the CPU (the `[trl]` extra).

Two checks. The contract: TRL's own generation path (`GRPOTrainer._generate`, on a trainer built without
a model as TRL's tests build it) called with our `rollout_func` gives back, prompt by prompt, the ids,
masks and logprobs of the episodes, decodes them, and hands our `repozero_*` keys on to reward functions.
The step: `examples/trl_grpo_step.py` runs one `GRPOTrainer.train()` step of a tiny random Llama whose
vocabulary is the loopback server's, with a reward function reading the episode reward.
"""

from __future__ import annotations

import importlib.util
import os
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from repozero import RunSpec, load_config
from repozero.agents.fakellm.tokenizer import END, decode
from repozero.kernel.errors import UsageError
from repozero.rollouts.trl import TrlRollouts, episode_reward, sample_of

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "fakellm"
pytestmark = [
    pytest.mark.slow,
    # transformers 5 deprecates names TRL 1.16 still passes (gradient_checkpointing → activation_…)
    pytest.mark.filterwarnings("ignore:.*will be removed in v6:FutureWarning"),
]
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("trl_grpo_step", ROOT / "examples" / "trl_grpo_step.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shell_trainer(rollouts: TrlRollouts, tokenizer: Any, step: int) -> Any:
    """A GRPOTrainer without a model or accelerator, as TRL's own tests make one for its generation path."""
    import torch
    from trl import GRPOTrainer

    trainer = object.__new__(GRPOTrainer)
    trainer.accelerator = SimpleNamespace(
        device=torch.device("cpu"), is_main_process=True, process_index=0, gather=lambda t: t
    )
    trainer.model = SimpleNamespace(training=True)
    trainer.state = SimpleNamespace(global_step=step, num_input_tokens_seen=0)
    trainer.args = SimpleNamespace(report_to=[])
    trainer.use_vllm = False
    trainer.use_transformers_continuous_batching = False
    trainer.rollout_func = rollouts.rollout_func
    trainer.processing_class = trainer._tokenizer = tokenizer
    trainer.eos_token_ids = [tokenizer.eos_token_id]
    trainer.tools = None
    trainer._metrics = {"train": defaultdict(list), "eval": defaultdict(list)}
    return trainer


def test_trls_generation_path_takes_our_episodes_prompt_by_prompt(tmp_path: Path) -> None:
    from transformers import AutoTokenizer

    from repozero.agents.fakellm.hf_tokenizer import save_tokenizer

    tokenizer = AutoTokenizer.from_pretrained(save_tokenizer(tmp_path / "tok"), local_files_only=True)
    spec = RunSpec(dataset=str(FIXTURE), model="fake:mix:gold@fx-slug,never@*", ace_rounds=0)
    prompts = ["fx-slug", "fx-slug", "fx-stats", "fx-stats"]  # TRL repeats each prompt num_generations times
    with TrlRollouts(load_config(), spec) as rollouts:
        trainer = _shell_trainer(rollouts, tokenizer, step=3)
        seen: list[dict[str, Any]] = []  # what our function gave TRL, to hold TRL's output against
        trainer.rollout_func = lambda p, t: seen.append(rollouts.rollout_func(p, t)) or seen[-1]
        prompt_ids, completion_ids, env_mask, completions, logprobs, extra, images, _ = trainer._generate(
            prompts
        )
        (raw,) = seen
        with pytest.raises(UsageError, match="must name a sample"):
            rollouts.rollout_func([{"no": "messages"}], trainer)
    with pytest.raises(UsageError, match="inside `with TrlRollouts"):
        rollouts.rollout_func(prompts, trainer)
    assert rollouts.batches == 1 and images is None
    assert [len(v) for v in (prompt_ids, completion_ids, env_mask, completions, logprobs)] == [4] * 5
    assert extra["repozero_reward"] == [1.0, 1.0, 0.0, 0.0]  # gold solves fx-slug, never fails fx-stats
    assert extra["repozero_reward_masked"] == [False] * 4 and extra["repozero_policy_version"] == [3] * 4
    assert len(set(extra["repozero_episode_id"])) == 4 and "env_mask" not in extra
    assert extra["repozero_segment"] == [0] * 4 and extra["repozero_segments"] == [1] * 4  # one stream each
    rates = [r[0] for r in extra["repozero_round_success_rates"]]  # hidden PR of round 0
    assert rates[:2] == [1.0, 1.0] and rates[2] == rates[3] < 1.0
    for i in range(4):
        assert prompt_ids[i] == raw["prompt_ids"][i] and completion_ids[i] == raw["completion_ids"][i]
        assert len(completion_ids[i]) == len(env_mask[i]) == len(logprobs[i]) > 0
        assert env_mask[i] == raw["env_mask"][i] and 0 in env_mask[i] and 1 in env_mask[i]
        assert all(lp < 0 for lp, m in zip(logprobs[i], env_mask[i], strict=True) if m)  # the server's
        assert all(lp == 0.0 for lp, m in zip(logprobs[i], env_mask[i], strict=True) if not m)
        assert completion_ids[i][-1] == END and completions[i] == decode(completion_ids[i])
        assert "<!-- repozero: sample=" + prompts[i] in decode(prompt_ids[i])
    assert trainer._metrics["train"]["completions/mean_length"] == [sum(map(sum, env_mask)) / 4]
    assert episode_reward(completions, extra["repozero_reward"]) == [1.0, 1.0, 0.0, 0.0]
    assert sample_of([{"role": "user", "content": " fx-slug "}]) == "fx-slug"


def test_one_grpo_train_step_on_repozero_episodes(tmp_path: Path) -> None:
    example = _example()
    batches: list[dict[str, Any]] = []
    original = TrlRollouts.rollout_func

    def recording(self: TrlRollouts, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        batches.append(original(self, prompts, trainer))
        return batches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TrlRollouts, "rollout_func", recording)  # to see what TRL was given, unchanged
        out = example.train_one_step(tmp_path, str(FIXTURE), "fx-slug", generations=2)
    assert out["global_step"] == 1 and out["batches"] == 1 and len(batches) == 1
    (batch,) = batches
    assert out["rewards"] == [batch["repozero_reward"]] == [[1.0, 1.0]]  # the episodes' own rewards
    # TRL counts prompt tokens and the model's own completion tokens (env_mask = 1) as seen
    assert out["tokens_seen"] == sum(map(len, batch["prompt_ids"])) + sum(map(sum, batch["env_mask"]))
    logged = next(entry for entry in out["log"] if "loss" in entry)
    assert (
        logged["reward"] == 1.0 and logged["completions/mean_length"] == sum(map(sum, batch["env_mask"])) / 2
    )
    assert logged["loss"] == 0.0  # a scripted policy is deterministic: no variance in the group, no advantage


def test_one_grpo_train_step_on_tester_groups(tmp_path: Path) -> None:
    """`--role tester`: each completion is a tester's proposal (`fake:finds:0.5`, one ACE round) with the
    tester's reward, not the coder's grade; where the rewards differ within the group the step has an
    advantage to follow (loss ≠ 0)."""
    example = _example()
    batches: list[dict[str, Any]] = []
    original = TrlRollouts.rollout_func

    def recording(self: TrlRollouts, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        batches.append(original(self, prompts, trainer))
        return batches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TrlRollouts, "rollout_func", recording)
        out = example.train_one_step(tmp_path, str(FIXTURE), "fx-slug", generations=4, role="tester")
    (batch,) = batches
    assert out["global_step"] == 1 and batch["repozero_role"] == ["tester"] * 4
    rewards = batch["repozero_reward"]
    assert out["rewards"] == [rewards] and set(rewards) <= {0.0, 0.125, 0.25}  # fx-slug: 2 inputs, 8 asked
    assert batch["repozero_segments"] == [1] * 4  # one tester round each
    for ids in batch["completion_ids"]:  # a proposal (bash scaffold: one json block), not a coder's stream
        text = decode(ids)
        assert "```json" in text and "```bash" not in text
    assert out["tokens_seen"] == sum(map(len, batch["prompt_ids"])) + sum(map(sum, batch["env_mask"]))
    logged = next(entry for entry in out["log"] if "loss" in entry)
    assert logged["reward"] == sum(rewards) / 4
    assert (logged["loss"] == 0.0) == (len(set(rewards)) == 1)  # no variance, no advantage
