"""`repozero images build|list` and `repozero sandbox cleanup`: the Docker backend's images and leftovers."""

from __future__ import annotations

import argparse
import shutil
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import anyio
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import print_json
from repozero.kernel.errors import UsageError
from repozero.kernel.log import get_logger
from repozero.kernel.runtime import run_async
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.images import RECIPES, build_image, image_ref

if (
    TYPE_CHECKING
):  # aiodocker (and aiohttp under it, ~0.2 s) is imported by these commands, not by every CLI start
    from repozero.sandbox.docker_client import DockerClient

log = get_logger(__name__)


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    images = group(subparsers, "images", "build and list the Docker sandbox images", parent)
    build = add_command(images, "build", "build the sandbox images offline (cached by recipe hash)", parent)
    build.add_argument("--force", action="store_true", help="rebuild even when the tagged image exists")
    build.add_argument("--only", action="append", choices=sorted(RECIPES), help="build only this image")
    build.set_defaults(func=_build)
    lister = add_command(images, "list", "list the sandbox images and whether they are built", parent)
    lister.add_argument("--json", action="store_true", help="print a JSON array")
    lister.set_defaults(func=_list)
    sandbox = group(subparsers, "sandbox", "manage sandboxes", parent)
    cleanup = add_command(sandbox, "cleanup", "remove containers left by runs (by label)", parent)
    cleanup.add_argument("--run-id", help="only this run's containers (default: every RepoZero container)")
    cleanup.set_defaults(func=_cleanup)


def _cfg(args: argparse.Namespace) -> SandboxConfig:
    return args.cfg.sandbox  # type: ignore[no-any-return]


def _open_client(cfg: SandboxConfig, connections: int) -> AbstractAsyncContextManager[DockerClient]:
    from repozero.sandbox.docker_client import open_client

    return open_client(cfg.docker_host, connections=connections)


def _docker_cli() -> str:
    """Debian's client when installed (it matches the daemon), else whatever `docker` is on PATH."""
    return "/usr/bin/docker" if shutil.which("/usr/bin/docker") else "docker"


def _build(args: argparse.Namespace) -> int:
    cfg = _cfg(args)
    names = args.only or sorted(RECIPES)

    async def main() -> None:
        async with _open_client(cfg, 8) as client:
            todo = [n for n in names if args.force or not await client.image_exists(_ref(n, cfg))]
            for name in sorted(set(names) - set(todo)):
                log.info("image_cached", image=name, ref=_ref(name, cfg))
            async with anyio.create_task_group() as tg:
                for name in todo:
                    tg.start_soon(_build_one, name, cfg)

    run_async(main)
    return 0


async def _build_one(name: str, cfg: SandboxConfig) -> None:
    await build_image(
        name, prefix=cfg.docker_image_prefix, mirror=cfg.docker_debian_mirror, docker_cli=_docker_cli()
    )


def _ref(name: str, cfg: SandboxConfig) -> str:
    return image_ref(name, cfg.docker_image_prefix)


async def _image_rows(client: DockerClient, cfg: SandboxConfig) -> list[dict[str, Any]]:
    rows = []
    for name, recipe in sorted(RECIPES.items()):
        ref = cfg.docker_images.get(name) or _ref(name, cfg)
        info: dict[str, Any] = {}
        if await client.image_exists(ref):
            async with client.api:
                info = await client.docker.images.inspect(ref)
        rows.append(
            {
                "name": name,
                "ref": ref,
                "built": bool(info),
                "size_mb": round(info.get("Size", 0) / 2**20, 1),
                "created": info.get("Created", "")[:19],
                "description": recipe.description,
            }
        )
    return rows


def _list(args: argparse.Namespace) -> int:
    cfg = _cfg(args)

    async def main() -> list[dict[str, Any]]:
        async with _open_client(cfg, 4) as client:
            return await _image_rows(client, cfg)

    rows = run_async(main)
    if args.json:
        print_json(rows)
        return 0
    table = Table(title="sandbox images")
    for column in ("name", "ref", "built", "size_mb", "created", "description"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
    Console().print(table)
    return 0


def _cleanup(args: argparse.Namespace) -> int:
    cfg = _cfg(args)
    if args.run_id is not None and not args.run_id.strip():
        raise UsageError("--run-id: empty run id")

    async def main() -> int:
        async with _open_client(cfg, 16) as client:
            return await client.reap(args.run_id)

    removed = run_async(main)
    print(f"removed {removed} container(s)" + (f" of run {args.run_id}" if args.run_id else ""))
    return 0
