"""Samples, cases and datasets: the records, their storage, their hash, and importers."""

if __name__ != "repozero.datasets":  # imported as top-level `datasets` because the repo root is on sys.path
    from repozero.kernel.shadow import unshadow

    unshadow(__name__, __file__)  # raises ModuleNotFoundError, or puts the real package in sys.modules

from repozero.datasets.disk import (
    Dataset,
    builtin_root,
    load_dataset,
    resolve_dataset_path,
    write_dataset_info,
    write_sample,
)
from repozero.datasets.hashing import content_hash, sample_hash
from repozero.datasets.importer import import_repozero
from repozero.datasets.models import (
    SCHEMA_VERSION,
    Argument,
    Case,
    DatasetInfo,
    DroppedCase,
    Generation,
    Interface,
    Provenance,
    Sample,
    Source,
    Target,
    TestProgram,
    Vote,
)

__all__ = [
    "SCHEMA_VERSION",
    "Argument",
    "Case",
    "Dataset",
    "DatasetInfo",
    "DroppedCase",
    "Generation",
    "Interface",
    "Provenance",
    "Sample",
    "Source",
    "Target",
    "TestProgram",
    "Vote",
    "builtin_root",
    "content_hash",
    "import_repozero",
    "load_dataset",
    "resolve_dataset_path",
    "sample_hash",
    "write_dataset_info",
    "write_sample",
]
