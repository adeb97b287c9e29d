"""A workspace in a bucket (store/remote.py), against a real S3 API: moto's server mode, started
and stopped here, credentials and endpoint from the environment only."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SAMPLE

pytestmark = pytest.mark.slow
WORKBENCH = Path(sys.executable).parent / "workbench"
BUCKET = "workbench-test"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    """moto's S3 server on a free local port; the AWS_* variables point every client at it."""
    pytest.importorskip("moto")
    boto3 = pytest.importorskip("boto3")
    port = _port()
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
           "AWS_ALLOW_HTTP": "true"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        for _ in range(100):
            try:
                boto3.client("s3").create_bucket(Bucket=BUCKET)
                break
            except Exception:
                time.sleep(0.1)
        else:
            pytest.fail("moto's S3 server did not start")
        yield boto3.client("s3")
    finally:
        server.terminate()
        server.wait(10)
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)


def _run(*args, check=True) -> subprocess.CompletedProcess:
    out = subprocess.run([str(WORKBENCH), *args], capture_output=True, text=True, timeout=600)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def _state(wb) -> tuple:
    """Counts and a hash of every unit id and edge: equal states, equal tuples."""
    ids = sorted(wb.units()["id"].to_list())
    edges = sorted(f"{e.source} {e.type.value} {e.target}" for e in wb.graph.all_edges())
    digest = hashlib.sha256("\n".join(ids + edges).encode()).hexdigest()
    return len(ids), len(edges), wb.terms.table.count_rows(), digest


def _head(s3, prefix: str) -> dict:
    return json.loads(s3.get_object(Bucket=BUCKET, Key=f"{prefix}/HEAD.json")["Body"].read())


def test_ingest_into_a_bucket_equals_a_local_ingest(s3, tmp_path):
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/same"
    _run("ingest", str(SAMPLE), "--workspace", uri, "--problems", "0")
    _run("ingest", str(SAMPLE), "--workspace", str(tmp_path / "ws"), "--problems", "0")
    remote, local = Workbench.open(uri, create=False), Workbench.open(tmp_path / "ws", create=False)
    assert _state(remote) == _state(local)
    assert remote.info()["workspace"] == uri
    assert [h.unit_id for h in remote.search("licence validity", "dense", 5)] == \
           [h.unit_id for h in local.search("licence validity", "dense", 5)]
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="same/")["Contents"]}
    assert {"same/HEAD.json", "same/states/1/graph_edges.parquet", "same/states/1/graph_nodes.parquet",
            "same/states/1/workspace.json"} <= keys                  # one URI holds everything
    assert any(k.startswith("same/lance/units.lance/") for k in keys)
    out = _run("ask", "How long is a licence valid?", "--workspace", uri)
    assert "clinic-licensing-act" in out.stdout
    out = _run("info", "--workspace", uri)
    assert "edges of sample" in out.stdout and "warning" not in out.stdout


def test_the_panel_works_on_a_workspace_in_a_bucket(s3, tmp_path):
    from workbench.ui.panel import Panel
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/panel"
    _run("ingest", str(SAMPLE), "--workspace", uri, "--problems", "0")
    panel = Panel.for_workbench(Workbench.open(uri, create=False), "How long is a clinic licence valid?",
                                exports=tmp_path / "exports")
    assert not panel.errors and panel.view is not None and "clinic-licensing-act" in panel.table.value
    panel.top_k.value = 3
    assert not panel.errors and len(panel.view.result.hits) == 3
    panel._answer()
    assert "licensing-act" in panel.answer.value
    assert all(Path(f).exists() for f in panel.export().values())


