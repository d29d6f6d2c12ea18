// The analysis board: position from the address (#pos=...), moves by clicking a pit and
// a direction, the sowing animated, every move's exact value from a background solve,
// a move list, a board editor and an export in the positions/ format.

import * as api from './api.js';
import { draw, Animator } from './board.js';

const $ = (id) => document.getElementById(id);
const svg = $('board');
const client = sessionStorage.getItem('giuthi-client') || (() => {
  const c = 'c' + Math.random().toString(36).slice(2, 12) + Date.now().toString(36);
  sessionStorage.setItem('giuthi-client', c);
  return c;
})();

const st = {
  line: [],        // [{text, view, move, trace}]
  cur: 0,
  sel: null,       // the selected pit
  anim: null,
  job: null,
  pollTimer: null,
  answers: new Map(), // position text -> finished answer
  editing: null,   // the editor's model, when editing
  hover: null,
};

const node = () => st.line[st.cur];
const sideName = (s) => (s === 'S' ? 'South' : 'North');

function modelOf(view) {
  return {
    game: view.game, n: view.n, pits: view.pits.slice(), turn: view.turn,
    marks: view.extra && view.extra.marks ? view.extra.marks : null,
    captured: { south: view.captured.south, north: view.captured.north },
  };
}

// ---------------------------------------------------------------- loading positions

async function open(text, { fromHash = false } = {}) {
  $('poserror').textContent = '';
  $('posinput').classList.remove('bad');
  try {
    const view = await api.position(text);
    stopAnim();
    st.line = [{ text: view.position, view, move: null, trace: null }];
    st.cur = 0;
    st.sel = null;
    show();
  } catch (e) {
    $('posinput').value = text;
    $('posinput').classList.add('bad');
    $('poserror').textContent = e.message;
    if (!st.line.length) draw(svg, { game: 'giuthi', n: 5, pits: Array(10).fill(0), turn: 'S', captured: { south: 0, north: 0 } });
  }
}

function setHash(text) {
  // Commas, slashes, colons and '=' are allowed in a fragment: kept readable.
  const enc = encodeURIComponent(text).replace(/%2C/g, ',').replace(/%2F/g, '/').replace(/%3A/g, ':').replace(/%3D/g, '=');
  const h = '#pos=' + enc;
  if (location.hash !== h) history.replaceState(null, '', h);
}

