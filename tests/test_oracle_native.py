"""C/C++ sources in the Oracle: real gcc/g++, a real Debian library, the determinism filter on native code.

Needs `libcjson-dev` and `libhowardhinnant-date-dev` (scripts/setup.d/05-c2rust.sh installs them).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.kernel.errors import OracleError
from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, Verdict, open_oracle, program_ref
from repozero.oracle.host_process import HostProcess
from repozero.oracle.native_env import LocalNativeEnvironment
from repozero.oracle.server import Batch, ForkServer, ServerPool
from repozero.sandbox import CaseInput
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker_client import docker_unavailable

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CJSON = ("libcjson-dev",)
DETERMINISTIC = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
int main(int argc, char **argv) {
    const char *text = argc > 2 && strcmp(argv[1], "--json") == 0 ? argv[2] : "null";
    cJSON *doc = cJSON_Parse(text);
    if (!doc) { printf("invalid\n"); return 0; }
    char *out = cJSON_PrintUnformatted(doc);
    printf("%s %d\n", out, cJSON_GetArraySize(doc));
    free(out);
    cJSON_Delete(doc);
    char line[256];
    while (fgets(line, sizeof line, stdin)) printf("stdin: %s", line);
    return 0;
}
"""
POINTER = r"""
#include <stdio.h>
#include <cjson/cJSON.h>
int main(void) { cJSON *item = cJSON_CreateTrue(); printf("%p\n", (void *)item); return 0; }
"""
UNINITIALISED = r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    unsigned char *p = malloc(64);
    unsigned sum = 0;
    for (int i = 0; i < 64; i++) sum += p[i];
    printf("%u\n", sum);
    return 0;
}
"""
CLOCK = r"""
#include <chrono>
#include <iostream>
#include <date/date.h>
int main() {
    auto today = date::floor<date::days>(std::chrono::system_clock::now());
    std::cout << date::year_month_day{today} << "\n";
}
"""
CRASH = r"""
#include <stdio.h>
int main(void) { volatile int *p = 0; printf("before\n"); fflush(stdout); return *p; }
"""
TIMED = r"""
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv) { time_t now = time(NULL); printf("%d %d\n", argc, now > 0); return 0; }
"""
CASES = [
    CaseInput(id="a", argv=["--json", "[1,2,3]"]),
    CaseInput(id="b", argv=["--json", '{"k": "v"}'], stdin=b"one\ntwo\n"),
    CaseInput(id="c", argv=["--json", "[1,"]),
    CaseInput(id="d", argv=[]),
]


def _program(root: Path, name: str, text: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / name).write_text(text)
    return folder


async def _ground(
    config: OracleConfig, sandbox: SandboxConfig, folder: Path, language: str, packages: tuple[str, ...],
    cases: list[CaseInput] = CASES, timeout_s: float = 10.0,
) -> list[Verdict]:  # fmt: skip
    request = GroundTruthRequest(
        env=EnvSpec(language=language, requirements=packages),  # type: ignore[arg-type]
        program=program_ref(folder, folder.name), cases=cases, repeats=6, timeout_s=timeout_s,
        output_cap=1 << 16,
    )  # fmt: skip
    async with open_oracle(config, sandbox=sandbox) as oracle:
        with anyio.fail_after(180):
            return await oracle.ground_truth(request)


ISOLATIONS = [
    pytest.param("sandbox", id="sandbox"),
    pytest.param("host", id="host"),
    pytest.param("docker", id="docker", marks=[
        pytest.mark.docker, pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable())),
    ]),
]  # fmt: skip


@pytest.fixture(scope="module", params=ISOLATIONS)
def setting(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[OracleConfig, SandboxConfig, Path]:
    if shutil.which("g++") is None or not Path("/usr/include/cjson/cJSON.h").is_file():
        pytest.skip("needs g++ and libcjson-dev (scripts/setup.d/05-c2rust.sh)")
    root = tmp_path_factory.mktemp(f"native-{request.param}")
    config = OracleConfig(isolation=request.param, cache_dir=str(root / "cache"), cache=False, servers=6)
    return config, SandboxConfig(local_root=str(root / "sbx")), root


async def test_a_deterministic_program_keeps_every_case(
    setting: tuple[OracleConfig, SandboxConfig, Path],
) -> None:
    config, sandbox, root = setting
    verdicts = await _ground(config, sandbox, _program(root, "det.c", DETERMINISTIC), "c", CJSON)
    assert [v.reason for v in verdicts] == [None] * 4, verdicts
    assert [v.stdout for v in verdicts] == [b"[1,2,3] 3\n", b'{"k":"v"} 1\nstdin: one\nstdin: two\n',
                                            b"invalid\n", b"null 0\n"]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "text", "language", "packages"),
    [
        ("pointer.c", POINTER, "c", CJSON),
        ("uninit.c", UNINITIALISED, "c", CJSON),
        ("clock.cpp", CLOCK, "cpp", ("libhowardhinnant-date-dev",)),
    ],
)
async def test_native_nondeterminism_drops_every_case(
    setting: tuple[OracleConfig, SandboxConfig, Path], name: str, text: str, language: str,
    packages: tuple[str, ...],
) -> None:  # fmt: skip
    config, sandbox, root = setting
    verdicts = await _ground(config, sandbox, _program(root, name, text), language, packages)
    assert [v.reason for v in verdicts] == ["nondeterministic"] * 4, verdicts


async def test_a_crash_is_an_oracle_error(setting: tuple[OracleConfig, SandboxConfig, Path]) -> None:
    config, sandbox, root = setting
    verdicts = await _ground(config, sandbox, _program(root, "crash.c", CRASH), "c", CJSON)
    assert [(v.reason, v.exit_code) for v in verdicts] == [("oracle_error", 139)] * 4, verdicts


LIMITS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "hang")) for (;;) {}
    if (!strcmp(what, "flood")) for (;;) fputs("yyyyyyyyyyyyyyyy\n", stdout);
    if (!strcmp(what, "hog")) { char *p = malloc(1UL << 34); printf("%s\n", p ? "got 16 GiB" : "refused"); return 0; }
    printf("[%s] argc=%d\n", what, argc);
    return 0;
}
"""


