"""A workspace on object storage: `--workspace s3://BUCKET/PREFIX`.

Under the prefix:

- `lance/` — the LanceDB database (units, terms, collections, the embedding cache), read and
  written in place through LanceDB's object-store support;
- `states/<n>/` — the small files of committed state n: workspace.json, the graph's
  Parquet files (store/graph_files.py FILES), citations/*.jsonl, reports/*.json;
- `HEAD.json` — `{"state": n, "tables": {name: version}}`, the commit point. A writer replaces
  it with a conditional PUT (If-Match on the ETag it read when it started), so two writers can
  never both commit on the same state;
- `LEASE` — the writer's lease (`{"host", "pid", "since"}`), created with If-None-Match: *.

A reader reads HEAD.json, downloads that state's files into a private temporary folder
(removed with the workspace object) and opens the LanceDB tables at the versions HEAD names:
it sees one committed state however long a writer takes. A writer that dies leaves HEAD as it
was — its table versions are named nowhere — and the next writer restores the tables to HEAD's
versions before it starts. Credentials and the endpoint come from the environment only
(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL, AWS_ALLOW_HTTP=true
for a plain-HTTP endpoint such as a local S3 API); boto3 does the conditional writes.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
import weakref
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import BackendUnavailable, WorkbenchError

HEAD, LEASE, STATES = "HEAD.json", "LEASE", "states"
NOT_THERE = ("NoSuchKey", "404")
REFUSED = ("PreconditionFailed", "ConditionalRequestConflict", "412", "409")
KEEP_STATES = 3            # committed states kept: a reader downloads its state's files once, at open
LOCAL_ONLY = {"lance", "journal.json", ".journal", "writing.lock", "exports"}
TABLES = ("units", "terms")
_leases: dict[str, int] = {}        # uri -> depth, for the writers of this process
_guard = threading.Lock()


def is_remote(workspace) -> bool:
    """True for an s3:// workspace; a local path is False; another scheme is an error."""
    s = str(workspace)
    if s.startswith(("s3://", "s3:/")):
        return True
    if "://" in s:
        raise WorkbenchError(f"{s}: a workspace is a local folder or s3://BUCKET/PREFIX (other schemes "
                             "are not supported)")
    return False


