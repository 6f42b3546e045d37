"""Maps the top-level folders onto subpackages of `repozero` (see pyproject.toml)."""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
SUBPACKAGES = ["orchestrator", "agents", "sandbox", "oracle", "datasets", "traces"]


def _packages() -> tuple[list[str], dict[str, str]]:
    packages, package_dir = ["repozero"], {"repozero": "repozero"}
    for top in ["repozero", *SUBPACKAGES]:
        name = "repozero" if top == "repozero" else f"repozero.{top}"
        package_dir[name] = top
        for init in sorted((ROOT / top).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT / top)
            if "builtin" in rel.parts:
                continue
            packages.append(".".join([name, *rel.parts]) if rel.parts else name)
    return sorted(set(packages)), package_dir


PACKAGES, PACKAGE_DIR = _packages()

setup(
    packages=PACKAGES,
    package_dir=PACKAGE_DIR,
    package_data={
        "repozero.datasets": ["builtin/**/*"],
        "repozero.agents": ["prompts/*"],
        "repozero.sandbox": ["drivers/*"],
        "repozero.traces": ["viewer/*"],
        "repozero.orchestrator": ["report/*"],
    },
    include_package_data=False,
)