async def test_native_runs_keep_the_case_execution_contract(
    setting: tuple[OracleConfig, SandboxConfig, Path],
) -> None:
    config, sandbox, root = setting
    cases = [CaseInput(id=w, argv=[w]) for w in ("hang", "flood", "hog")]
    cases.append(CaseInput(id="quote", argv=["a b; $(echo x) *", ""]))
    verdicts = await _ground(
        config, sandbox, _program(root, "limits.c", LIMITS), "c", CJSON, cases, timeout_s=2.0
    )
    assert [(v.id, v.reason) for v in verdicts] == [
        ("hang", "oracle_timeout"), ("flood", "oracle_error"), ("hog", None), ("quote", None),
    ], verdicts  # fmt: skip
    assert "output cap" in verdicts[1].detail
    assert verdicts[2].stdout == b"refused\n"  # oracle.memory_mb (8 GiB) as the address-space limit
    assert verdicts[3].stdout == b"[a b; $(echo x) *] argc=3\n"  # argv as stored, never a shell string


async def test_the_compile_is_cached_and_a_missing_package_is_named(
    setting: tuple[OracleConfig, SandboxConfig, Path],
) -> None:
    config, sandbox, root = setting
    folder = _program(root, "again.c", DETERMINISTIC)
    await _ground(config, sandbox, folder, "c", CJSON)
    with pytest.raises(OracleError, match="libnothere-dev is not installed"):
        await _ground(config, sandbox, folder, "c", ("libnothere-dev",))
    builds = sorted(b for b in (root / "cache" / "oracle" / "native").iterdir() if not b.name.startswith("."))
    stamps = [(b / "exe").stat().st_mtime_ns for b in builds]
    await _ground(msgspec.structs.replace(config, clock_shifts=[]), sandbox, folder, "c", CJSON)
    assert [(b / "exe").stat().st_mtime_ns for b in builds] == stamps


UTF8 = r"""
#include <iostream>
#include <string>
#include "utf8.h"
int main(int argc, char **argv) {
    std::string s = argc > 1 ? argv[1] : "";
    if (!utf8::is_valid(s.begin(), s.end())) { std::cout << "invalid" << std::endl; return 0; }
    std::cout << utf8::distance(s.begin(), s.end()) << std::endl;
    return 0;
}
"""


async def test_lines_reached_by_gcov(setting: tuple[OracleConfig, SandboxConfig, Path]) -> None:
    """A header-only library's lines reached (what `dataset generate` measures for C/C++): more inputs
    reach more lines; Docker's native environment does not measure (None); nor does a Python one."""
    config, sandbox, root = setting  # libutfcpp-dev: scripts/setup.d/05-c2rust.sh
    folder = _program(root, "utf8.cpp", UTF8)
    env = EnvSpec(language="cpp", requirements=("libutfcpp-dev",))
    few = [CaseInput(id="a", argv=["abc"])]
    many = [*few, CaseInput(id="b", argv=["h\u00e9llo \U0001f600"]), CaseInput(id="c", argv=["\u00ed\u00b3"])]
    async with open_oracle(config, sandbox=sandbox) as oracle:
        with anyio.fail_after(180):
            small = await oracle.native_lines(env, program_ref(folder, folder.name), few)
            large = await oracle.native_lines(env, program_ref(folder, folder.name), many)
            again = await oracle.native_lines(env, program_ref(folder, folder.name), few)  # nothing left over
            python = await oracle.native_lines(
                EnvSpec(requirements=()), program_ref(folder, folder.name), few
            )
    assert python is None
    if config.isolation == "docker":
        assert small is None and large is None
    else:
        assert small is not None and large is not None and 0 < small < large, (small, large)
        assert again == small  # a measure counts its own cases only, whatever ran before in the sandbox


