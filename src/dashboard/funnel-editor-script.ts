// The funnel editor's progressive enhancement (served inline under the page's CSP nonce): value suggestions follow
// the step kind, and every edit asks the server for validation (the same RE2 check as saving) and a preview of
// users per step, shown without a reload. Without JavaScript the form's own buttons do the same by round trip.
export const FUNNEL_EDITOR_SCRIPT = `
(function () {
  var form = document.getElementById('funnel-form');
  if (!form || !window.fetch) return;
  var timer = null, seq = 0;
  function text(el, value) { if (el) el.textContent = value; }
  function render(answer) {
    form.querySelectorAll('fieldset.step').forEach(function (set) {
      var i = set.getAttribute('data-step');
      var message = answer.errors['steps[' + i + '].value'] || answer.errors['steps[' + i + '].match'] || '';
      text(document.getElementById('step-' + i + '-error'), message);
      var input = document.getElementById('step-' + i + '-value');
      if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    });
    var box = document.getElementById('preview');
    box.replaceChildren();
    if (answer.preview && answer.preview.steps) {
      var table = document.createElement('table');
      table.innerHTML = '<thead><tr><th scope="col">Step</th><th scope="col">Users</th><th scope="col">Of step 1</th></tr></thead>';
      var body = document.createElement('tbody');
      answer.preview.steps.forEach(function (s) {
        var row = document.createElement('tr');
        [s.name, s.users.toLocaleString('en-US'), (s.conversionRate * 100).toFixed(1) + '%'].forEach(function (v, k) {
          var cell = document.createElement('td'); cell.textContent = v; if (k === 1) cell.setAttribute('data-users', ''); row.appendChild(cell);
        });
        body.appendChild(row);
      });
      table.appendChild(body); box.appendChild(table);
      var hint = document.createElement('p'); hint.className = 'hint'; hint.textContent = answer.preview.period; box.appendChild(hint);
    } else {
      var p = document.createElement('p'); p.className = answer.preview && answer.preview.error ? 'error' : 'muted';
      p.textContent = (answer.preview && answer.preview.error) || 'Fix the steps above to see the preview.'; box.appendChild(p);
    }
  }
  function refresh() {
    var mine = ++seq;
    var data = new URLSearchParams(new FormData(form));
    data.set('op', 'preview');
    fetch(form.getAttribute('data-preview'), { method: 'POST', body: data, headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (answer) { if (mine === seq) render(answer); })
      .catch(function () {});
  }
  form.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(refresh, 400); });
  form.addEventListener('change', function (event) {
    var select = event.target;
    if (select.name === 'step_type') {
      var i = select.id.split('-')[1];
      document.getElementById('step-' + i + '-value').setAttribute('list', select.value === 'event' ? 'observed-events' : 'observed-pages');
    }
    clearTimeout(timer); timer = setTimeout(refresh, 150);
  });
})();
`;
