"""The one loaded workspace a server process shares between its requests.

Opened read-only. Its *version* is what a writer leaves behind when it commits (the
workspace file and the graph files, by modification time and size); when it changes and no
writer holds the workspace, the next request loads the new state, so an ingest by another
process becomes visible without a restart. While a writer holds the workspace the state
already loaded goes on being served (LanceDB tables read the version they opened); a
workspace with no committed state yet answers 409 (`NotReady`).

Model work (embedding a query, re-ranking, a model's answer) runs one request at a time per
process behind `model_lock`; reading units, edges, terms and counts does not wait for it.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

from ..core.config import Config
from ..core.errors import WorkbenchError
from ..store.graph import FILES as GRAPH_FILES
from ..store.lock import holder
from ..store.remote import Remote, is_remote
from ..workbench import META, Workbench


HEAD_EVERY = 1.0     # seconds between two reads of an s3:// workspace's HEAD.json


class NotReady(WorkbenchError):
    """The workspace has no committed state to serve yet (a writer is building it)."""


class Shared:
    def __init__(self, path: str | Path, config: Config | None = None):
        self.path = str(path) if is_remote(path) else Path(path)
        self.config = config or Config()
        self._remote = Remote(self.path) if isinstance(self.path, str) else None   # one S3 client, shared
        self._head, self._head_read, self._head_lock = "", 0.0, threading.Lock()
        self.wb: Workbench | None = None
        self.version = ""
        self._load_lock = threading.Lock()
        self.model_lock = threading.Lock()
        if holder(self.path) is None:
            self.current()               # a mistyped workspace is an error at start, not per request

    def stamp(self) -> str:
        if self._remote is not None:      # s3://: the ETag of HEAD.json, read at most once a second
            with self._head_lock:
                if time.monotonic() - self._head_read > HEAD_EVERY:
                    try:
                        self._head = self._remote.head()[1] or ""
                    except WorkbenchError:      # the bucket unreachable for a moment: keep serving
                        pass
                    self._head_read = time.monotonic()
            return self._head
        parts = []
        for name in (META, *GRAPH_FILES):
            f = self.path / name
            if f.is_file():
                st = f.stat()
                parts.append(f"{st.st_mtime_ns}-{st.st_size}")
        return ".".join(parts)

    def current(self) -> Workbench:
        """The loaded workspace, reloaded first when a writer has committed since."""
        writer = holder(self.path)
        if writer is not None:
            if self.wb is None:
                raise NotReady(f"{self.path}: a writer (pid {writer}) is building this workspace and "
                               "nothing is committed yet; retry when it has finished")
            return self.wb
        stamp = self.stamp()
        if self.wb is not None and stamp == self.version:
            return self.wb
        with self._load_lock:
            if self.wb is None or stamp != self.version:
                wb = Workbench.open(self.path, self.config, create=False)
                wb.retriever                  # build the catalog and term index once, here
                self.wb, self.version = wb, stamp
        return self.wb
