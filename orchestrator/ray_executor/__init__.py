"""Runs and sweeps on a Ray cluster (`--executor ray`): one node runner per node, a coordinator on the driver.

Importing this package imports Ray: the command line does it only when `--executor ray` is given.
"""

from repozero.orchestrator.ray_executor.executor import RayExecutor
from repozero.orchestrator.ray_executor.node import NodeRunner
from repozero.orchestrator.ray_executor.units import CellJob, UnitDone, WorkUnit

__all__ = ["CellJob", "NodeRunner", "RayExecutor", "UnitDone", "WorkUnit"]
