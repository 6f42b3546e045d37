"""The event and record schema: explicit unique tags, versions, round trips, and no room for hidden data."""

from __future__ import annotations

import random
import typing

import msgspec
import pytest

from repozero.kernel.errors import ConfigError
from repozero.traces import (
    SCHEMA_VERSION,
    Event,
    HiddenCaseResult,
    HiddenCasesGraded,
    HiddenGradeRecord,
    Rewards,
    TraceRecord,
    compute_reward,
    episode_of,
    event_decoder,
    record_decoder,
    record_of,
)

from .synthetic_traces import episode_events, run_events


def _all_events() -> list[Event]:
    started, finished = run_events()
    return [started, *episode_events(0, rng=random.Random(1), steps=3, big_output_at=1), finished]


@pytest.mark.parametrize(("union", "tag_field"), [(Event, "event"), (TraceRecord, "kind")])
def test_unions_have_explicit_unique_tags_and_versions(union: typing.Any, tag_field: str) -> None:
    members = typing.get_args(union)
    tags = [m.__struct_config__.tag for m in members]
    assert all(m.__struct_config__.tag_field == tag_field for m in members)
    assert len(set(tags)) == len(tags)
    assert all(tag != m.__name__ for tag, m in zip(tags, members, strict=True))  # explicit, not defaulted
    for member in members:
        fields = {f.name: f for f in msgspec.structs.fields(member)}
        assert fields["schema_version"].default == SCHEMA_VERSION


def test_events_are_past_tense_and_frozen() -> None:
    for member in typing.get_args(Event):
        assert member.__name__.endswith("ed"), member.__name__
    event = _all_events()[1]
    with pytest.raises(AttributeError):
        event.schema_version = 2  # type: ignore[misc]


def test_every_event_kind_round_trips_through_json() -> None:
    events = _all_events()
    assert {type(e) for e in events} == set(typing.get_args(Event))  # the synthetic stream covers all
    decoder = event_decoder()
    for event in events:
        assert decoder.decode(msgspec.json.encode(event)) == event


def test_every_payload_round_trips_as_a_shard_line() -> None:
    decoder = record_decoder()
    for event in _all_events():
        record = record_of(event)
        if isinstance(record, typing.get_args(TraceRecord)):
            assert decoder.decode(msgspec.json.encode(record)) == record


def test_episode_of_names_the_episode_or_none() -> None:
    events = _all_events()
    assert episode_of(events[0]) is None and episode_of(events[-1]) is None
    assert {episode_of(e) for e in events[1:-1]} == {"synthetic-ep0"}


def _reachable_fields(tp: typing.Any, seen: set[typing.Any]) -> set[str]:
    """Every field name reachable from a type, through structs, lists, dicts and unions."""
    if tp in seen:
        return set()
    seen.add(tp)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        hints = typing.get_type_hints(tp)
        names = {f.name for f in msgspec.structs.fields(tp)}
        return names.union(*(_reachable_fields(hints[n], seen) for n in names))
    return set().union(*(_reachable_fields(a, seen) for a in typing.get_args(tp)))


def test_hidden_grades_have_no_field_that_could_hold_an_input_or_output() -> None:
    reachable = _reachable_fields(HiddenGradeRecord, set())
    allowed = {
        "kind", "schema_version", "episode_id", "round", "grader_version", "summary", "success_rate",
        "passed", "passed_cases", "total", "infra_errors", "build_ok", "failure_category", "cheat_flags", "cases", "case_id",
        "status", "wall_s",
    }  # fmt: skip
    assert reachable <= allowed, reachable - allowed
    assert {f.name for f in msgspec.structs.fields(HiddenCaseResult)} == {"case_id", "status", "wall_s"}
    with pytest.raises(TypeError):
        HiddenCaseResult(case_id="h1", status="pass", argv=["--secret"])  # type: ignore[call-arg]


def test_a_hidden_case_line_carrying_an_input_is_rejected_on_read() -> None:
    event = next(e for e in _all_events() if isinstance(e, HiddenCasesGraded))
    raw = msgspec.to_builtins(event.grade)
    raw["cases"][0]["expected_stdout"] = "c2VjcmV0"
    with pytest.raises(msgspec.ValidationError, match="expected_stdout"):
        record_decoder().decode(msgspec.json.encode(raw))


def test_named_reward_formulas() -> None:
    rewards = Rewards(hidden_success_rate=[0.5, 0.75], hidden_passed=[False, True], build_ok=False)
    assert compute_reward("hidden_success_rate", rewards) == 0.75
    assert compute_reward("hidden_passed", rewards) == 1.0
    assert compute_reward("hidden_success_rate_if_built", rewards) == 0.0
    assert compute_reward("visible_passed", rewards) == 0.0
    with pytest.raises(ConfigError, match="known: hidden_passed, hidden_success_rate"):
        compute_reward("nope", rewards)
