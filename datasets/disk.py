"""Reading and writing datasets on disk, all or nothing.

Layout of a dataset folder::

    dataset.toml                      name, version, content hash
    samples/<id>/sample.json          the Sample record (cases included)
    samples/<id>/program/...          the test program and anything it reads
    samples/<id>/api_spec.md          the functional spec shown to agents
    samples/<id>/gold/                optional gold reference in the target language
    samples/<id>/buggy.patch          optional planted bug (for scripted policies)
    samples/<id>/tester_inputs.json   optional inputs that reveal the planted bug

A malformed file fails the whole load with the file, the JSON path and what was expected; a file in the
wrong encoding with the byte offset (`repozero.kernel.textio`: UTF-8, or UTF-16 with a BOM for the text files).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from repozero.datasets.models import DatasetInfo, Sample
from repozero.kernel.errors import DatasetError
from repozero.kernel.records import explain, json_encoder
from repozero.kernel.textio import read_source, read_text

__all__ = [
    "Dataset",
    "builtin_root",
    "load_dataset",
    "resolve_dataset_path",
    "write_atomic",
    "write_dataset_info",
    "write_sample",
]

_sample_decoder = msgspec.json.Decoder(Sample)


def builtin_root() -> Path:
    """Where built-in datasets live (inside the installed package)."""
    return Path(__file__).parent / "builtin"


def resolve_dataset_path(name: str | os.PathLike[str]) -> Path:
    """Turn `builtin:NAME` or a folder path into a folder, or say clearly why not."""
    text = os.fspath(name)
    if text.startswith("builtin:"):
        wanted = text.removeprefix("builtin:")
        root = builtin_root()
        known = (
            sorted(p.name for p in root.iterdir() if (p / "dataset.toml").is_file()) if root.is_dir() else []
        )
        if wanted not in known:
            raise DatasetError(f"{text}: no such built-in dataset (known: {', '.join(known) or 'none'})")
        return root / wanted
    path = Path(text)
    if not (path / "dataset.toml").is_file():
        raise DatasetError(f"{path}: not a dataset folder (no dataset.toml)")
    return path


class Dataset:
    """A loaded dataset: its info, its samples in id order, and where their files are."""

    def __init__(self, root: Path, info: DatasetInfo, samples: list[Sample]) -> None:
        self.root = root
        self.info = info
        self.samples = samples
        self._by_id = {s.id: s for s in samples}

    @property
    def name(self) -> str:
        return self.info.name

    def sample(self, sample_id: str) -> Sample:
        try:
            return self._by_id[sample_id]
        except KeyError:
            raise DatasetError(f"{self.root}: no sample {sample_id!r}") from None

    def sample_dir(self, sample_id: str) -> Path:
        return self.root / "samples" / sample_id

    def program_dir(self, sample_id: str) -> Path:
        return self.sample_dir(sample_id) / "program"

    def program_path(self, sample_id: str) -> Path:
        return self.program_dir(sample_id) / self.sample(sample_id).test_program.path

    def api_spec(self, sample_id: str) -> str:
        return read_text(self.sample_dir(sample_id) / self.sample(sample_id).api_spec, error=DatasetError)

    def test_program(self, sample_id: str) -> str:
        """The test program's text, decoded as its language reads it (a PEP 263 coding line, for Python)."""
        language = self.sample(sample_id).test_program.language
        return read_source(self.program_path(sample_id), language, error=DatasetError)

    def gold_dir(self, sample_id: str) -> Path:
        return self.sample_dir(sample_id) / "gold"

    def replace(self, sample: Sample) -> None:
        """Swap in an updated sample (in memory; `write_sample` persists it)."""
        self._by_id[sample.id] = sample
        self.samples = [self._by_id[s.id] for s in self.samples]


def load_dataset(name: str | os.PathLike[str]) -> Dataset:
    """Load a whole dataset or raise DatasetError naming the file, field and expectation."""
    root = resolve_dataset_path(name)
    info = _load_info(root / "dataset.toml")
    samples_root = root / "samples"
    samples = (
        [_load_sample(d) for d in sorted(samples_root.iterdir()) if d.is_dir()]
        if samples_root.is_dir()
        else []
    )
    return Dataset(root, info, samples)


def _load_info(path: Path) -> DatasetInfo:
    try:
        raw = tomllib.loads(read_text(path, error=DatasetError))
        return msgspec.convert(raw, DatasetInfo)
    except tomllib.TOMLDecodeError as exc:
        raise DatasetError(f"{path}: invalid TOML: {exc}") from None
    except msgspec.ValidationError as exc:
        raise DatasetError(f"{path}: {explain(exc, DatasetInfo)}") from None


def _load_sample(folder: Path) -> Sample:
    path = folder / "sample.json"
    if not path.is_file():
        raise DatasetError(f"{path}: missing (every folder under samples/ is a sample)")
    try:
        sample = _sample_decoder.decode(read_text(path, error=DatasetError))
    except msgspec.ValidationError as exc:
        raise DatasetError(f"{path}: {explain(exc, Sample)}") from None
    except msgspec.DecodeError as exc:
        raise DatasetError(f"{path}: invalid JSON: {exc}") from None
    _check_sample(path, folder, sample)
    return sample


def _check_sample(path: Path, folder: Path, sample: Sample) -> None:
    if sample.id != folder.name:
        raise DatasetError(f"{path}: $.id is {sample.id!r} but the folder is named {folder.name!r}")
    program = folder / "program" / sample.test_program.path
    if not program.is_file():
        raise DatasetError(f"{path}: $.test_program.path names {program}, which does not exist")
    if not (folder / sample.api_spec).is_file():
        raise DatasetError(f"{path}: $.api_spec names {folder / sample.api_spec}, which does not exist")
    read_text(folder / sample.api_spec, error=DatasetError)  # a bad encoding fails the load, not an episode
    read_source(program, sample.test_program.language, error=DatasetError)
    if not sample.target.entry:
        raise DatasetError(f"{path}: $.target.entry must name a command, got an empty list")
    seen: set[str] = set()
    for index, case in enumerate(sample.cases):
        if case.id in seen:
            raise DatasetError(f"{path}: $.cases[{index}].id {case.id!r} repeats an earlier case id")
        seen.add(case.id)


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so readers see the old or the new content, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def encode_sample(sample: Sample) -> bytes:
    return msgspec.json.format(json_encoder.encode(sample), indent=1) + b"\n"


def write_sample(root: Path, sample: Sample) -> None:
    write_atomic(root / "samples" / sample.id / "sample.json", encode_sample(sample))


def write_dataset_info(root: Path, info: DatasetInfo) -> None:
    lines = [f"{field} = {_toml_value(getattr(info, field))}" for field in info.__struct_fields__]
    write_atomic(root / "dataset.toml", ("\n".join(lines) + "\n").encode())


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json_encoder.encode(str(value)).decode()  # a JSON string is a valid TOML basic string


@contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Build a folder beside `out` and move it into place only if the block succeeds."""
    if out.exists():
        raise DatasetError(f"{out}: already exists (refusing to overwrite)")
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.staging-"))
    try:
        yield stage
        os.replace(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
