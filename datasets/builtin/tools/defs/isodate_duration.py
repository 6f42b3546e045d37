"""isodate-duration: parse_duration and duration_isoformat, timedelta vs Duration (isodate 0.7.2)."""

from casekit import SHELL_METAS, SampleDef, arg, c

DURATIONS = [
    "P3D", "PT36H", "P1W2D", "PT90M", "PT0S", "P0D", "PT", "P1DT", "-P1D", "+PT1H", "-PT1S", "P1.5D",
    "PT1.5S", "PT0.000001S", "PT0.0000005S", "PT0.0000015S", "PT0.0000025S", "P0.5W", "PT1,25H",
    "P1Y", "P2M", "P1M", "P0.5M", "P1Y2M3DT4H5M6S", "-P1Y2M3DT4H5M6.5S", "P1,5Y", "P0Y", "P0Y0M1D",
    "P0.0Y2M", "P007Y", "-P0.5Y", "P10000D", "PT1000000H", "P1D\n", "P", "P1", "1D", "P-1D", "P1Y2Y",
    "pt1h", "PT1H2H", "P１D", "P 1D", "P1.D", "P.5D",
]
CASES = [
    c("--duration", "P1DT12H", desc="basic: a day and a half"),
    c("--duration", "PT45M", desc="basic: minutes"),
    c("--duration", "P2Y", desc="basic: years make a Duration"),
    c("--duration", "P1W", desc="basic: a week"),
    *[c("--duration", d, desc="duration forms, rounding and errors") for d in DURATIONS],
    c("--duration", "", desc="error: empty"),
    c("--duration", "   ", desc="error: whitespace"),
    c(stdin="P1D\nPT1H\r\nP1Y\rbad\n\nP3W\n", desc="several from stdin"),
    c(stdin="", desc="empty stdin prints nothing"),
    c(desc="stdin is /dev/null"),
    c("--duration", "P" + "9" * 5 + "D", desc="large day count"),
    *[c("--duration", s, desc="error: shell metacharacters") for s in SHELL_METAS[:4]],
    c("--duration", "P1D", "--format", "x", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="isodate-duration",
    requirements=["isodate==0.7.2"],
    program="isodate_duration.py",
    entry="isodate_duration.mjs",
    category="parsing/serialization",
    api=["isodate.parse_duration", "isodate.duration_isoformat", "timedelta.total_seconds", "Duration.__str__"],
    args=[arg("duration", "str", "an ISO 8601 duration; without it, one per line of stdin")],
    stdin="optional",
    cases=CASES,
)
