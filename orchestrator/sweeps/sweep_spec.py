"""A sweep spec (`repozero sweep SPEC.toml`): axes × fixed settings × infra, read strictly, expanded to cells.

Every key of `[axes]`, `[fixed]` and `[infra]` is a config key (`run.ace_rounds`, `agent.step_limit`, …) or
a short name (`model`, `scaffold`, `ace_rounds`, `ace_branches`, `protocol`, `sandbox`, `temperature`, `top_p`). Science
keys (what a result depends on) go in `[axes]`/`[fixed]`; infra keys (how fast it is computed: concurrency,
limiter sizes, retries, trace settings, connection counts) only in `[infra]` — they are not part of a
cell's key, so they may change between invocations without redoing anything (docs/sweeps.md).
"""

from __future__ import annotations

import difflib
import fnmatch
import itertools
import tomllib
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import msgspec

from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record, explain
from repozero.kernel.textio import read_text
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.science import infra_key

__all__ = ["CellAxes", "SweepSpec", "load_sweep_spec", "short_name"]

SHORT_NAMES = {
    "scaffold": "agent.scaffold",
    "ace_rounds": "run.ace_rounds",
    "ace_branches": "run.ace_branches",
    "protocol": "run.protocol",
    "sandbox": "sandbox.backend",
    "temperature": "sampling.temperature",
    "top_p": "sampling.top_p",
}
"""Short axis names → config keys. `model` is the run's model itself; `sampling.X` is field X of the model
endpoint's sampling parameters (whatever the endpoint is called)."""

_PLAN_KEYS = {"run.attempts", "run.seed"}
"""Given at the spec's top level (`attempts`, `seed`), never as config keys."""


def short_name(key: str) -> str:
    """The config key a spec key stands for (`ace_rounds` → `run.ace_rounds`); `model` stays itself."""
    return SHORT_NAMES.get(key, key)


class CellAxes(Record, kw_only=True):
    """One cell of a sweep: its axis values (as the spec names them) and every setting it runs with."""

    axes: dict[str, Any]
    settings: dict[str, Any]
    """Canonical key → value: the fixed settings, then the axis values; `model` among them."""


class SweepSpec(Record, kw_only=True):
    """A spec file as written (after flattening dotted tables)."""

    dataset: str
    samples: list[str] = []
    """Globs over sample ids; empty: every live sample."""
    split: str | None = None
    """Only samples of this split (`train`, `test`); None: every split."""
    attempts: int = 1
    seed: int = 0
    out: str = ""
    axes: dict[str, list[Any]] = {}
    fixed: dict[str, Any] = {}
    infra: dict[str, Any] = {}
    exclude: list[dict[str, Any]] = []
    path: str = ""

    def cells(self) -> list[CellAxes]:
        """Every combination of axis values, in spec order, minus the excluded ones."""
        names = list(self.axes)
        fixed = {short_name(k): v for k, v in self.fixed.items()}
        out = []
        for values in itertools.product(*(self.axes[n] for n in names)):
            axes = dict(zip(names, values, strict=True))
            if any(_matches(rule, axes) for rule in self.exclude):
                continue
            out.append(CellAxes(axes=axes, settings={**fixed, **{short_name(k): v for k, v in axes.items()}}))
        return out

    def select_samples(self, live: list[str]) -> list[str]:
        """The live sample ids matching any glob (all when none given); a glob matching none is an error."""
        if not self.samples:
            return sorted(live)
        for glob in self.samples:
            if not any(fnmatch.fnmatch(s, glob) for s in live):
                raise UsageError(f"{self.path}: samples: {glob!r} matches no live sample of {self.dataset}")
        return sorted(s for s in live if any(fnmatch.fnmatch(s, g) for g in self.samples))


def _matches(rule: dict[str, Any], axes: dict[str, Any]) -> bool:
    """An exclude rule matches a cell when every key's value equals the cell's (or is in a listed set)."""
    for key, want in rule.items():
        options = want if isinstance(want, list) else [want]
        if axes[key] not in options:
            return False
    return True


def load_sweep_spec(path: str | Path) -> SweepSpec:
    """Read and check a spec file: unknown keys, wrong types, science keys in `[infra]` (and the reverse)
    are errors naming the file and the key."""
    where = str(path)
    try:
        raw = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: invalid TOML: {exc}") from None
    samples = raw.get("samples")
    if isinstance(samples, str):
        raw["samples"] = [samples]
    for table in ("axes", "fixed", "infra"):
        if isinstance(raw.get(table), dict):
            raw[table] = _flatten(raw[table])
    for key, values in raw.get("axes", {}).items() if isinstance(raw.get("axes"), dict) else ():
        if not isinstance(values, list):
            raise UsageError(f"{where}: axes.{key}: expected a list of values, got {values!r}")
    try:
        spec = msgspec.convert({**raw, "path": where}, SweepSpec)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{where}: {_spec_error(exc)}") from None
    _check(spec)
    return spec


