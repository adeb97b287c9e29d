"""02_ask_and_tune in a real browser: JupyterLab served on a free local port, headless
Debian chromium driven by Playwright (sync API).

The test runs the notebook in JupyterLab (the way a user opens it: `workbench lab`) on a
1280×800 laptop screen, waits for the panel, checks by element geometry that every evidence
row's provenance and score parts are inside the table's box, unticks an edge type and moves
the hops slider (the evidence table and the subgraph change each time), clicks a node (the
detail pane and the row follow) and a row (the node is focused), pins a result and compares,
and exports the evidence (polars reads the file back with the rows shown). Screenshots at
1280×800 and 1920×1080 are written to a temporary folder, and to figures/panel_*.png when
WORKBENCH_SCREENSHOTS=1. JupyterLab rather than Voilà: it is what `workbench lab` starts,
so the test covers the real path (widget manager, HTML widgets, the srcdoc iframe).

Chromium or Playwright missing is a failure with instructions; set
WORKBENCH_SKIP_BROWSER=1 to skip the test on a machine without them (ignored when CI is set).
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SHOTS = ROOT / "figures"
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def _missing(what: str, fix: str):
    if os.environ.get("WORKBENCH_SKIP_BROWSER") and not os.environ.get("CI"):
        pytest.skip(f"{what} missing (WORKBENCH_SKIP_BROWSER is set)")
    pytest.fail(f"{what} missing: {fix}. (On a machine without a browser, WORKBENCH_SKIP_BROWSER=1 skips this test; "
                f"CI never skips it.)", pytrace=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on the notebooks, on a free port, with the sample workspace; stopped afterwards."""
    if os.environ.get("WORKBENCH_SKIP_BROWSER") and not os.environ.get("CI"):
        pytest.skip("WORKBENCH_SKIP_BROWSER is set")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _missing(f"chromium ({CHROMIUM})", "install Debian's browser: `apt-get install -y chromium`")
    try:
        import playwright.sync_api  # noqa: F401
        import jupyterlab  # noqa: F401
    except ImportError as e:
        _missing(f"the Python package {e.name}", "install the project: `make setup` (pip install -e '.[test]')")
    from test_notebooks import sample_workspace
    workspace = sample_workspace(tmp_path_factory)
    home = tmp_path_factory.mktemp("jupyter")
    served = home / "notebooks"            # a copy: JupyterLab's autosave and checkpoints stay out of the repo
    shutil.copytree(NOTEBOOKS, served, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "workspace-*"))
    sample = ROOT / "corpora" / "sample"
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ,
           "WORKBENCH_WORKSPACE": str(workspace), "WORKBENCH_FIGURES": str(home / "figures"),
           "WORKBENCH_CORPORA": f"{sample}{os.pathsep}{sample / 'zh'}",
           "WORKBENCH_BENCHMARK": str(sample / "benchmark.jsonl"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "MPLBACKEND": "Agg"}
    (home / "settings" / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    (home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={served}", "--LabApp.expose_app_in_browser=True",
           "--LabApp.news_url=None", "--LabApp.extension_manager=readonly", "--ServerApp.allow_root=True", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    log = open(home / "lab.log", "w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(home))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text()[-3000:], pytrace=False)
            time.sleep(0.5)
        yield {"base": base, "token": token, "log": home / "lab.log", "figures": home / "figures",
               "workspace": workspace}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _state(page) -> dict:
    """What the panel shows now: update count, evidence rows, the subgraph's signature."""
    return page.evaluate("""() => {
        const status = document.querySelector('.wb-panel .wb-status');
        const rows = [...document.querySelectorAll('.wb-panel .wb-table tr[data-unit]')].map(r => r.dataset.unit);
        const frame = document.querySelector('.wb-panel .wb-graph iframe');
        const doc = frame ? frame.getAttribute('srcdoc') || '' : '';
        const m = doc.match(/<meta name="wb-graph" content="([^"]*)"/);
        const err = document.querySelector('.wb-panel .wb-error');
        return {updates: status ? Number(status.dataset.updates) : 0, rows: rows,
                graph: m ? m[1] : '', error: err ? err.innerText : ''};
    }""")


def _wait_update(page, n: int, timeout: float = 120):
    page.wait_for_function(
        "n => { const s = document.querySelector('.wb-panel .wb-status'); return s && Number(s.dataset.updates) >= n; }",
        arg=n, timeout=timeout * 1000)


def _wait_graph_drawn(page):
    frame = page.frame_locator(".wb-panel .wb-graph iframe").first
    frame.locator("#mynetwork canvas").wait_for(state="visible", timeout=60_000)


def _inside(page) -> dict:
    """Evidence cells and score parts that stick out of the table's box (by element geometry)."""
    return page.evaluate("""() => {
        const box = document.querySelector('.wb-panel .wb-table').getBoundingClientRect();
        const out = [], seen = {via: 0, parts: 0};
        for (const el of document.querySelectorAll('.wb-panel .wb-table td.via, .wb-panel .wb-table span.part')) {
            const r = el.getBoundingClientRect();
            seen[el.tagName === 'TD' ? 'via' : 'parts'] += 1;
            if (r.width <= 0 || r.left < box.left - 1 || r.right > box.right + 1 || !el.innerText.trim()) {
                out.push(el.innerText.slice(0, 40) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
            }
        }
        // the settings on the left: no label or box cut off, nothing running into the evidence
        for (const el of document.querySelectorAll('.wb-panel .widget-checkbox label, .wb-panel .widget-dropdown select, '
                                                   + '.wb-panel .wb-settings .widget-text input, .wb-panel .wb-hops')) {
            const r = el.getBoundingClientRect();
            if (r.width > 0 && (r.right > box.left - 1 && r.left < box.left || el.scrollWidth > el.clientWidth + 1)) {
                out.push('setting: ' + (el.innerText || el.value || '').slice(0, 30));
            }
        }
        return {box: [Math.round(box.left), Math.round(box.right)], outside: out, seen: seen};
    }""")


def _graph_frame(page):
    frame = page.locator(".wb-panel .wb-graph iframe").element_handle().content_frame()
    frame.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30_000)
    return frame


def _shot(page, lab, name: str):
    path = lab["figures"] / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.locator(".wb-panel").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(2500)       # let vis-network settle its layout
    page.screenshot(path=str(path))
    assert path.stat().st_size > 30_000
    if os.environ.get("WORKBENCH_SCREENSHOTS") == "1":
        shutil.copy(path, SHOTS / name)


def test_panel_in_jupyterlab(lab):
    import polars as pl
    from playwright.sync_api import Error as PlaywrightError, sync_playwright
    try:
        pw = sync_playwright().start()
    except PlaywrightError as e:
        _missing("Playwright's driver", f"reinstall the pinned playwright wheel ({e})")
    try:
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        except PlaywrightError as e:
            _missing(f"a working chromium at {CHROMIUM}", f"`apt-get install -y chromium` ({str(e)[:300]})")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{lab['base']}/lab/tree/02_ask_and_tune.ipynb?token={lab['token']}", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=90_000)
        page.evaluate("""async () => {
            const w = window.jupyterapp.shell.currentWidget;
            await w.context.ready; await w.sessionContext.ready;
        }""")
        # a clean view: no left side bar, then run every cell
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        try:
            _wait_update(page, 1, 240)
            page.wait_for_selector(".wb-panel .wb-table tr[data-unit]", timeout=60_000)
        except PlaywrightError:
            page.screenshot(path=str(lab["figures"] / "browser_panel_failed.png"))
            raise AssertionError("the panel did not show evidence; server log:\n"
                                 + lab["log"].read_text()[-3000:] + f"\npage errors: {errors}")
        page.locator(".wb-panel").evaluate("el => el.scrollIntoView({block: 'start'})")
        _wait_graph_drawn(page)
        first = _state(page)
        assert first["rows"] and first["graph"] and not first["error"], first
        assert "REFERENCES" in first["graph"]

        # at 1280×800 every row's provenance and every score part is inside the table's box
        geometry = _inside(page)
        assert geometry["seen"]["via"] == len(first["rows"]) and geometry["seen"]["parts"] > 0, geometry
        assert not geometry["outside"], geometry
        assert page.locator(".wb-panel .wb-hops").inner_text().startswith("hops in use, from the policy for")

        # click a node: the detail pane shows that unit, its evidence row is highlighted
        frame = _graph_frame(page)
        page.wait_for_timeout(1500)       # vis-network's layout settles
        target = first["rows"][1]
        frame.evaluate("id => { network.stopSimulation(); network.focus(id, {scale: 1.0}); }", target)
        page.wait_for_timeout(300)
        spot = frame.evaluate("""id => { const p = network.canvasToDOM(network.getPositions([id])[id]);
                                         const c = document.querySelector('#mynetwork canvas').getBoundingClientRect();
                                         return {x: p.x + c.left, y: p.y + c.top}; }""", target)
        box = page.locator(".wb-panel .wb-graph iframe").bounding_box()
        page.mouse.click(box["x"] + spot["x"], box["y"] + spot["y"])
        page.wait_for_selector(f".wb-panel .wb-detail[data-unit='{target}']", timeout=30_000)
        assert page.locator(f".wb-panel .wb-table tr.hit.selected[data-unit='{target}']").count() == 1
        assert "edges out" in page.locator(".wb-panel .wb-detail").inner_text()

        # click a row: the node is focused in the graph, the detail pane follows
        other = first["rows"][0]
        page.locator(f".wb-panel .wb-table tr.hit[data-unit='{other}'] td.unit").click()
        frame.wait_for_function("id => document.body.dataset.focused === id", arg=other, timeout=30_000)
        page.wait_for_selector(f".wb-panel .wb-detail[data-unit='{other}']", timeout=30_000)

        # pin as A, then untick an edge type: REFERENCES edges leave the subgraph, the ranking changes
        page.locator(".wb-panel button", has_text="pin as A").click()
        t = time.perf_counter()
        page.locator(".wb-panel .widget-checkbox", has_text="REFERENCES").locator("input").click()
        _wait_update(page, first["updates"] + 1)
        _wait_graph_drawn(page)
        print(f"untick REFERENCES -> table and graph drawn in the browser: {(time.perf_counter() - t) * 1000:.0f} ms")
        second = _state(page)
        assert not second["error"], second["error"]
        assert second["rows"] != first["rows"], "the evidence table did not change"
        assert second["graph"] != first["graph"] and "REFERENCES" not in second["graph"], second["graph"]
        compare = page.locator(".wb-panel .wb-compare")
        compare.wait_for(state="visible", timeout=30_000)
        assert "edge_types: all →" in compare.inner_text() and compare.locator("tr[data-unit]").count() > 0
        assert compare.locator("td.move").all_inner_texts() != ["="] * compare.locator("td.move").count()
        page.locator(".wb-panel .widget-tab .lm-TabBar-tab", has_text="evidence").click()

        # move the hops slider (policy -> 0): no expansion any more
        slider = page.locator(".wb-panel .widget-hslider", has_text="hops")
        t = time.perf_counter()
        slider.locator(".noUi-handle").focus()
        page.keyboard.press("ArrowRight")
        _wait_update(page, second["updates"] + 1)
        _wait_graph_drawn(page)
        print(f"hops policy -> 0 -> table and graph drawn in the browser: {(time.perf_counter() - t) * 1000:.0f} ms")
        third = _state(page)
        assert not third["error"], third["error"]
        assert slider.locator(".widget-readout").inner_text().strip() == "0"
        assert third["rows"] != second["rows"], "the evidence table did not change"
        assert third["graph"] != second["graph"], "the subgraph did not change"

        # every edge type back, two hops along each
        page.locator(".wb-panel .widget-checkbox", has_text="REFERENCES").locator("input").click()
        _wait_update(page, third["updates"] + 1)
        slider.locator(".noUi-handle").focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        _wait_update(page, third["updates"] + 3)       # one update per key press
        _wait_graph_drawn(page)
        assert slider.locator(".widget-readout").inner_text().strip() == "2"
        last = _state(page)
        assert not last["error"] and "REFERENCES" in last["graph"], last

        # export: polars reads back the rows the table shows
        exports = Path(lab["workspace"]) / "exports"
        had = set(exports.glob("evidence_*.csv")) if exports.exists() else set()
        page.locator(".wb-panel button", has_text="export evidence").click()
        page.wait_for_function("() => document.querySelector('.wb-panel').innerText.includes('exported:')",
                               timeout=30_000)
        (new,) = set(exports.glob("evidence_*.csv")) - had
        assert pl.read_csv(new)["unit_id"].to_list() == last["rows"]
        assert pl.read_parquet(new.with_suffix(".parquet"))["unit_id"].to_list() == last["rows"]
        assert not errors, f"JavaScript errors in the page: {errors}"

        _shot(page, lab, "panel_1280x800.png")
        page.set_viewport_size({"width": 1920, "height": 1080})
        _shot(page, lab, "panel_1920x1080.png")
        assert not _inside(page)["outside"]
        browser.close()
    finally:
        pw.stop()


OTHERS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if p.stem != "02_ask_and_tune")


@pytest.mark.parametrize("name", OTHERS)
def test_notebook_in_jupyterlab(lab, name):
    """Every other notebook, run in JupyterLab at 1280×800: every cell runs without an error
    output, and the workbench's own tables (evidence, diff) are left-aligned despite
    JupyterLab's right-aligned table cells."""
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{lab['base']}/lab/tree/{name}?token={lab['token']}", timeout=90_000)
        find = """name => [...window.jupyterapp.shell.widgets('main')]
                             .find(w => w.context && w.context.path.endsWith(name) && w.sessionContext)"""
        page.wait_for_function(f"name => window.jupyterapp && ({find})(name)", arg=name, timeout=90_000)
        page.evaluate(f"""async name => {{
            const w = ({find})(name);
            window.jupyterapp.shell.activateById(w.id);
            await w.context.ready; await w.sessionContext.ready;
            window.__wbNotebook = w;
            await window.jupyterapp.commands.execute('notebook:run-all-cells');
        }}""", name)
        done = """() => {
            const w = window.__wbNotebook, session = w.sessionContext.session;
            const cells = w.content.widgets.filter(c => c.model.type === 'code');
            const failed = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'));
            const idle = session && session.kernel && session.kernel.status === 'idle';
            return failed || (idle && cells.every(c => c.model.executionCount !== null));
        }"""
        page.wait_for_function(done, timeout=600_000, polling=1000)
        failures = page.evaluate("""() => window.__wbNotebook.content.widgets
            .filter(c => c.model.type === 'code')
            .flatMap(c => c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                      .map(o => o.ename + ': ' + o.evalue))""")
        assert not failures, f"{name}: {failures}"
        right = page.evaluate("""() => [...document.querySelectorAll('.wb-evidence td, table td[style*="pre-wrap"]')]
            .filter(td => getComputedStyle(td).textAlign === 'right').length""")
        assert right == 0, f"{name}: {right} cells of the workbench's tables are right-aligned"
        assert not errors, f"JavaScript errors in the page: {errors}"
        browser.close()
    finally:
        pw.stop()
