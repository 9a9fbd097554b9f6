// The playground page: web/build.sh puts this after web/pkg/core.js and
// `const KYAML_WASM` (kyaml.wasm in base64: the page loads nothing, so it
// works from file:// and any static host).
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const text = $('text');
  const mode = $('mode');
  const input = $('input');
  const schema = $('schema');
  const compact = $('compact');
  const output = $('output');
  const errors = $('errors');
  const warningsPane = $('warnings');
  const ok = $('ok');
  const gutter = $('gutter');
  const marks = $('marks');
  const status = $('status');
  const inInfo = $('in-info');

  const SAMPLE = `# A commented manifest: every comment is kept.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the Service selects it by label
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          ports:
            - containerPort: 80 # http
          env:
            - name: DEBUG
              value: "on" # quoted: a string
            - name: TRACE
              value: off # plain: kubectl reads a boolean
          args: ["--port=80", '--log=json']
          command:
            - /bin/sh
            - -c
            - |
              set -e
              exec nginx -g 'daemon off;'
`;

  let api = null;
  let lastOutput = '';
  let lines = 1;

  // The fragment: #in=<encodeURIComponent of the text>&mode=&schema=&input=&compact=1
  function readFragment() {
    const found = {};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      try {
        found[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1));
      } catch (e) {
        // A malformed escape: that field is left out.
      }
    }
    return found;
  }

  function setSelect(select, value) {
    if (value !== undefined && [...select.options].some((o) => o.value === value)) {
      select.value = value;
    }
  }

  function link() {
    const parts = [`in=${encodeURIComponent(text.value)}`, `mode=${mode.value}`, `schema=${schema.value}`];
    if (mode.value === 'convert') parts.push(`input=${input.value}`);
    if (compact.checked) parts.push('compact=1');
    return `${location.href.replace(/#.*$/, '')}#${parts.join('&')}`;
  }

  // The output, coloured line by line (keys, strings, comments); its DOM
  // text is exactly the KYAML.
  const LINE = /^( *)(#.*)?(?:("(?:[^"\\]|\\.)*"|[^\s"#{}[\],:][^:]*?)(:(?= |$)))?(.*)$/;
  const TOKEN = /("(?:[^"\\]|\\.)*"?)|( #.*$)/g;
  function colour(kyaml) {
    if (kyaml.length > 256 * 1024) return document.createTextNode(kyaml);
    const frag = document.createDocumentFragment();
    let plain = '';
    const span = (cls, s) => {
      if (plain) frag.appendChild(document.createTextNode(plain));
      plain = '';
      const el = document.createElement('span');
      el.className = cls;
      el.textContent = s;
      frag.appendChild(el);
    };
    kyaml.split('\n').forEach((line, n) => {
      if (n > 0) plain += '\n';
      const m = LINE.exec(line);
      plain += m[1];
      if (m[2] !== undefined) {
        span('k-com', m[2]);
        return;
      }
      if (m[3] !== undefined) {
        span('k-key', m[3]);
        plain += m[4];
      }
      let rest = m[5];
      let at = 0;
      for (const t of rest.matchAll(TOKEN)) {
        plain += rest.slice(at, t.index);
        span(t[1] !== undefined ? 'k-str' : 'k-com', t[0]);
        at = t.index + t[0].length;
      }
      plain += rest.slice(at);
    });
    if (plain) frag.appendChild(document.createTextNode(plain));
    return frag;
  }

  function problem(kind, line, column, message) {
    const row = document.createElement('div');
    const at = document.createElement('a');
    at.textContent = `line ${line}, column ${column}`;
    at.title = 'Show in the input';
    at.addEventListener('click', () => goTo(line, column));
    row.append(`${kind}: `, at, `: ${message}`);
    return row;
  }

  function goTo(line, column) {
    const rows = text.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < rows.length; i++) offset += rows[i].length + 1;
    offset += Math.max(0, column - 1);
    text.focus();
    text.setSelectionRange(offset, offset);
    text.scrollTop = Math.max(0, (line - 5) * lineHeight());
  }

  function lineHeight() {
    return parseFloat(getComputedStyle(text).lineHeight) || 20;
  }

  // Gutter line numbers, and a mark on each line with a problem.
  function drawGutter(found) {
    const count = text.value.split('\n').length;
    if (count !== lines || !gutter.textContent) {
      lines = count;
      const numbers = new Array(count);
      for (let i = 0; i < count; i++) numbers[i] = i + 1;
      gutter.textContent = numbers.join('\n');
    }
    for (const old of document.querySelectorAll('.gutter .dot')) old.remove();
    marks.textContent = '';
    const lh = lineHeight();
    const pad = parseFloat(getComputedStyle(text).paddingTop) || 0;
    for (const p of found) {
      const top = `${pad + (p.line - 1) * lh}px`;
      const row = document.createElement('div');
      row.className = p.kind;
      row.style.top = top;
      marks.appendChild(row);
      const col = document.createElement('div');
      col.className = p.kind === 'err' ? 'col' : 'col w';
      col.style.top = top;
      col.style.left = `calc(${pad}px + ${p.column - 1}ch)`;
      marks.appendChild(col);
      const dot = document.createElement('span');
      dot.className = `dot ${p.kind}`;
      dot.style.top = top;
      dot.title = p.message;
      gutter.parentNode.appendChild(dot);
    }
    scrolled();
  }

  function scrolled() {
    const y = -text.scrollTop;
    gutter.style.transform = `translateY(${y}px)`;
    for (const dot of document.querySelectorAll('.gutter .dot')) dot.style.transform = `translateY(${y}px)`;
    marks.style.transform = `translate(${-text.scrollLeft}px, ${y}px)`;
  }

  function size(n) {
    return n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(2)} MB`;
  }

  function render() {
    input.disabled = mode.value === 'fmt';
    const options = { schema: schema.value, compact: compact.checked };
    const source = text.value;
    const start = performance.now();
    let result = null;
    let failure = null;
    try {
      result = mode.value === 'fmt'
        ? api.fmt(source, options)
        : api.toKyaml(source, { ...options, input: input.value });
    } catch (e) {
      if (!(e instanceof api.KyamlError)) throw e;
      failure = e;
    }
    const ms = performance.now() - start;
    const found = [];
    errors.textContent = '';
    warningsPane.textContent = '';
    if (failure) {
      errors.appendChild(problem('error', failure.line, failure.column, failure.reason));
      found.push({ kind: 'err', line: failure.line, column: failure.column, message: failure.reason });
      output.classList.add('stale');
      output.title = 'The last valid output: the input has an error';
    } else {
      lastOutput = result.output;
      output.textContent = '';
      output.appendChild(colour(result.output));
      output.classList.remove('stale');
      output.title = '';
    }
    const warnings = failure ? failure.warnings : result.warnings;
    for (const w of warnings) {
      warningsPane.appendChild(problem('warning', w.line, w.column, w.message));
      found.push({ kind: 'warn', line: w.line, column: w.column, message: w.message });
    }
    ok.textContent = failure || warnings.length ? '' : 'No errors or warnings.';
    // The error's mark last: drawn over a warning on the same line.
    found.reverse();
    drawGutter(found);
    inInfo.textContent = `${lines} lines, ${size(new TextEncoder().encode(source).length)}`;
    status.textContent = failure
      ? `error · ${ms.toFixed(1)} ms`
      : `${size(new TextEncoder().encode(result.output).length)} · ${ms.toFixed(1)} ms`;
    document.body.dataset.renderMs = ms.toFixed(2);
  }

  let pending = 0;
  function schedule() {
    clearTimeout(pending);
    // Large inputs wait for a pause in typing.
    pending = setTimeout(render, text.value.length > 100000 ? 200 : 0);
  }

  function copy(value, button, done) {
    const said = button.textContent;
    const shown = () => {
      button.textContent = done;
      setTimeout(() => (button.textContent = said), 1200);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(shown, () => fallbackCopy(value) && shown());
    } else if (fallbackCopy(value)) {
      shown();
    }
  }

  function fallbackCopy(value) {
    const area = document.createElement('textarea');
    area.value = value;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch (e) {
      copied = false;
    }
    area.remove();
    return copied;
  }

  function start(exports) {
    api = kyamlApi(exports);
    const given = readFragment();
    text.value = given.in !== undefined ? given.in : SAMPLE;
    setSelect(mode, given.mode);
    setSelect(schema, given.schema);
    setSelect(input, given.input);
    compact.checked = given.compact === '1';
    for (const control of [mode, input, schema, compact]) control.addEventListener('change', render);
    text.addEventListener('input', schedule);
    text.addEventListener('scroll', scrolled);
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        document.execCommand('insertText', false, '  ');
      }
    });
    $('copy').addEventListener('click', (e) => copy(lastOutput, e.currentTarget, 'Copied'));
    $('share').addEventListener('click', (e) => {
      const url = link();
      history.replaceState(null, '', url);
      copy(url, e.currentTarget, 'Link copied');
    });
    window.addEventListener('hashchange', () => {
      const again = readFragment();
      if (again.in !== undefined && again.in !== text.value) {
        text.value = again.in;
        render();
      }
    });
    render();
  }

  // Compiled at once (every browser allows it for a module this size; the
  // page is then ready at its load event), else asynchronously.
  const binary = Uint8Array.from(atob(KYAML_WASM), (c) => c.charCodeAt(0));
  let instance = null;
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(binary), {});
  } catch (e) {
    WebAssembly.instantiate(binary, {}).then((r) => start(r.instance.exports), (why) => {
      errors.textContent = `This browser cannot run the WebAssembly of this page: ${why}`;
    });
  }
  if (instance) start(instance.exports);
})();