def _last_pid() -> int:
    return int(Path("/proc/sys/kernel/ns_last_pid").read_text())


def _plant_stale_faketime_memory(start: int, count: int) -> list[Path]:
    """`faketime_shm_PID` for the `count` PIDs after `start`, without its semaphore (what a killed process
    can leave and what makes libfaketime exit 1); the names it made, for the caller to remove."""
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    shm = Path("/dev/shm")
    planted = [shm / f"faketime_shm_{(start + n) % pid_max}" for n in range(1, count + 1)]
    planted = [p for p in planted if not p.exists()]
    for path in planted:
        path.write_bytes(b"")
    return planted


@pytest.fixture
def stale_pids() -> None:
    if shutil.which("gcc") is None or not Path("/usr/include/cjson/cJSON.h").is_file():
        pytest.skip("needs gcc and libcjson-dev (scripts/setup.d/05-c2rust.sh)")
    if not Path("/dev/shm").is_dir() or not Path("/proc/sys/kernel/ns_last_pid").is_file():
        pytest.skip("needs /dev/shm and /proc/sys/kernel/ns_last_pid")


@pytest.mark.usefixtures("stale_pids")
async def test_a_clock_shifted_run_drawing_a_pid_with_stale_libfaketime_memory_still_runs(
    tmp_path: Path,
) -> None:
    """libfaketime creates `/dev/shm/faketime_shm_PID` exclusively in a clock-shifted process that has no
    FAKETIME_SHARED, and exits 1 before main if the name exists; a killed faketime'd process leaves its name
    behind, and once PIDs wrap a run that drew such a PID failed — one repeat disagreeing with the rest, so
    its case was dropped as nondeterministic (2 cases of 64,200 in one build of builtin:c2rust, other ones in
    the next). Here, once the servers are up, every PID the next runs can draw has a stale name: every run
    on a shifted server must still print what the unshifted ones print and exit 0."""
    env = LocalNativeEnvironment(EnvSpec(language="c", requirements=CJSON), tmp_path / "cache")
    folder = _program(tmp_path, "timed.c", TIMED)
    program = program_ref(folder, folder.name)
    batch = Batch(staged=await env.stage_program(program), program=program, timeout_s=10.0,
                  output_cap=1 << 16, stderr_cap=1 << 12)  # fmt: skip
    runs = [CaseInput(id=str(n), argv=["x"] * n) for n in range(8)]
    pool = ServerPool(env, ["+1d"], anyio.CapacityLimiter(4))
    try:
        await pool.ensure(2)  # server 1 runs under the shifted clock
        start = _last_pid()
        planted = _plant_stale_faketime_memory(start, 4000)
        try:
            plain, shifted = await pool.run(0, batch, runs), await pool.run(1, batch, runs)
            ended = _last_pid()
        finally:
            for path in planted:
                path.unlink(missing_ok=True)
    finally:
        await pool.aclose()
    assert 16 <= ended - start < 4000, "the runs drew PIDs outside the planted window"
    assert [(r.exit_code, r.stdout) for r in shifted] == [(r.exit_code, r.stdout) for r in plain]
    assert [r.stdout for r in plain] == [f"{n + 1} 1\n".encode() for n in range(8)]
    assert {r.exit_code for r in plain} == {0} and shifted[0].clock_shift == "+1d"


class _FirstStartsFail(LocalNativeEnvironment):
    """Its first `fails` servers exit 1 at once, as libfaketime makes a server that drew a stale PID."""

    fails = 2

    async def open_server(self, seed: int, clock_shift: str) -> HostProcess:  # type: ignore[override]
        if self.fails:
            self.fails -= 1
            argv = [
                sys.executable,
                "-c",
                "import sys; sys.stderr.write('shm_open failed: File exists\\n'); sys.exit(1)",
            ]
            return HostProcess(await anyio.open_process(argv))
        return await super().open_server(seed, clock_shift)  # type: ignore[return-value]


async def test_a_server_that_breaks_while_starting_is_started_again(tmp_path: Path) -> None:
    env = _FirstStartsFail(EnvSpec(language="c", requirements=CJSON), tmp_path / "cache")
    server = await ForkServer.start(env, 1, "+1d")  # two starts fail, the third is the server
    await server.aclose()
    env.fails = 3
    with pytest.raises(OracleError, match="exited"):
        await ForkServer.start(env, 1, "+1d")
