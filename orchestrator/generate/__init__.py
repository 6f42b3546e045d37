"""`repozero dataset generate`: the paper's construction pipeline — a model writes test programs and their
inputs, the Oracle validates and filters them, models vote on difficulty (docs/generate.md)."""

from repozero.orchestrator.generate.records import GenerateSettings
from repozero.orchestrator.generate.runner import generate_dataset
from repozero.orchestrator.generate.summary import GenerateSummary

__all__ = ["GenerateSettings", "GenerateSummary", "generate_dataset"]
