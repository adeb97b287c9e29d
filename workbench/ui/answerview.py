"""The answer pane of the panel: the answer, its citations and reasoning chain, and what was
flagged or not used."""
from __future__ import annotations

import html


def answer_html(answer) -> str:
    """An Answer as HTML: the answer, its citations and reasoning chain. When the answering
    model is too small to trust (capable is False), the extractive answer with its own
    citations and chain comes first, and the model's text follows as a labelled draft."""
    get = lambda name, default=None: getattr(answer, name, default)   # noqa: E731

    def items(values) -> str:
        return "".join(f"<li><code>{html.escape(str(c))}</code></li>" for c in values or []) or "<li>none</li>"

    def body(text, cites, chain) -> str:
        return (f"<div style='white-space:pre-wrap'>{html.escape(str(text or ''))}</div>"
                f"<div style='margin-top:4px'><b>citations</b><ul style='margin:0'>{items(cites)}</ul></div>"
                f"<div><b>reasoning chain</b><ul style='margin:0'>{items(chain)}</ul></div>")
    small = get("backend") not in (None, "extractive") and get("capable") is False and get("extractive")
    if small:
        main = ("<div><b>extractive answer</b> (the model is too small to trust alone; its draft is below)</div>"
                + body(get("extractive"), get("extractive_citations"), get("extractive_chain"))
                + f"<div style='margin-top:6px;color:#555'><b>draft by {html.escape(str(get('model', '')))}</b>"
                + body(get("text"), get("citations"), get("chain") if get("citations") else []) + "</div>")
    else:
        main = body(get("text"), get("citations"), get("chain"))
    flagged = get("flagged")
    if isinstance(flagged, (list, tuple)):
        flagged = ", ".join(map(str, flagged))
    flag = (f"<div style='color:#a15c00'>flagged (cited but not in the evidence, removed): "
            f"{html.escape(str(flagged))}</div>" if flagged else "")
    flag += "".join(f"<div style='color:#777;font-size:11px'>not used: {html.escape(str(t))}</div>"
                    for t in get("tried") or [])
    meta = ", ".join(x for x in (str(get("backend", "") or ""), str(get("model", "") or ""),
                                 f"{get('latency_ms'):.0f} ms" if get("latency_ms") is not None else "") if x)
    return (f"<div class='wb-answer' style='font-size:13px'>{main}{flag}"
            f"<div style='color:#777;font-size:11px'>{html.escape(meta)}</div></div>")
