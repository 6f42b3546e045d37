"""date-parse: date::parse of numeric timestamp formats into sys_seconds, printed with date::format
(date 3.0.1, header-only)."""

from ckit import SHELL_METAS, CSampleDef, arg, c


def lines(*items: str) -> str:
    return "\n".join(items) + "\n"


MANY = lines(
    *[
        f"{1900 + i % 250}-{1 + i % 12:02d}-{1 + i % 28:02d} {i % 24:02d}:{i % 60:02d}:{(7 * i) % 60:02d}"
        for i in range(600)
    ]
)

CASES = [
    c(
        "--format",
        "%F %T",
        stdin=lines("2024-02-29 13:05:09", "1970-01-01 00:00:00", "1969-12-31 23:59:59", "2024-1-2 3:4:5"),
        desc="basic: ISO date and time",
    ),
    c(
        "--format",
        "%d/%m/%Y",
        stdin=lines("31/12/1999", "29/02/2023", "1/1/2000", "31/04/2024"),
        desc="basic: day/month/year with invalid dates",
    ),
    c(
        "--format",
        "%Y %j",
        stdin=lines("2024 060", "2023 060", "2024 366", "2000 1"),
        desc="basic: year and day of year",
    ),
    c(
        "--format",
        "%y%m%d",
        stdin=lines("240229", "991231", "000101", "680704"),
        desc="basic: two-digit years",
    ),
    c(
        "--format",
        "%y-%m-%d",
        stdin=lines("68-01-01", "69-01-01", "70-01-01", "99-12-31", "00-01-01"),
        desc="the two-digit year pivot: 69 and later are 19xx",
    ),
    c(
        "--format",
        "%Y %y %m-%d",
        stdin=lines(
            "2024 24 01-01",
            "2024 25 01-01",
            "1969 69 01-01",
            "-44 56 01-01",
            "-100 0 01-01",
            "-101 1 01-01",
            "0 0 01-01",
            "-199 99 01-01",
            "-1 99 01-01",
        ),
        desc="a full year and a two-digit year must agree (negative centuries)",
    ),
    c(
        "--format",
        "%F %T",
        stdin=lines(
            "2024-01-01 00:00:5.5",
            "2024-01-01 00:00:.5",
            "2024-01-01 00:00:.6",
            "2024-01-01 00:00:.",
            "2024-01-01 00:00:7.",
            "2024-01-01 00:00:59.9",
        ),
        desc="seconds read two characters, fractions round to even",
    ),
    c(
        "--format",
        "%F %T",
        stdin=lines(
            "2024-06-30 23:59:60", "2024-06-30 24:00:00", "2024-06-30 23:60:00", "2024-06-30 99:00:00"
        ),
        desc="time of day out of range",
    ),
    c(
        "--format",
        "%F",
        stdin=lines("2024-01-01xyz", "2024-01-01 ", "2024-01-0123", "20240-01-01", "2024-01-01\r"),
        desc="unread bytes after the parse",
    ),
    c(
        "--format",
        "%F %T",
        stdin=lines(
            "-44-03-15 12:00:00",
            "-1-01-01 00:00:00",
            "0-01-01 00:00:00",
            "5-06-07 08:09:10",
            "999-12-31 23:59:59",
            "9999-12-31 23:59:59",
            "-9999-01-01 00:00:00",
        ),
        desc="negative and short years print right-aligned with zero fill",
    ),
    c(
        "--format",
        "%Y-%m-%d",
        stdin=lines("2024-+5-01", "2024--1-01", "2024-05-+1", "+2024-05-01", "2024-00-10", "2024-13-10"),
        desc="signs on month and day",
    ),
    c(
        "--format",
        "%Y-%m-%d %Y",
        stdin=lines("2024-05-01 2024", "2024-05-01 2025"),
        desc="a repeated conversion must agree",
    ),
    c(
        "--format",
        "%m %m %Y-%d",
        stdin=lines("0 5 2024-01", "5 0 2024-01", "3 4 2024-01"),
        desc="month 0 counts as not given",
    ),
    c(
        "--format",
        "%Y  -  %m",
        stdin=lines("2024-05", "2024 \t - \t 05", "2024 - 05"),
        desc="format whitespace matches zero or more spaces (no day: never a date)",
    ),
    c(
        "--format",
        "%Y%%%m%%%d",
        stdin=lines("2024%05%06", "2024 %05%06", "20240506"),
        desc="%% is a literal percent",
    ),
    c(
        "--format",
        "%Y %j",
        stdin=lines("2023 000", "2023 366", "2024 999", "2023 1000"),
        desc="day of year 0 and past the year keep the year",
    ),
    c(
        "--format",
        "%j %Y %m",
        stdin=lines("060 2024 2", "060 2024 3", "060 2024 0"),
        desc="day of year against a given month",
    ),
    c("--format", "%F", stdin="", desc="empty input prints nothing"),
    c("--format", "", stdin=lines("2024-01-01", ""), desc="an empty format never makes a date"),
    c(
        "--format",
        "%F",
        stdin=lines("", "   ", "２０２４-01-01", "2024‐01‐01", "日付"),
        desc="empty lines, full-width digits, Unicode hyphens",
    ),
    c("--format", "%a %F", stdin=lines("Mon 2024-01-01"), desc="unsupported conversion"),
    c("--format", "%4Y", stdin=lines("2024"), desc="widths are unsupported"),
    c("--format", "%F%", stdin=lines("2024-01-01%"), desc="a trailing percent is unsupported"),
    c("--format", "%F %T", stdin=MANY, desc="six hundred timestamps"),
    c(
        "--format",
        "%H:%M:%S %d.%m.%Y",
        stdin=lines("13:05:09 29.02.2024", "1:2:3 4.5.6", "24:00:00 01.01.2000"),
        desc="time before date",
    ),
    c("--format", "%F", stdin="2024-01-01", desc="last line without a newline"),
    *[
        c("--format", s, stdin=lines("2024-01-01"), desc="shell metacharacters as a literal format")
        for s in SHELL_METAS[:4]
    ],
    c("--fmt", "%F", stdin=lines("2024-01-01"), desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="date-parse",
    package="libhowardhinnant-date-dev",
    language="cpp",
    program="date_parse.cpp",
    category="parsing/serialization",
    api=["date::parse", "date::sys_seconds", "date::format"],
    args=[
        arg(
            "format",
            "str",
            "the parse format: literals and %Y %y %m %d %e %j %H %M %S %F %T %%",
            required=True,
        )
    ],
    stdin="required",
    reach_files=["/usr/include/date/date.h"],
    cases=CASES,
)