function hashPosition() {
  const m = location.hash.match(/^#pos=(.*)$/);
  return m ? decodeURIComponent(m[1].replace(/\+/g, '%20')) : null;
}

// ---------------------------------------------------------------- the board

function drawAll() {
  const nd = node();
  const v = nd.view;
  setHash(nd.text);
  $('posinput').value = nd.text;
  const mine = new Set(v.moves.filter((m) => m.pit !== null).map((m) => m.pit));
  draw(svg, modelOf(v), { mine, sel: st.sel }, { pit: onPit });
  let status;
  if (v.over) {
    const s = v.scores;
    const verdict = s.south === s.north ? 'a draw' : `${s.south > s.north ? 'South' : 'North'} wins by ${Math.abs(s.south - s.north)}`;
    status = `Game over: South ${s.south}, North ${s.north} — ${verdict}.`;
  } else if (v.must_pass) {
    status = `${sideName(v.turn)} to move has no legal sowing and must pass (${v.pass_clause}).`;
  } else if (v.game === 'kiothi' && !v.extra.can_enumerate) {
    status = `${sideName(v.turn)} to move: an opening redistribution is due (K3); type it as a move, e.g. r14,15:10=5,11=5.`;
  } else {
    status = `${sideName(v.turn)} to move.`;
  }
  const rep = repeatsAt(st.cur);
  if (rep !== null) status += ` This position already occurred (move ${rep}): under G10 the game ends here as a draw.`;
  $('status').textContent = status;
  showChoices();
  showMoveList();
  $('back').disabled = st.cur === 0;
  $('forward').disabled = st.cur >= st.line.length - 1;
  if (!st.anim) $('caption').textContent = nd.trace ? '' : 'Click one of the highlighted pits to move.';
  startSolve();
}

function showChoices() {
  const v = node().view;
  const box = $('choices');
  box.replaceChildren();
  const add = (label, mv, title) => {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset.move = mv;
    if (title) b.title = title;
    b.addEventListener('click', () => playMove(mv));
    box.appendChild(b);
  };
  if (v.must_pass) add('Pass', 'pass', `no legal sowing: the turn passes (${v.pass_clause})`);
  if (st.sel !== null) {
    const t = document.createElement('span');
    t.textContent = `Pit ${st.sel}:`;
    box.appendChild(t);
    for (const m of v.moves.filter((m) => m.pit === st.sel)) {
      const label = m.dir ? (m.dir === 'cw' ? '↻ cw' : '↺ ccw') : m.move;
      add(label, m.move, `play ${m.move}`);
    }
    for (const x of v.excluded.filter((x) => parseInt(x.move, 10) === st.sel)) {
      const s = document.createElement('span');
      s.className = 'hint';
      s.textContent = `${x.move}: ${x.reason}`;
      box.appendChild(s);
    }
  }
  if (v.game === 'kiothi' && !v.extra.can_enumerate) {
    const inp = document.createElement('input');
    inp.placeholder = 'redistribution, e.g. r14,15:10=5,11=5';
    inp.size = 30;
    inp.addEventListener('keydown', (e) => { if (e.key === 'Enter') playMove(inp.value.trim()); });
    box.appendChild(inp);
  }
}

function onPit(p, e) {
  if (st.editing) return editPit(p, e);
  if (st.anim) st.anim.skip();
  const v = node().view;
  const moves = v.moves.filter((m) => m.pit === p);
  if (moves.length === 1 && !moves[0].dir) return playMove(moves[0].move);
  const excluded = v.excluded.some((x) => parseInt(x.move, 10) === p);
  st.sel = moves.length || excluded ? (st.sel === p ? null : p) : null;
  show();
}

async function playMove(mv) {
  const nd = node();
  try {
    const r = await api.play(nd.text, mv);
    stopAnim();
    const next = { text: r.position.position, view: r.position, move: r.move, trace: r.trace };
    const old = st.line[st.cur + 1];
    if (old && old.move !== r.move) next.branchedFrom = old.move;
    if (!old || old.move !== r.move) st.line = st.line.slice(0, st.cur + 1).concat([next]);
    st.cur += 1;
    st.sel = null;
    if (r.trace && r.trace.laps.length) {
      animate(nd.view, r.trace);
    } else {
      $('caption').textContent = r.move === 'pass' ? `${sideName(nd.view.turn)} passes.` : `${sideName(nd.view.turn)} plays ${r.move}.`;
    }
    show();
  } catch (e) {
    $('caption').textContent = e.message;
  }
}

function animate(beforeView, trace) {
  const speed = () => Number($('speed').value);
  st.anim = new Animator(svg, modelOf(beforeView), trace, $('caption'), speed, () => {
    const capt = $('caption').textContent;
    st.anim = null;
    show();
    $('caption').textContent = capt;
  });
  st.anim.start();
}

function stopAnim() {
  if (st.anim) { const a = st.anim; st.anim = null; a.finished = true; clearTimeout(a.timer); }
}

// Shows the current node; while an animation runs it owns the board, so only the lists
// and the values follow.
function show() {
  if (st.anim) {
    setHash(node().text);
    showMoveList();
    const v = node().view;
    $('status').textContent = `${sideName(v.turn)} to move next.`;
    $('choices').replaceChildren();
    return startSolve();
  }
  drawAll();
}

// ---------------------------------------------------------------- move list

function repeatsAt(i) {
  const key = st.line[i].view.key;
  for (let j = 0; j < i; j++) if (st.line[j].view.key === key) return j;
  return null;
}

function showMoveList() {
  const ol = $('movelist');
  ol.replaceChildren();
  st.line.forEach((nd, i) => {
    if (i === 0) return;
    const li = document.createElement('li');
    li.textContent = `${sideName(st.line[i - 1].view.turn)[0]} ${nd.move}`;
    if (nd.view.moves.length && !nd.trace?.turn_passes && nd.trace) li.textContent += ' (extra move)';
    if (nd.branchedFrom) {
      const b = document.createElement('span'); b.className = 'branch'; b.textContent = ` (new branch; was ${nd.branchedFrom})`; li.appendChild(b);
    }
    const rep = repeatsAt(i);
    if (rep !== null) {
      const s = document.createElement('span'); s.className = 'rep';
      s.textContent = ` repetition of ${rep === 0 ? 'the start' : 'move ' + rep}: draw (G10)`;
      li.appendChild(s);
    }
    if (i === st.cur) li.className = 'cur';
    li.addEventListener('click', () => { stopAnim(); st.cur = i; st.sel = null; show(); });
    ol.appendChild(li);
  });
}

// ---------------------------------------------------------------- values

async function startSolve() {
  const text = node().text;
  if (st.solving === text) return;
  st.solving = text;
  clearTimeout(st.pollTimer);
  if (st.job) { const j = st.job; st.job = null; api.stop(j).catch(() => {}); }
  $('summary').replaceChildren();
  $('values').replaceChildren();
  $('values').dataset.sig = '';
  const v = node().view;
  if (st.answers.has(text)) return renderAnswer({ state: 'done', answer: st.answers.get(text) });
  if (v.over) { $('progress').textContent = 'The game is over.'; return; }
  if (!v.can_solve) { $('progress').textContent = 'Exact values start in the play phase (K3).'; return; }
  $('progress').textContent = 'solving…';
  try {
    const job = await api.solve(text, client);
    if (st.solving !== text) return api.stop(job.job).catch(() => {});
    st.job = job.job;
    $('stop').disabled = false;
    pollLoop(text);
  } catch (e) {
    $('progress').textContent = e.message;
  }
}

function pollLoop(text) {
  st.pollTimer = setTimeout(async () => {
    if (st.solving !== text || !st.job) return;
    try {
      const j = await api.poll(st.job);
      if (st.solving !== text) return;
      renderAnswer(j);
      if (j.state === 'running') pollLoop(text);
      else { st.job = null; $('stop').disabled = true; if (j.state === 'done') st.answers.set(text, j.answer); }
    } catch (e) {
      $('progress').textContent = e.message;
      $('stop').disabled = true;
    }
  }, 250);
}

const fmt = (m) => (m > 0 ? `+${m}` : `${m}`);

function renderAnswer(j) {
  const a = j.answer || {};
  const v = node().view;
  if (j.state === 'running') {
    const p = j.progress;
    $('progress').textContent = `solving… ${p ? `lo ∈ [${p.lo[0]}, ${p.lo[1]}], hi ∈ [${p.hi[0]}, ${p.hi[1]}]` : ''} · ${(j.nodes || 0).toLocaleString()} nodes · ${j.seconds.toFixed(1)} s${a.tables ? ' · tablebases' : ''}`;
  } else if (j.state === 'done') {
    $('progress').textContent = `solved exactly${j.nodes ? ` in ${j.nodes.toLocaleString()} nodes` : ''}${j.seconds !== undefined ? `, ${j.seconds.toFixed(2)} s` : ''}${a.tables ? ' (with tablebases)' : ''}.`;
  } else {
    const lo = a.lo_range, hi = a.hi_range;
    $('progress').innerHTML = '';
    const s = document.createElement('span'); s.className = 'unproven';
    s.textContent = `Stopped by ${j.stopped_by || 'the search'}: not solved. ${a.error ? a.error + '. ' : ''}${lo ? `Proven so far: lo ∈ [${lo[0]}, ${lo[1]}], hi ∈ [${hi[0]}, ${hi[1]}].` : ''}`;
    $('progress').appendChild(s);
  }
  const sum = $('summary');
  sum.replaceChildren();
  if (a.margin !== undefined) {
    const big = document.createElement('div'); big.className = 'big ' + a.result;
    big.textContent = `${fmt(a.margin)} — ${sideName(v.turn)} ${a.result === 'win' ? 'wins' : a.result === 'loss' ? 'loses' : 'draws'}${a.margin ? ` by ${Math.abs(a.margin)}` : ''}`;
    const b = document.createElement('div');
    b.textContent = `lo ${a.lo}, hi ${a.hi} · best: ${a.best.join(', ') || '—'}`;
    const note = document.createElement('div'); note.className = 'note'; note.textContent = a.repetition;
    const pv = document.createElement('div'); pv.className = 'pv'; pv.textContent = `PV: ${a.pv.join(' ') || '—'}`;
    sum.append(big, b, note, pv);
  }
  const box = $('values');
  // Rebuild the list only when it changes (a poll every 250 ms must not break a hover).
  const sig = node().text + JSON.stringify(a.moves || null);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.replaceChildren();
  if (!a.moves) {
    // Until the values come: the legal moves, to hover and click.
    const g = document.createElement('div'); g.className = 'group';
    for (const m of v.moves) {
      const row = document.createElement('div'); row.className = 'mv'; row.dataset.pending = m.move;
      const nm = document.createElement('span'); nm.className = 'name'; nm.textContent = m.move;
      const val = document.createElement('span'); val.textContent = '…';
      row.append(nm, val);
      row.addEventListener('mouseenter', () => preview(m.move));
      row.addEventListener('mouseleave', () => preview(null));
      row.addEventListener('click', () => playMove(m.move));
      g.appendChild(row);
    }
    box.appendChild(g);
    return;
  }
  for (const [res, title] of [['win', 'Wins'], ['draw', 'Draws'], ['loss', 'Losses']]) {
    const ms = a.moves.filter((m) => m.result === res).sort((x, y) => y.margin - x.margin);
    if (!ms.length) continue;
    const g = document.createElement('div'); g.className = 'group ' + res;
    const h = document.createElement('h3'); h.textContent = title; g.appendChild(h);
    for (const m of ms) {
      const row = document.createElement('div');
      row.className = 'mv' + (m.best ? ' best' : '');
      row.dataset.move = m.move;
      const nm = document.createElement('span'); nm.className = 'name'; nm.textContent = m.move;
      const val = document.createElement('span'); val.className = 'val'; val.textContent = fmt(m.margin);
      row.append(nm, val);
      row.title = `${m.move}: final margin ${fmt(m.margin)} for ${sideName(v.turn)} (V4)`;
      row.addEventListener('mouseenter', () => preview(m.move));
      row.addEventListener('mouseleave', () => preview(null));
      row.addEventListener('click', () => playMove(m.move));
      g.appendChild(row);
    }
    box.appendChild(g);
  }
  if (v.excluded.length) {
    const g = document.createElement('div'); g.className = 'group';
    const h = document.createElement('h3'); h.textContent = 'Excluded (endless, G7)'; g.appendChild(h);
    for (const x of v.excluded) {
      const row = document.createElement('div'); row.className = 'mv excluded'; row.title = x.reason;
      row.textContent = x.move; g.appendChild(row);
    }
    box.appendChild(g);
  }
}

function preview(mv) {
  if (st.anim || st.editing) return;
  const v = node().view;
  if (!mv) return show();
  const m = v.moves.find((x) => x.move === mv);
  if (!m) return;
  const model = modelOf(v);
  model.pits = m.after_pits.slice();
  draw(svg, model, { preview: true, hot: new Set(m.pit !== null ? [m.pit] : []) });
  $('caption').textContent = `Preview of ${mv}: the board after the move${m.captured ? `, ${m.captured} seed(s) captured` : ''}${m.extra ? ', then an extra move' : ''}.`;
}

// ---------------------------------------------------------------- editor

function editStart() {
  const v = node().view;
  stopAnim();
  st.editing = modelOf(v);
  st.editing.variant = v.variant;
  st.editing.extra = v.extra;
  $('editor').hidden = false;
  $('ed-game').value = v.game;
  $('ed-variant').value = v.variant;
  $('ed-n').value = v.n;
  $('ed-turn').value = v.turn;
  $('ed-cs').value = v.captured.south;
  $('ed-cn').value = v.captured.north;
  $('ed-taken').textContent = v.game === 'kalah' ? 'Stores:' : v.game === 'kiothi' ? 'Prisons:' : 'Captured:';
  $('edit').textContent = 'Editing…';
  editDraw();
}

function editText() {
  const m = st.editing;
  const game = $('ed-game').value;
  const variant = $('ed-variant').value.trim();
  const n = m.n;
  const cell = (p) => `${m.pits[p]}${m.marks && m.marks[p] ? m.marks[p] : ''}`;
  const north = [...Array(n).keys()].map(cell).join(',');
  const south = [...Array(n).keys()].map((i) => cell(n + i)).join(',');
  let t = `${game}${variant ? ':' + variant : ''} ${north}/${south} ${$('ed-turn').value} ${$('ed-cs').value || 0},${$('ed-cn').value || 0}`;
  if (game === 'kiothi') t += ` ${(m.extra && m.extra.phase) || 'play'}`;
  return t;
}

async function editCheck() {
  const t = editText();
  $('posinput').value = t;
  try {
    const view = await api.position(t);
    $('ed-error').textContent = '';
    return view;
  } catch (e) {
    $('ed-error').textContent = e.message;
    return null;
  }
}

function editDraw() {
  const m = st.editing;
  m.turn = $('ed-turn').value;
  m.captured = { south: Number($('ed-cs').value) || 0, north: Number($('ed-cn').value) || 0 };
  draw(svg, m, { mine: new Set([...Array(2 * m.n).keys()]) }, { pit: onPit });
  $('caption').textContent = 'Editing: ' + editText();
  editCheck();
}

function editPit(p, e) {
  const m = st.editing;
  m.pits[p] = Math.max(0, m.pits[p] + (e.shiftKey ? -1 : 1));
  editDraw();
}

function editResize() {
  const m = st.editing;
  const n = Math.max(2, Math.min(16, Number($('ed-n').value) || m.n));
  const pits = Array(2 * n).fill(0);
  for (let i = 0; i < Math.min(n, m.n); i++) { pits[i] = m.pits[i]; pits[n + i] = m.pits[m.n + i]; }
  m.n = n; m.pits = pits; m.marks = null;
  m.game = $('ed-game').value;
  editDraw();
}

async function editDone() {
  const view = await editCheck();
  if (!view) return;
  st.editing = null;
  $('editor').hidden = true;
  $('edit').textContent = 'Edit board';
  st.line = [{ text: view.position, view, move: null, trace: null }];
  st.cur = 0;
  show();
}

// ---------------------------------------------------------------- export

function exportLine() {
  const lines = [`# a line from the analysis board: ${st.line.slice(1).map((n) => n.move).join(' ') || '(no moves)'}`];
  st.line.forEach((nd, i) => {
    if (i > 0) lines.push(`# after ${nd.move}`);
    const a = st.answers.get(nd.text);
    lines.push(a && a.margin !== undefined
      ? `${nd.text} | lo=${a.lo} hi=${a.hi} margin=${a.margin >= 0 ? '+' + a.margin : a.margin} result=${a.result} best=${a.best.join(',')}`
      : nd.text);
  });
  const ta = $('exported');
  ta.hidden = false;
  ta.value = lines.join('\n') + '\n';
  ta.select();
}

// ---------------------------------------------------------------- wiring

$('posform').addEventListener('submit', (e) => { e.preventDefault(); open($('posinput').value.trim()); });
$('back').addEventListener('click', () => { if (st.cur > 0) { stopAnim(); st.cur--; st.sel = null; show(); } });
$('forward').addEventListener('click', () => {
  if (st.cur < st.line.length - 1) {
    stopAnim(); const before = node().view; st.cur++; st.sel = null;
    const t = node().trace; if (t && t.laps.length) animate(before, t); show();
  }
});
$('step').addEventListener('click', () => { if (st.anim) st.anim.step(); });
$('skip').addEventListener('click', () => { if (st.anim) st.anim.skip(); });
$('solve').addEventListener('click', () => { st.solving = null; st.answers.delete(node().text); startSolve(); });
$('stop').addEventListener('click', async () => {
  if (!st.job) return;
  try { renderAnswer(await api.stop(st.job)); } catch (e) { $('progress').textContent = e.message; }
});
$('edit').addEventListener('click', () => (st.editing ? editDone() : editStart()));
$('ed-done').addEventListener('click', editDone);
$('ed-clear').addEventListener('click', () => { st.editing.pits.fill(0); editDraw(); });
for (const id of ['ed-turn', 'ed-cs', 'ed-cn', 'ed-variant']) $(id).addEventListener('input', editDraw);
for (const id of ['ed-n', 'ed-game']) $(id).addEventListener('change', editResize);
$('export').addEventListener('click', exportLine);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT') return;
  if (e.key === 'ArrowLeft') $('back').click();
  if (e.key === 'ArrowRight') $('forward').click();
});
window.addEventListener('hashchange', () => {
  const t = hashPosition();
  if (t && (!st.line.length || t !== node().text)) open(t, { fromHash: true });
});

open(hashPosition() || 'giuthi 1,0,0,0/1,3,0,0 S 0,2', { fromHash: true });
