from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
SAMPLE = ROOT / "corpora" / "sample"


def shared_corpus(name: str) -> Path:
    """The path of a real corpus under ../shared/corpora, or skip the test with the reason."""
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"needs the real corpus {path} (../shared/corpora is not beside this clone)")
    return path


@pytest.fixture(scope="session")
def e5():
    from workbench.store.embedders import E5Embedder
    return E5Embedder()


@pytest.fixture(scope="session")
def sample_workspace(tmp_path_factory):
    """The bundled sample corpus (English) ingested once for the session, with the real model.
    Tests that add to it (tests/test_api.py ingests the zh sample) must keep the others true."""
    from workbench.cli import main
    path = tmp_path_factory.mktemp("sample") / "ws"
    assert main(["ingest", str(SAMPLE), "--workspace", str(path), "--problems", "0"]) == 0
    return path


@pytest.fixture(scope="module")
def wb(tmp_path_factory):
    """The sample corpus and its Chinese translation in a fresh workspace, once per test module
    (tests/test_retrieval.py, tests/test_retrieval_versions.py; modules with a `wb` of their own
    use theirs)."""
    from workbench.core.config import Config, IngestConfig
    from workbench.workbench import Workbench
    wb = Workbench.open(tmp_path_factory.mktemp("ret"), Config(IngestConfig(progress=False)))
    wb.ingest(SAMPLE)
    wb.ingest(SAMPLE / "zh")
    return wb
