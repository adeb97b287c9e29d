"""Typed errors that say where the problem is and how to fix it."""
from __future__ import annotations


class WorkbenchError(Exception):
    """Base class: every error the workbench raises on purpose."""


class CorpusError(WorkbenchError):
    def __init__(self, file: str, line: int, reason: str):
        self.file, self.line, self.reason = str(file), line, reason
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {reason}")

    def __reduce__(self):           # pickled whole (a parse job on another process returns one)
        return (type(self), (self.file, self.line, self.reason))


class BackendUnavailable(WorkbenchError):
    def __init__(self, what: str, how_to_fix: str):
        self.what, self.how_to_fix = what, how_to_fix
        super().__init__(f"{what} is not available. {how_to_fix}")


class ConfigError(WorkbenchError, ValueError):
    """A setting or option that names something that does not exist."""


class QuestionError(WorkbenchError, ValueError):
    """A question or query with nothing to search for (empty, or punctuation only)."""
