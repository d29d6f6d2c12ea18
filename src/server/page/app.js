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

// The moves form a tree: each node {text, view, move, trace, parent, children, next};
// children[0] is the main line, the others are variations; `next` is the child that
// Forward follows (the branch last visited).
const st = {
  root: null,
  cur: null,
  sel: null,       // the selected pit
  anim: null,
  job: null,
  pollTimer: null,
  answers: new Map(), // position text -> finished answer
  editing: null,   // the editor's model, when editing
  hover: null,
};

const node = () => st.cur;
const mkNode = (view, move = null, trace = null, parent = null) =>
  ({ text: view.position, view, move, trace, parent, children: [], next: null });
// The nodes from the root to `nd`.
function pathTo(nd) { const p = []; for (let x = nd; x; x = x.parent) p.unshift(x); return p; }
// The current line: root to the current node, then on along `next` to its end.
function currentLine() {
  const p = pathTo(st.cur);
  for (let x = st.cur; x.next; x = x.next) p.push(x.next);
  return p;
}
function goTo(nd) {
  stopAnim();
  for (let x = nd; x.parent; x = x.parent) x.parent.next = x; // Forward follows this branch
  st.cur = nd; st.sel = null; show();
}
const sideName = (s) => (s === 'S' ? 'South' : 'North');

function modelOf(view) {
  return {
    game: view.game, n: view.n, pits: view.pits.slice(), turn: view.turn,
    marks: view.extra && view.extra.marks ? view.extra.marks.slice() : null,
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
    st.root = mkNode(view);
    st.cur = st.root;
    st.sel = null;
    $('posfields').replaceChildren();
    $('exported').hidden = true;
    show();
  } catch (e) {
    $('posinput').value = text;
    $('posinput').classList.add('bad');
    $('poserror').textContent = e.message;
    showFields(text, e.field);
    if (!st.root) draw(svg, { game: 'giuthi', n: 5, pits: Array(10).fill(0), turn: 'S', captured: { south: 0, north: 0 } });
  }
}

// The position's fields under the input, the one the parser names marked (N1: game and
// variant, board, turn, captured, and Kiothi's phase).
const FIELD_TOKEN = { game: 0, variant: 0, board: 1, turn: 2, captured: 3, stores: 3, prisons: 3, phase: 4 };
function showFields(text, field) {
  const box = $('posfields');
  box.replaceChildren();
  const at = FIELD_TOKEN[field];
  text.split(' ').forEach((tok, i) => {
    const sp = document.createElement('span');
    sp.textContent = tok || '∅';
    if (i === at) { sp.className = 'bad'; sp.title = `field ${field}`; sp.dataset.field = field; }
    box.append(sp, ' ');
  });
  if (at === undefined || at >= text.split(' ').length) {
    const sp = document.createElement('span');
    sp.className = 'bad'; sp.dataset.field = field || 'position';
    sp.textContent = `⟵ field ${field || 'position'}`;
    box.append(sp);
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
  if (rep !== null) status += ` This position already occurred (${rep === 0 ? 'the start' : 'after move ' + rep} of this line): under ${v.game === 'kiothi' ? 'K11' : 'G10'} the game ends here as a draw.`;
  $('status').textContent = status;
  showChoices();
  showMoveList();
  $('back').disabled = !st.cur.parent;
  $('forward').disabled = !st.cur.next;
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
    // A move already in the tree is followed; a new one is a new branch (a variation
    // when the node has a continuation already, else the continuation).
    let next = nd.children.find((c) => c.move === r.move);
    if (!next) { next = mkNode(r.position, r.move, r.trace, nd); nd.children.push(next); }
    nd.next = next;
    st.cur = next;
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
    $('back').disabled = !st.cur.parent;
    $('forward').disabled = !st.cur.next;
    return startSolve();
  }
  drawAll();
}

// ---------------------------------------------------------------- move list

// The ply of the earlier position of this line that `nd` repeats (G10, K11), or null.
function repeatsAt(nd) {
  const path = pathTo(nd);
  const key = nd.view.key;
  for (let j = 0; j < path.length - 1; j++) if (path[j].view.key === key) return j;
  return null;
}

