"""Reading a config file: defaults, then a TOML file, then `a.b=c` overrides — strict about unknown keys.

`Config` itself (the sections assembled) is the run engine's (`orchestrator/engine/config.py`); this front-door
module only reads one, and renders one as TOML for `config show`.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from repozero.agents.config import EndpointConfig
from repozero.kernel.errors import ConfigError
from repozero.kernel.records import explain
from repozero.kernel.textio import decode_text
from repozero.orchestrator.engine.config import Config, config_data

__all__ = ["apply_override", "config_to_toml", "load_config"]


def _struct_type(tp: Any) -> type | None:
    return tp if isinstance(tp, type) and issubclass(tp, msgspec.Struct) else None


def _check_keys(raw: dict[str, Any], kind: type, where: str) -> None:
    """Reject unknown keys, naming the key and the closest valid one."""
    fields = {f.name: f.type for f in msgspec.structs.fields(kind)}
    for key, value in raw.items():
        path = f"{where}.{key}" if where else key
        if key not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1, cutoff=0.5)
            hint = f"; did you mean '{(where + '.') if where else ''}{close[0]}'?" if close else ""
            raise ConfigError(f"unknown config key '{path}'{hint} (valid here: {', '.join(fields)})")
        sub = _struct_type(fields[key])
        if sub is not None and isinstance(value, dict):
            _check_keys(value, sub, path)
        elif key == "endpoints" and isinstance(value, dict):
            for name, endpoint in value.items():
                if isinstance(endpoint, dict):
                    _check_keys(endpoint, EndpointConfig, f"{path}.{name}")


def _parse_value(text: str) -> Any:
    """An override value is read as TOML when it parses (numbers, booleans, lists), else as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_override(raw: dict[str, Any], override: str) -> None:
    """Apply one `a.b=c` override to the raw config dict in place."""
    key, sep, value = override.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set {override!r}: expected KEY=VALUE, e.g. oracle.repeats=5")
    node = raw
    parts = key.strip().split(".")
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ConfigError(f"--set {override!r}: '{part}' is a value, not a section")
        node = child
    node[parts[-1]] = _parse_value(value.strip())


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> Config:
    """Defaults, then the TOML file at `path` (if any), then each override in order."""
    raw: dict[str, Any] = {}
    where = "config"
    if path is not None:
        where = str(path)
        try:
            raw = tomllib.loads(decode_text(Path(path).read_bytes(), path, error=ConfigError))
        except FileNotFoundError:
            raise ConfigError(f"--config {path}: no such file") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    for override in overrides or []:
        apply_override(raw, override)
        where = f"{where} with --set"
    _check_keys(raw, Config, "")
    try:
        return msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{where}: {explain(exc, Config)}") from None


def config_to_toml(config: Config) -> str:
    """Render the effective config as TOML (sections in a stable order), credentials redacted."""
    data = config_data(config)
    lines: list[str] = []
    _emit_table(lines, [], data)
    return "\n".join(lines).strip() + "\n"


def _emit_table(lines: list[str], path: list[str], table: dict[str, Any]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in table.items() if isinstance(v, dict)}
    if path and (scalars or not tables):
        lines.append(f"\n[{'.'.join(path)}]")
    for key, value in scalars.items():
        lines.append(f"{key} = {_toml_scalar(value)}")
    for key, value in tables.items():
        if value or key != "params":
            _emit_table(lines, [*path, key], value)


def _toml_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_scalar(v) for v in value) + "]"
    return msgspec.json.encode(str(value)).decode()
