// Installed once per page by Panel._ipython_display_: a click on an evidence row or a message
// from a graph frame selects the unit in that panel (hidden `wb-select` text widget -> Python)
// and focuses the node in the graph frame.
(function () {
  if (window.__wbSelect) { return; }
  window.__wbSelect = true;
  function select(panel, id, focus) {
    var input = panel.querySelector('.wb-select input');
    if (input) {
      input.value = ''; input.dispatchEvent(new Event('change', {bubbles: true}));
      input.value = id; input.dispatchEvent(new Event('change', {bubbles: true}));
    }
    panel.querySelectorAll('.wb-evidence tr[data-unit]').forEach(function (r) {
      r.classList.toggle('selected', r.dataset.unit === id);
    });
    var row = panel.querySelector('.wb-evidence tr[data-unit="' + CSS.escape(id) + '"]');
    if (row) { row.scrollIntoView({block: 'nearest'}); }
    var frame = panel.querySelector('iframe.wb-graph-frame');
    if (focus && frame) { frame.contentWindow.postMessage({wbFocus: id}, '*'); }
  }
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || d.wb !== 'select') { return; }
    document.querySelectorAll('.wb-panel iframe.wb-graph-frame').forEach(function (f) {
      if (f.contentWindow === e.source) { select(f.closest('.wb-panel'), String(d.id), false); }
    });
  });
  document.addEventListener('click', function (e) {
    var row = e.target.closest && e.target.closest('.wb-panel tr[data-unit]');
    if (row) { select(row.closest('.wb-panel'), row.dataset.unit, true); }
  }, true);
})();