def _spec_error(exc: msgspec.ValidationError) -> str:
    text = explain(exc, SweepSpec)
    if "unknown field" in text:
        close = difflib.get_close_matches(text.split("`")[1], list(SweepSpec.__struct_fields__), n=1)
        return text + (f"; did you mean {close[0]!r}?" if close else "")
    return text


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`[axes] run.ace_rounds = [0, 1]` (a nested table in TOML) as the one key `run.ace_rounds`.

    A nested table stops where the config holds a free-form dict (`limits.model_connections`, …)."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict) and not _is_free_dict(full):
            flat.update(_flatten(value, f"{full}."))
        else:
            flat[full] = value
    return flat


def _is_free_dict(key: str) -> bool:
    try:
        tp = _config_type(short_name(key))
    except KeyError:
        return False
    return get_origin(_unwrap(tp)) is dict


def _check(spec: SweepSpec) -> None:
    where = spec.path
    if spec.attempts < 1:
        raise UsageError(f"{where}: attempts: must be ≥ 1, got {spec.attempts}")
    for table, values in (("axes", spec.axes), ("fixed", spec.fixed), ("infra", spec.infra)):
        for key, value in values.items():
            _check_key(where, table, key)
            for item in value if table == "axes" else [value]:
                _check_value(where, table, key, item)
        if table == "axes":
            for key, value in values.items():
                if not value:
                    raise UsageError(f"{where}: [axes] {key}: an empty list makes no cells")
    both = sorted(set(map(short_name, spec.axes)) & set(map(short_name, spec.fixed)))
    if both:
        raise UsageError(f"{where}: {both[0]} is in both [axes] and [fixed]; keep one")
    if "model" not in spec.axes and "model" not in spec.fixed:
        raise UsageError(f"{where}: no model: give `model` in [axes] or [fixed]")
    for n, rule in enumerate(spec.exclude):
        for key in rule:
            if key not in spec.axes:
                raise UsageError(f"{where}: exclude[{n}].{key}: not an axis (axes: {', '.join(spec.axes)})")
            for value in rule[key] if isinstance(rule[key], list) else [rule[key]]:
                if value not in spec.axes[key]:
                    raise UsageError(f"{where}: exclude[{n}].{key} = {value!r}: not one of the axis's values")
    if not spec.cells():
        raise UsageError(f"{where}: exclude removes every cell")


def _check_key(where: str, table: str, key: str) -> None:
    canonical = short_name(key)
    if canonical == "model":
        if table == "infra":
            raise UsageError(f"{where}: [infra] model: the model is science; put it in [axes] or [fixed]")
        return
    if canonical in _PLAN_KEYS:
        top = canonical.split(".")[1]
        raise UsageError(f"{where}: [{table}] {key}: give `{top}` at the top of the spec instead")
    try:
        _config_type(canonical)
    except KeyError as exc:
        close = difflib.get_close_matches(key, [*SHORT_NAMES, "model"], n=1, cutoff=0.6)
        if close and "." not in key:  # one suggestion: the short name a spec is written with
            raise UsageError(
                f"{where}: [{table}] {key}: unknown key; did you mean the short name {close[0]!r}?"
            ) from None
        raise UsageError(f"{where}: [{table}] {key}: {exc.args[0]}") from None
    infra = infra_key(canonical)
    if table == "infra" and not infra:
        raise UsageError(
            f"{where}: [infra] {key}: a science key (results depend on it); put it in [axes] or [fixed]"
        )
    if table != "infra" and infra:
        raise UsageError(
            f"{where}: [{table}] {key}: an infra key (not part of a cell's key); put it in [infra]"
        )


def _check_value(where: str, table: str, key: str, value: Any) -> None:
    canonical = short_name(key)
    tp: Any = str if canonical == "model" else _config_type(canonical)
    try:
        msgspec.convert(value, tp)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{where}: [{table}] {key} = {value!r}: {exc}") from None


def _config_type(path: str) -> Any:
    """The annotation of config key `path` (`sampling.X` is a `SamplingParams` field); KeyError naming
    the unknown part and the closest valid one."""
    from repozero.agents.config import SamplingParams

    parts = path.split(".")
    tp: Any = Config
    if parts[0] == "sampling":
        tp, parts = SamplingParams, parts[1:]
    for n, part in enumerate(parts):
        tp = _unwrap(tp)
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            fields = {f.name: f.type for f in msgspec.structs.fields(tp)}
            if part not in fields:
                close = difflib.get_close_matches(part, list(fields), n=1, cutoff=0.5)
                hint = f"; did you mean {'.'.join([*parts[:n], close[0]])!r}?" if close else ""
                raise KeyError(f"unknown config key {'.'.join(parts[: n + 1])!r}{hint}")
            tp = fields[part]
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        else:
            raise KeyError(f"unknown config key {path!r}: {'.'.join(parts[:n])} is a value, not a section")
    return tp


def _unwrap(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        rest = [a for a in get_args(tp) if a is not type(None) and a is not msgspec.UnsetType]
        return rest[0] if len(rest) == 1 else tp
    return tp
