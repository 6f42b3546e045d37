"""The Oracle (ground truth from the source, filtered for determinism) and the grader."""

from repozero.oracle.actor import Oracle, OracleService, OracleStats, open_oracle
from repozero.oracle.build import BuildReport, SampleBuild, build_dataset, build_sample
from repozero.oracle.compare import byte_diff, diagnose, paper_compat_equal, strict_equal
from repozero.oracle.config import OracleConfig, cache_root
from repozero.oracle.contract import CONTRACT_VERSION, FIXED_ENV, case_env, exit_status
from repozero.oracle.evaluate import EvalSummary, GradeJob, grade_many, grade_one, summarise
from repozero.oracle.filter import decide
from repozero.oracle.grading import GRADER_VERSION, CaseResult, GradingPolicy, SampleGrade
from repozero.oracle.records import (
    DropReason,
    EnvSpec,
    Fingerprint,
    GroundTruthRequest,
    ProgramRef,
    RunResult,
    Verdict,
    env_spec,
    program_ref,
    sample_request,
)
from repozero.oracle.source_env import (
    EnvironmentProvider,
    LocalVenvEnvironment,
    LocalVenvProvider,
    SourceEnvironment,
)
from repozero.oracle.validate import ValidationReport, validate_dataset
from repozero.oracle.verdict_cache import ResultCache, cache_key

__all__ = [
    "CONTRACT_VERSION",
    "FIXED_ENV",
    "GRADER_VERSION",
    "BuildReport",
    "CaseResult",
    "DropReason",
    "EnvSpec",
    "EnvironmentProvider",
    "EvalSummary",
    "Fingerprint",
    "GradeJob",
    "GradingPolicy",
    "GroundTruthRequest",
    "LocalVenvEnvironment",
    "LocalVenvProvider",
    "Oracle",
    "OracleConfig",
    "OracleService",
    "OracleStats",
    "ProgramRef",
    "ResultCache",
    "RunResult",
    "SampleBuild",
    "SampleGrade",
    "SourceEnvironment",
    "ValidationReport",
    "Verdict",
    "build_dataset",
    "build_sample",
    "byte_diff",
    "cache_key",
    "cache_root",
    "case_env",
    "decide",
    "diagnose",
    "env_spec",
    "exit_status",
    "grade_many",
    "grade_one",
    "open_oracle",
    "paper_compat_equal",
    "program_ref",
    "sample_request",
    "strict_equal",
    "summarise",
    "validate_dataset",
]
