"""One GRPO step with TRL on RepoZero episodes, on the CPU, with nothing downloaded.

A tiny random-weight Llama and a tokenizer whose ids are the loopback model server's (its byte tokenizer,
written as a Hugging Face folder) stand in for a real model. TRL's `GRPOTrainer` asks `rollout_func` for
completions: each prompt names a sample, each group of `num_generations` equal prompts runs that many full
episodes (sandbox, Oracle, grader), and the trainer takes the trained role's exact token ids, logprobs
and observation masks. The reward function reads that role's reward.

`--role coder` (the default): `fake:gold` plays the policy, no ACE round; each completion is the coder's
conversation, its reward the grade. `--role tester`: `fake:finds:0.5` (a tester that finds the planted
bug only sometimes), one ACE round; each completion is the tester's proposal, its reward the divergences
it exposed minus its invalid inputs, over the inputs asked for (docs/rollouts.md). Needs the `[trl]`
extra (`bash scripts/setup.sh` installs it).

    python examples/trl_grpo_step.py [--dataset builtin:py2js-lite] [--sample roman-numerals] [--role tester]

The last line printed is `trl_train_steps: <n>`.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # rollout_func is experimental in TRL 1.x

from repozero import RunSpec, load_config
from repozero.agents.fakellm.hf_tokenizer import save_tokenizer
from repozero.rollouts.trl import TrlRollouts


def tiny_model(folder: Path) -> tuple[Any, Any]:
    """A 2-layer Llama with random weights over the loopback server's 265 token ids, and its tokenizer."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(save_tokenizer(folder / "tokenizer"), local_files_only=True)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1 << 16,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    return LlamaForCausalLM(config), tokenizer


POLICIES = {"coder": ("fake:gold", 0), "tester": ("fake:finds:0.5", 1)}
"""The scripted policy and ACE rounds each role is trained on."""


def train_one_step(
    workdir: Path, dataset: str, sample: str, generations: int = 2, role: str = "coder"
) -> dict[str, Any]:
    """One `GRPOTrainer.train()` step of `role` over one group of `generations` episodes of `sample`;
    returns what the trainer saw (global step, rewards handed to the reward function, tokens, logged
    metrics)."""
    from trl import GRPOConfig, GRPOTrainer

    from datasets import Dataset

    model, tokenizer = tiny_model(workdir)
    seen: list[list[float | None]] = []

    def reward(completions: list[Any], repozero_reward: list[float | None], **_: Any) -> list[float | None]:
        seen.append(list(repozero_reward))
        return list(repozero_reward)

    args = GRPOConfig(
        output_dir=str(workdir / "trainer"),
        per_device_train_batch_size=generations,
        num_generations=generations,
        max_steps=1,
        max_completion_length=1 << 16,
        learning_rate=1e-3,
        use_cpu=True,
        bf16=False,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
        dataloader_num_workers=0,
        seed=0,
    )
    model_name, rounds = POLICIES[role]
    spec = RunSpec(dataset=dataset, model=model_name, scaffold="bash", ace_rounds=rounds)
    with TrlRollouts(load_config(), spec, role=role) as rollouts:
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=[reward],
            args=args,
            train_dataset=Dataset.from_dict({"prompt": [sample]}),
            processing_class=tokenizer,
            rollout_func=rollouts.rollout_func,
        )
        trainer.train()
    return {
        "global_step": trainer.state.global_step,
        "rewards": seen,
        "tokens_seen": trainer.state.num_input_tokens_seen,
        "batches": rollouts.batches,
        "log": trainer.state.log_history,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="builtin:py2js-lite")
    parser.add_argument("--sample", default="roman-numerals")
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--role", choices=sorted(POLICIES), default="coder", help="the role trained")
    flags = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        out = train_one_step(Path(workdir), flags.dataset, flags.sample, flags.generations, flags.role)
    step: dict[str, Any] = next((entry for entry in out["log"] if "loss" in entry), {})
    print(f"role: {flags.role}  rewards: {out['rewards']}")
    print(f"tokens seen by the trainer: {out['tokens_seen']}")
    print(f"loss: {step.get('loss')}  reward: {step.get('reward')}")
    print(f"trl_train_steps: {out['global_step']}")


if __name__ == "__main__":
    main()