// The move list as a tree, as lichess shows it: the main line, and after a move that
// has alternatives, each variation in parentheses on its own indented line; a click on
// any move goes there.
function showMoveList() {
  const box = $('movelist');
  box.replaceChildren();
  const onLine = new Set(currentLine());
  const moveEl = (nd) => {
    const ply = pathTo(nd).length - 1;
    const sp = document.createElement('span');
    sp.className = 'mvl' + (nd === st.cur ? ' cur' : '') + (onLine.has(nd) ? ' line' : '');
    sp.dataset.move = nd.move;
    sp.dataset.ply = ply;
    sp.textContent = `${ply}. ${nd.parent.view.turn} ${nd.move}`;
    if (nd.trace && !nd.trace.turn_passes) sp.textContent += ' +';
    const rep = repeatsAt(nd);
    if (rep !== null) {
      const r = document.createElement('span'); r.className = 'rep';
      r.textContent = ` = repeats ${rep === 0 ? 'the start' : 'ply ' + rep}: draw (${nd.view.game === 'kiothi' ? 'K11' : 'G10'})`;
      sp.appendChild(r);
      sp.classList.add('repeated');
    }
    sp.title = rep !== null ? 'the position repeats: the game ends here as a draw' : `go to the position after ${nd.move}`;
    sp.addEventListener('click', () => goTo(nd));
    return sp;
  };
  const line = (container, from) => {
    for (let n = from; n.children.length; n = n.children[0]) {
      container.append(moveEl(n.children[0]), ' ');
      for (const alt of n.children.slice(1)) {
        const v = document.createElement('div');
        v.className = 'variation';
        v.append('( ', moveEl(alt), ' ');
        line(v, alt);
        v.append(')');
        container.appendChild(v);
      }
    }
  };
  if (st.root) line(box, st.root);
  if (!box.childNodes.length) box.textContent = 'No moves yet.';
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
  $('stop').disabled = true;
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
// A bound (lo, hi) as the API writes it: a number, or "-inf"/"+inf"; shown as `giuthi
// solve` prints it (+3, +0, -2, +inf).
const score = (v) => (typeof v === 'string' ? v : v >= 0 ? `+${v}` : `${v}`);

function renderAnswer(j) {
  const a = j.answer || {};
  const v = node().view;
  if (j.state === 'running') {
    const p = j.progress;
    $('progress').textContent = `solving… ${p ? `lo ∈ [${score(p.lo[0])}, ${score(p.lo[1])}], hi ∈ [${score(p.hi[0])}, ${score(p.hi[1])}]` : ''} · ${(j.nodes || 0).toLocaleString()} nodes · ${j.seconds.toFixed(1)} s${a.tables ? ' · tablebases' : ''}${a.moves && a.margin === undefined ? ' · every move proven, settling lo and hi' : ''}`;
  } else if (j.state === 'done') {
    const work = a.retro_states !== undefined
      ? ` by the retrograde pass over ${a.retro_states.toLocaleString()} states`
      : j.nodes ? ` in ${j.nodes.toLocaleString()} nodes` : '';
    $('progress').textContent = `solved exactly${work}${j.seconds !== undefined ? `, ${j.seconds.toFixed(2)} s` : ''}${a.tables ? ' (with tablebases)' : ''}.`;
  } else {
    const lo = a.lo_range, hi = a.hi_range;
    $('progress').innerHTML = '';
    const s = document.createElement('span'); s.className = 'unproven';
    s.textContent = `Stopped by ${j.stopped_by || 'the search'}: not solved. ${a.error ? a.error + '. ' : ''}${lo ? `Proven so far: lo ∈ [${score(lo[0])}, ${score(lo[1])}], hi ∈ [${score(hi[0])}, ${score(hi[1])}].` : ''}${a.heuristic && !a.moves ? ' The move values below are heuristic, not proven.' : ''}`;
    $('progress').appendChild(s);
  }
  const sum = $('summary');
  sum.replaceChildren();
  if (a.margin !== undefined) {
    const big = document.createElement('div'); big.className = 'big ' + a.result;
    big.textContent = `${fmt(a.margin)} — ${sideName(v.turn)} ${a.result === 'win' ? 'wins' : a.result === 'loss' ? 'loses' : 'draws'}${a.margin ? ` by ${Math.abs(a.margin)}` : ''}`;
    const b = document.createElement('div');
    b.textContent = `lo ${score(a.lo)}, hi ${score(a.hi)} · best: ${a.best.join(', ') || '—'}`;
    const note = document.createElement('div'); note.className = 'note'; note.textContent = a.repetition;
    const pv = document.createElement('div'); pv.className = 'pv'; pv.textContent = `PV: ${a.pv.join(' ') || '—'}`;
    sum.append(big, b, note, pv);
  } else if (a.heuristic && !a.moves) {
    const h = a.heuristic;
    const big = document.createElement('div'); big.className = 'big heuristic';
    big.textContent = h.exact ? `${fmt(h.margin)} (proven by the search)` : `≈ ${fmtEval(h.eval)} seeds for ${sideName(v.turn)}`;
    const b = document.createElement('div'); b.className = 'unproven';
    b.textContent = `${h.label}: the engine's evaluation at depth ${h.depth}; exact values replace it when the solver proves them.`;
    const pv = document.createElement('div'); pv.className = 'pv'; pv.textContent = `line: ${h.pv.join(' ') || '—'}`;
    sum.append(big, b, pv);
  } else if (a.moves) {
    const best = Math.max(...a.moves.map((m) => m.margin));
    const big = document.createElement('div'); big.className = 'big ' + (best > 0 ? 'win' : best < 0 ? 'loss' : 'draw');
    big.textContent = `${fmt(best)} — every move proven; lo and hi not yet`;
    sum.append(big);
  }
  const box = $('values');
  // Rebuild the list only when it changes (a poll every 250 ms must not break a hover).
  const sig = node().text + JSON.stringify(a.moves || null) + (a.moves ? '' : JSON.stringify(a.heuristic || null));
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.replaceChildren();
  if (!a.moves && a.heuristic) return renderHeuristic(box, a.heuristic, v);
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

const fmtEval = (e) => (e > 0 ? '+' : e < 0 ? '−' : '±') + Math.abs(e).toFixed(2);

// The anytime engine's values of every move, until the exact ones come: clearly marked
// "heuristic, not proven" (their own colour, an eval in seeds, the depth); a move the
// search proved shows its exact margin.
function renderHeuristic(box, h, v) {
  const g = document.createElement('div'); g.className = 'group heuristic';
  const t = document.createElement('h3');
  t.textContent = `${h.label} · depth ${h.depth}`;
  t.title = 'estimates of the final margin in seeds by the heuristic search (src/anytime), not proven';
  g.appendChild(t);
  const key = (m) => (m.exact ? m.margin : m.eval);
  for (const m of h.moves.slice().sort((x, y) => key(y) - key(x))) {
    const row = document.createElement('div');
    row.className = 'mv ' + (m.exact ? 'proven ' + (m.margin > 0 ? 'win' : m.margin < 0 ? 'loss' : 'draw') : 'unproven-mv') + (m.move === h.best ? ' hbest' : '');
    row.dataset.move = m.move;
    row.dataset.exact = m.exact ? 'true' : 'false';
    const nm = document.createElement('span'); nm.className = 'name'; nm.textContent = m.move;
    const val = document.createElement('span'); val.className = 'val';
    val.textContent = m.exact ? `${fmt(m.margin)} proven` : `≈${fmtEval(m.eval)}`;
    row.append(nm, val);
    row.title = m.exact
      ? `${m.move}: exact final margin ${fmt(m.margin)} for ${sideName(v.turn)}, proven by the search`
      : `${m.move}: heuristic estimate ${fmtEval(m.eval)} seeds at depth ${h.depth} — not proven`;
    row.addEventListener('mouseenter', () => preview(m.move));
    row.addEventListener('mouseleave', () => preview(null));
    row.addEventListener('click', () => playMove(m.move));
    g.appendChild(row);
  }
  box.appendChild(g);
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
  $('ed-phase').value = (v.extra && v.extra.phase) || 'play';
  $('ed-mode').value = '';
  for (const k of document.querySelectorAll('#editor .kio')) k.hidden = v.game !== 'kiothi';
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
  if (game === 'kiothi') t += ` ${$('ed-phase').value}`;
  return t;
}

async function editCheck() {
  const t = editText();
  $('posinput').value = t;
  try {
    const view = await api.position(t);
    if (editText() === t) markField(null, '');
    return view;
  } catch (e) {
    if (editText() === t) markField(e.field, e.message);
    return null;
  }
}

// The editor's inputs for each field the parser names (N1, N3).
const FIELD_INPUTS = {
  game: ['ed-game'], variant: ['ed-variant'], board: ['board', 'ed-n'], turn: ['ed-turn'],
  captured: ['ed-cs', 'ed-cn'], stores: ['ed-cs', 'ed-cn'], prisons: ['ed-cs', 'ed-cn'],
  phase: ['ed-phase'],
};

// Highlights the input of `field` and shows `message` beside it (and under the editor);
// `null` clears.
function markField(field, message) {
  for (const x of document.querySelectorAll('#editor .bad, #board.bad, #board .badpit')) x.classList.remove('bad', 'badpit');
  for (const x of document.querySelectorAll('.fielderr')) x.remove();
  $('ed-error').textContent = message;
  $('ed-error').dataset.field = field || '';
  if (!field) return;
  const ids = FIELD_INPUTS[field] || [];
  ids.forEach((id) => $(id).classList.add('bad'));
  const pit = field === 'board' && message.match(/pit (\d+)/);
  if (pit) svg.querySelector(`g.pit[data-pit="${pit[1]}"]`)?.classList.add('badpit');
  const first = ids.length ? $(ids[0]) : null;
  const msg = document.createElement('div');
  msg.className = 'fielderr error';
  msg.dataset.field = field;
  msg.textContent = message;
  if (first && first.id === 'board') $('boardbox').after(msg);
  else if (first) first.closest('label').after(msg);
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
  const mark = $('ed-mode').value;
  if (mark && m.game === 'kiothi') {
    if (!m.marks) m.marks = Array(2 * m.n).fill('');
    const has = m.marks[p].includes(mark);
    const set = new Set(m.marks[p]);
    if (has) set.delete(mark); else set.add(mark);
    m.marks[p] = ['n', 's'].filter((c) => set.has(c)).join('');
  } else {
    m.pits[p] = Math.max(0, m.pits[p] + (e.shiftKey ? -1 : 1));
  }
  editDraw();
}

function editResize() {
  const m = st.editing;
  const n = Math.max(2, Math.min(16, Number($('ed-n').value) || m.n));
  const pits = Array(2 * n).fill(0);
  for (let i = 0; i < Math.min(n, m.n); i++) { pits[i] = m.pits[i]; pits[n + i] = m.pits[m.n + i]; }
  m.n = n; m.pits = pits; m.marks = null;
  m.game = $('ed-game').value;
  for (const k of document.querySelectorAll('#editor .kio')) k.hidden = m.game !== 'kiothi';
  editDraw();
}

async function editDone() {
  const view = await editCheck();
  if (!view) return;
  st.editing = null;
  $('editor').hidden = true;
  $('edit').textContent = 'Edit board';
  st.root = mkNode(view);
  st.cur = st.root;
  show();
}

// ---------------------------------------------------------------- export

function exportLine() {
  const ln = currentLine();
  const lines = [`# a line from the analysis board: ${ln.slice(1).map((n) => n.move).join(' ') || '(no moves)'}`];
  ln.forEach((nd, i) => {
    if (i > 0) lines.push(`# after ${nd.move}`);
    const a = st.answers.get(nd.text);
    lines.push(a && a.margin !== undefined
      ? `${nd.text} | lo=${score(a.lo)} hi=${score(a.hi)} margin=${a.margin >= 0 ? '+' + a.margin : a.margin} result=${a.result} best=${a.best.join(',')}`
      : nd.text);
  });
  const ta = $('exported');
  ta.hidden = false;
  ta.value = lines.join('\n') + '\n';
  ta.select();
}

// ---------------------------------------------------------------- wiring

$('posform').addEventListener('submit', (e) => { e.preventDefault(); open($('posinput').value.trim()); });
$('back').addEventListener('click', () => {
  if (st.cur.parent) { st.cur.parent.next = st.cur; goTo(st.cur.parent); }
});
$('forward').addEventListener('click', () => {
  if (st.cur.next) {
    stopAnim(); const before = node().view; st.cur = st.cur.next; st.sel = null;
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
for (const id of ['ed-turn', 'ed-cs', 'ed-cn', 'ed-variant', 'ed-phase']) $(id).addEventListener('input', editDraw);
for (const id of ['ed-n', 'ed-game']) $(id).addEventListener('change', editResize);
$('export').addEventListener('click', exportLine);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
  const undo = (e.ctrlKey || e.metaKey) && e.key === 'z', redo = (e.ctrlKey || e.metaKey) && e.key === 'y';
  if (e.key === 'ArrowLeft' || undo) $('back').click();
  if (e.key === 'ArrowRight' || redo) $('forward').click();
});
window.addEventListener('hashchange', () => {
  const t = hashPosition();
  if (t && (!st.root || t !== node().text)) open(t, { fromHash: true });
});

open(hashPosition() || 'giuthi 1,0,0,0/1,3,0,0 S 0,2', { fromHash: true });