def test_readers_keep_their_state_while_a_writer_commits(s3, tmp_path):
    from workbench.api.state import Shared
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/grow"
    _run("ingest", str(SAMPLE), "--workspace", uri, "--problems", "0")
    before = Workbench.open(uri, create=False)
    first = _state(before)
    shared = Shared(uri)
    stamp = shared.stamp()
    # two reader processes query while a third process ingests the zh sample
    code = ("import sys, time, pathlib; from workbench.workbench import Workbench\n"
            "seen, end = set(), time.time() + 180\n"
            "while time.time() < end and len(seen) < 2:\n"      # until it has seen the commit
            "    wb = Workbench.open(sys.argv[1], create=False)\n"
            "    n = wb.store.table.count_rows(); e = wb.graph.g.ecount()\n"
            "    assert wb.search('licence', 'bm25', 3), 'no hits'\n"
            "    seen.add((n, e)); pathlib.Path(sys.argv[2]).touch()\n"
            "import json; print(json.dumps(sorted(seen)))\n")
    ready = [tmp_path / f"reader{i}" for i in range(2)]
    readers = [subprocess.Popen([sys.executable, "-c", code, uri, str(f)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for f in ready]
    deadline = time.time() + 120
    while not all(f.exists() for f in ready) and time.time() < deadline:     # both have read the old state
        time.sleep(0.1)
    _run("ingest", str(SAMPLE / "zh"), "--workspace", uri, "--problems", "0")
    after = Workbench.open(uri, create=False)
    assert _state(before) == first                       # pinned to the state it opened
    assert _state(after)[0] > first[0] and _head(s3, "grow")["state"] == 2
    states = {(first[0], first[1]), (after.store.table.count_rows(), after.graph.g.ecount())}
    for r in readers:
        out, err = r.communicate(timeout=120)
        assert r.returncode == 0, err
        assert set(map(tuple, json.loads(out))) == states, out     # both states, nothing between
    time.sleep(1.1)
    assert shared.stamp() != stamp                           # the server would reload


def test_a_second_writer_is_refused_and_a_dead_ones_lease_is_taken_over(s3):
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/lease"
    _run("ingest", str(SAMPLE / "zh"), "--workspace", uri, "--problems", "0")
    held = {"host": "elsewhere", "pid": 1, "since": "2026-01-01T00:00:00+00:00"}
    s3.put_object(Bucket=BUCKET, Key="lease/LEASE", Body=json.dumps(held).encode())
    out = _run("ingest", str(SAMPLE), "--workspace", uri, check=False)
    assert out.returncode == 2 and "another writer (elsewhere pid 1" in out.stderr and "Traceback" not in out.stderr
    assert _head(s3, "lease")["state"] == 1
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    held = {"host": socket.gethostname(), "pid": dead.pid, "since": "2026-01-01T00:00:00+00:00"}
    s3.put_object(Bucket=BUCKET, Key="lease/LEASE", Body=json.dumps(held).encode())
    _run("ingest", str(SAMPLE), "--workspace", uri, "--problems", "0")
    assert _head(s3, "lease")["state"] == 2
    assert "LEASE" not in {o["Key"].split("/")[-1] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="lease/")["Contents"]}
    assert Workbench.open(uri, create=False).info()["inconsistencies"] == []


def test_a_writer_killed_midway_leaves_the_committed_state(s3, tmp_path):
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/crash"
    _run("ingest", str(SAMPLE / "zh"), "--workspace", uri, "--problems", "0")
    first = _state(Workbench.open(uri, create=False))
    # the English sample embeds for several seconds: killed while its tables are being written
    writer = subprocess.Popen([str(WORKBENCH), "ingest", str(SAMPLE), "--workspace", uri],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    from workbench.store.remote import Remote
    import lancedb
    db, start = lancedb.connect(Remote(uri).lance), _head(s3, "crash")["tables"]["units"]
    deadline = time.time() + 120
    while db.open_table("units").version == start and time.time() < deadline and writer.poll() is None:
        time.sleep(0.02)
    assert writer.poll() is None, "the writer ended before it could be killed mid-write"
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    seen = _state(Workbench.open(uri, create=False))
    assert seen == first or _head(s3, "crash")["state"] == 2       # the old state, or the whole new one
    _run("ingest", str(SAMPLE), "--workspace", uri, "--problems", "0")   # takes the dead writer's lease over
    _run("ingest", str(SAMPLE / "zh"), "--workspace", str(tmp_path / "ws"), "--problems", "0")
    _run("ingest", str(SAMPLE), "--workspace", str(tmp_path / "ws"), "--problems", "0")
    assert _state(Workbench.open(uri, create=False)) == _state(Workbench.open(tmp_path / "ws", create=False))


@pytest.mark.parametrize("workspace, says", [
    ("gs://bucket/ws", "other schemes are not supported"),
    (f"s3://{BUCKET}/nothing-here", "no workspace here"),
    ("s3://no-such-bucket-here/ws", "no-such-bucket-here"),
])
def test_bad_workspace_uris_are_one_line(s3, workspace, says):
    out = _run("search", "licence", "--workspace", workspace, check=False)
    assert out.returncode == 2, out.stderr
    assert says in out.stderr and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_ray_ingest_writes_to_the_bucket(s3, tmp_path):
    pytest.importorskip("ray")
    from workbench.workbench import Workbench
    uri = f"s3://{BUCKET}/ray"
    _run("ingest", str(SAMPLE / "zh"), "--workspace", uri, "--engine", "ray", "--workers", "1", "--problems", "0")
    _run("ingest", str(SAMPLE / "zh"), "--workspace", str(tmp_path / "ws"), "--problems", "0")
    assert _state(Workbench.open(uri, create=False)) == _state(Workbench.open(tmp_path / "ws", create=False))