class Remote:
    def __init__(self, uri: str):
        rest = str(uri).split(":", 1)[1].lstrip("/")
        bucket, _, prefix = rest.partition("/")
        if not bucket:
            raise WorkbenchError(f"{uri}: name a bucket: --workspace s3://BUCKET/PREFIX")
        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.uri = f"s3://{bucket}/{self.prefix}".rstrip("/")
        self.lance = f"{self.uri}/lance"
        self._client = None

    @property
    def s3(self):
        if self._client is None:
            try:
                import boto3
            except ImportError:
                raise BackendUnavailable("boto3", "install the s3 extra: pip install 'workbench[s3]'") from None
            self._client = boto3.client("s3")
        return self._client

    def key(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)

    def _call(self, what: str, fn, expect: tuple[str, ...] = (), **kw):
        """One S3 call; what the service or the network says becomes one line naming the URI,
        except the error codes in `expect`, raised as they are for the caller to handle."""
        from boto3.exceptions import Boto3Error
        from botocore.exceptions import BotoCoreError, ClientError
        try:
            return fn(Bucket=self.bucket, **kw)
        except ClientError as e:
            code = e.response.get("Error", {}).get("Code", "")
            if code in expect:
                raise
            raise WorkbenchError(f"{self.uri}: {what}: {code or e} ({e.response.get('Error', {}).get('Message', '')}); "
                                 "check the bucket and the AWS_* environment variables") from None
        except (BotoCoreError, Boto3Error) as e:
            raise WorkbenchError(f"{self.uri}: {what}: {e}; check AWS_ENDPOINT_URL and the credentials "
                                 "in the environment") from None

    # -- committed state ----------------------------------------------------------
    def head(self) -> tuple[dict | None, str | None]:
        """HEAD.json and its ETag, or (None, None) when nothing is committed yet."""
        from botocore.exceptions import ClientError
        try:
            got = self._call("reading HEAD.json", self.s3.get_object, NOT_THERE, Key=self.key(HEAD))
        except ClientError:
            return None, None
        try:
            return json.loads(got["Body"].read()), got["ETag"]
        except ValueError:
            raise WorkbenchError(f"{self.uri}/{HEAD} is damaged (not JSON); restore it from a backup "
                                 "or ingest into a new prefix") from None

    def _keys(self, under: str) -> list[str]:
        keys, token = [], None
        while True:
            kw = {"Prefix": under, **({"ContinuationToken": token} if token else {})}
            page = self._call("listing", self.s3.list_objects_v2, **kw)
            keys += [o["Key"] for o in page.get("Contents", [])]
            if not page.get("IsTruncated"):
                return keys
            token = page["NextContinuationToken"]

    def pull(self, state: int, dest: Path) -> None:
        """The files of committed `state` into the local folder `dest` (replacing what it held);
        WorkbenchError when the state is gone (pruned by writers since HEAD was read: open again)."""
        for item in dest.iterdir():
            if item.name not in LOCAL_ONLY:
                shutil.rmtree(item) if item.is_dir() else item.unlink()
        under = self.key(STATES, str(state)) + "/"
        keys = self._keys(under)
        if under + "workspace.json" not in keys:
            raise WorkbenchError(f"{self.uri}: committed state {state} is no longer there (writers committed "
                                 f"{KEEP_STATES} states since it was read); open the workspace again")
        for key in keys:
            target = dest / key[len(under):]
            target.parent.mkdir(parents=True, exist_ok=True)
            self._call(f"downloading {key}", self.s3.download_file, Key=key, Filename=str(target))

    def publish(self, local: Path, tables: dict[str, int], etag: str | None, state: int) -> str:
        """Upload `local`'s files as state `state`, then point HEAD at it (the commit); returns the
        new ETag. Refused when HEAD moved since `etag` was read (another writer committed)."""
        from botocore.exceptions import ClientError
        for key in self._keys(self.key(STATES, str(state)) + "/"):     # left by a writer that died
            self._call("clearing a dead writer's files", self.s3.delete_object, Key=key)
        for f in sorted(local.rglob("*")):
            rel = f.relative_to(local)
            if f.is_file() and rel.parts[0] not in LOCAL_ONLY:
                self._call(f"uploading {rel}", self.s3.upload_file, Filename=str(f),
                           Key=self.key(STATES, str(state), rel.as_posix()))
        body = json.dumps({"state": state, "tables": tables,
                           "committed": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")})
        cond = {"IfMatch": etag} if etag else {"IfNoneMatch": "*"}
        try:
            put = self._call("committing", self.s3.put_object, REFUSED, Key=self.key(HEAD), Body=body.encode(), **cond)
        except ClientError:
            raise WorkbenchError(f"{self.uri}: another writer committed while this one ran; nothing of this "
                                 "write is visible: run it again") from None
        for old in {int(k.split("/")[-2]) for k in self._keys(self.key(STATES) + "/") if k.count("/") >= 2
                    and k.split("/")[-2].isdigit()}:
            if old <= state - KEEP_STATES:
                for key in self._keys(self.key(STATES, str(old)) + "/"):
                    self._call("pruning", self.s3.delete_object, Key=key)
        return put["ETag"]

    # -- one writer -------------------------------------------------------------------
    def _holder(self) -> tuple[dict, str | None]:
        """The lease and its ETag, ({}, None) when there is none."""
        from botocore.exceptions import ClientError
        try:
            got = self._call("reading the lease", self.s3.get_object, NOT_THERE, Key=self.key(LEASE))
            return json.loads(got["Body"].read()), got["ETag"]
        except ClientError:
            return {}, None
        except ValueError:
            return {"host": "?", "pid": "?", "since": "? (unreadable lease)"}, None

    def _take(self, over: str | None = None) -> bool:
        """Create the lease, or replace the dead one whose ETag is `over`; False when refused."""
        from botocore.exceptions import ClientError
        me = {"host": socket.gethostname(), "pid": os.getpid(),
              "since": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
        cond = {"IfMatch": over} if over else {"IfNoneMatch": "*"}
        try:
            self._call("taking the lease", self.s3.put_object, REFUSED + NOT_THERE, Key=self.key(LEASE),
                       Body=json.dumps(me).encode(), **cond)
            return True
        except ClientError:
            return False

    @contextmanager
    def lease(self, wait: float | None = None):
        """Hold the workspace's writer lease for the block (re-entrant within a process). A lease
        left by a dead process of this host is taken over (a conditional write on that lease, so
        two takers cannot both win); otherwise wait up to `wait` seconds."""
        with _guard:
            if self.uri in _leases:
                _leases[self.uri] += 1
                mine = False
            else:
                mine = True
        if not mine:
            try:
                yield
            finally:
                with _guard:
                    _leases[self.uri] -= 1
            return
        deadline, told = time.monotonic() + (wait or 0), False
        while not self._take():
            who, etag = self._holder()
            if not who:                      # released meanwhile: try again
                continue
            if who.get("host") == socket.gethostname() and str(who.get("pid", "")).isdigit() \
                    and not _alive(int(who["pid"])) and self._take(over=etag):
                break
            if time.monotonic() > deadline:
                raise WorkbenchError(
                    f"{self.uri}: another writer ({who.get('host', '?')} pid {who.get('pid', '?')}, since "
                    f"{who.get('since', '?')}) holds this workspace; wait for it (--wait), or if it died "
                    f"on another machine, delete {self.uri}/{LEASE}")
            if not told:
                print(f"waiting for {who.get('host', '?')} pid {who.get('pid', '?')} to finish writing "
                      f"{self.uri} ...", file=sys.stderr, flush=True)
                told = True
            time.sleep(0.5)
        with _guard:
            _leases[self.uri] = 1
        try:
            yield
        finally:
            with _guard:
                _leases.pop(self.uri, None)
            self._call("releasing the lease", self.s3.delete_object, Key=self.key(LEASE))


def _alive(pid: int) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, OverflowError):
        return True
    return True


def restore_tables(store, terms, head: dict | None, uri: str = "") -> None:
    """The units and terms tables as HEAD names them: versions a dead writer added are undone.
    Rows in the bucket that no HEAD.json names are refused, not deleted (a first ingest that
    died leaves them, but so does a HEAD.json deleted by hand)."""
    versions = (head or {}).get("tables", {})
    for name, table in (("units", store.table), ("terms", terms.table)):
        want = versions.get(name)
        if want is None:
            if table.count_rows():
                raise WorkbenchError(f"{uri}: the {name} table holds rows that no {HEAD} names (a first "
                                     f"ingest that died, or {HEAD} deleted): restore {HEAD}, or delete "
                                     f"{uri}/lance to start this workspace again")
        elif table.version != want:
            table.restore(want)


def open_remote(cls, uri: str, config, create: bool):
    """Workbench.open for an s3:// workspace: its committed state's files in a private
    temporary folder, its tables in the bucket at the versions HEAD names."""
    remote = Remote(uri)
    head, etag = remote.head()
    if head is None and not create:
        raise WorkbenchError(f"{remote.uri}: no workspace here (no {HEAD}); ingest into it first: "
                             f"workbench ingest PATH --workspace {remote.uri}")
    local = Path(tempfile.mkdtemp(prefix="workbench-s3-"))
    try:
        if head:
            remote.pull(head["state"], local)
        wb = cls.open(local, config, create=True, lance=remote.lance, tables=(head or {}).get("tables"))
    except BaseException:
        shutil.rmtree(local, ignore_errors=True)
        raise
    weakref.finalize(wb, shutil.rmtree, str(local), True)
    wb.remote, wb.remote_head = remote, (head, etag)
    return wb
