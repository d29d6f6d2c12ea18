// The board as South sees it (RULES.md geometry): North's row reversed on top, South's
// row left to right below, pit numbers under each pit; Kalah stores and Kiothi prisons at
// the ends. Also the seed-by-seed animator of a sowing trace.

const NS = 'http://www.w3.org/2000/svg';
const STEP = 84, R = 33, TOP = 92, BOT = 200;

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function hasStores(game) { return game === 'kalah' || game === 'kiothi'; }

// Centre of pit p on a board of n pits a row.
export function pitXY(p, n, game) {
  const left = hasStores(game) ? 96 : 24;
  if (p < n) return [left + (n - 1 - p) * STEP + STEP / 2, TOP];
  return [left + (p - n) * STEP + STEP / 2, BOT];
}

// Draws `model` ({game, n, pits, marks, captured, turn}) into `svg`.
// deco: {mine: Set, sel, hot: Set, lift, drop, cap: Set, preview, hand, store}
// on: {pit(p, event)}
export function draw(svg, model, deco = {}, on = {}) {
  const { n, game } = model;
  const stores = hasStores(game);
  const left = stores ? 96 : 24;
  const width = left * 2 + n * STEP;
  svg.setAttribute('viewBox', `0 0 ${width} 292`);
  svg.style.maxWidth = `${Math.round(width * 1.1)}px`;
  svg.replaceChildren();
  el('rect', { x: 4, y: 40, width: width - 8, height: 212, rx: 26, fill: 'var(--wood)', stroke: 'var(--wood2)', 'stroke-width': 4 }, svg);
  const tm = model.turn;
  const taken = game === 'kalah' ? 'store' : game === 'kiothi' ? 'prison' : 'captured';
  const lbl = (side, y, name) => {
    const t = el('text', { x: 14, y, class: 'side-label' + (tm === side ? ' tomove' : '') }, svg);
    const c = side === 'S' ? model.captured.south : model.captured.north;
    t.textContent = `${name}${tm === side ? ' — to move' : ''}   ·   ${taken}: ${c}`;
  };
  lbl('N', 28, 'North');
  lbl('S', 282, 'South');
  if (stores) {
    for (const [side, x] of [['N', 12], ['S', width - 84]]) {
      const g = el('g', { class: 'store' + (deco.store === side ? ' drop' : '') }, svg);
      el('rect', { x, y: 60, width: 72, height: 172, rx: 30, ...(deco.store === side ? { stroke: '#ffd000', 'stroke-width': 5 } : {}) }, g);
      const t = el('text', { x: x + 36, y: 146 }, g);
      t.textContent = side === 'S' ? model.captured.south : model.captured.north;
      // Whose store or prison this is: South's on the right, North's on the left.
      const owner = el('text', { class: 'store-label', x: x + 36, y: 84 }, g);
      owner.textContent = side === 'S' ? 'South' : 'North';
      const what = el('text', { class: 'store-label', x: x + 36, y: 100 }, g);
      what.textContent = taken;
    }
  }
  for (let p = 0; p < 2 * n; p++) {
    const [x, y] = pitXY(p, n, game);
    const cls = ['pit'];
    if (deco.mine && deco.mine.has(p)) cls.push('mine');
    if (deco.sel === p) cls.push('sel');
    if (deco.hot && deco.hot.has(p)) cls.push('hot');
    if (deco.lift === p) cls.push('lift');
    if (deco.drop === p) cls.push('drop');
    if (deco.cap && deco.cap.has(p)) cls.push('cap');
    if (deco.preview) cls.push('preview');
    const g = el('g', { class: cls.join(' '), 'data-pit': p }, svg);
    el('circle', { class: 'hole', cx: x, cy: y, r: R }, g);
    const v = model.pits[p];
    const dots = Math.min(v, 14);
    for (let i = 0; i < dots; i++) {
      const a = (i / Math.max(dots, 1)) * Math.PI * 2 - Math.PI / 2;
      const rr = 23;
      el('circle', { class: 'seed', cx: x + rr * Math.cos(a), cy: y + rr * Math.sin(a), r: 4.2 }, g);
    }
    const t = el('text', { class: 'count', x, y }, g);
    t.textContent = v;
    const mark = model.marks ? model.marks[p] : '';
    if (mark) {
      const m = el('text', { class: 'mark', x: x + R - 4, y: y - R + 8 }, g);
      m.textContent = mark;
    }
    const num = el('text', { class: 'num', x, y: p < n ? y - R - 6 : y + R + 15 }, g);
    num.textContent = p;
    if (on.pit) {
      g.addEventListener('click', (e) => on.pit(p, e));
      g.addEventListener('contextmenu', (e) => { e.preventDefault(); on.pit(p, { shiftKey: true, contextmenu: true }); });
    }
  }
  if (deco.hand) {
    const [x, y] = deco.hand;
    const t = el('text', { x, y: y + (y < 150 ? -R - 20 : R + 32), 'text-anchor': 'middle', 'font-weight': 'bold', fill: '#ff7a00' }, svg);
    t.textContent = deco.handText || '';
  }
}

// The events of a trace, in order: each applies to the model and says what happened.
export function events(trace, n) {
  const out = [];
  trace.laps.forEach((lap, i) => {
    out.push({ kind: 'lift', pit: lap.lift, seeds: lap.seeds, kept: lap.kept || 0, lap: i + 1, dir: lap.dir });
    lap.drops.forEach((d, j) => out.push({ kind: 'drop', to: d, left: lap.seeds - j - 1, lap: i + 1, dir: lap.dir }));
  });
  if (trace.finish !== 'endless') {
    for (const [p, s] of trace.captured_pits) out.push({ kind: 'capture', pit: p, seeds: s });
    if (trace.landing_taken !== null && trace.landing_taken !== undefined) out.push({ kind: 'landing', pit: trace.landing_taken });
    for (const [p, s] of trace.bonus_pits || []) out.push({ kind: 'bonus', pit: p, seeds: s });
  }
  out.push({ kind: 'finish' });
  return out;
}

const DIR = { cw: 'clockwise', ccw: 'counter-clockwise' };

export function finishText(trace, mover, game) {
  const who = mover === 'S' ? 'South' : 'North';
  if (game === 'kiothi') return kiothiFinish(trace, who);
  switch (trace.finish) {
    case 'opponent-row': return `The last seed fell into an empty pit of the opponent's row: the turn passes (G5a).`;
    case 'extra-move': return `The last seed fell into an empty pit of ${who}'s own row and no seed reached the other row: ${who} moves again (G5b).`;
    case 'capture': return trace.captured > 0
      ? `The last seed fell into an empty pit of ${who}'s row after crossing: ${who} captures ${trace.captured} seed(s) — the opposite pit${trace.captured_pits.length > 1 ? ' and the chain' : ''} with the landing seed (G5c, G6).`
      : `The last seed fell into an empty pit of ${who}'s row, but the opposite pit is empty: nothing is captured, the turn passes (G5c).`;
    case 'endless': return `This sowing never ends (G7): a relay state repeats, so the move is not allowed. Only its first laps are shown.`;
    case 'store': return `The last seed fell into ${who}'s store: ${who} moves again (R2).`;
    default: return trace.captured_pits.length ? `Capture: the landing seed and the opposite pit go to ${who}'s store (R3).` : `The turn passes.`;
  }
}

function kiothiFinish(trace, who) {
  switch (trace.finish) {
    case 'opponent-row': return `The last warrior fell into an empty pit of the opponent's row: nothing is captured, the turn passes (K8).`;
    case 'capture': {
      const [[p, s]] = trace.captured_pits;
      const bonus = (trace.bonus_pits || []).length
        ? ` With the leftmost bonus (K9), pits ${trace.bonus_pits.map((x) => x[0]).join(', ')} go too.` : '';
      return `The last warrior fell into an empty pit of ${who}'s row opposite an occupied, unprotected pit: ${who} takes its ${s} warrior(s) from pit ${p} and the capturing warrior into the prison (K8).${bonus} ${trace.captured} in all.`;
    }
    case 'no-capture': return `The last warrior fell into an empty pit of ${who}'s row, but the opposite pit is empty or nki: nothing is captured (K8), the turn passes.`;
    case 'first-lap-own-row': return `The first lap ends in an occupied pit of ${who}'s own row: not allowed (K6).`;
    case 'endless': return `This sowing never ends (K11, as G7): not allowed. Only its first laps are shown.`;
    default: return '';
  }
}

// Plays a trace seed by seed on `svg`, starting from `model` (a copy is changed).
export class Animator {
  constructor(svg, model, trace, caption, speed, onDone) {
    this.svg = svg; this.model = JSON.parse(JSON.stringify(model)); this.trace = trace;
    this.caption = caption; this.speed = speed; this.onDone = onDone;
    this.ev = events(trace, model.n); this.i = 0; this.timer = null; this.paused = false;
    this.hand = 0; this.at = null;
    this.render({});
    this.caption.textContent = `${trace.mover === 'S' ? 'South' : 'North'} moves.`;
  }
  delay() { return Math.round(900 / this.speed()); }
  render(deco) { draw(this.svg, this.model, deco); }
  // Kiothi's marks (K12): a lift clears the pit's nki mark, a drop its stale mark.
  unmark(p, c) { const mk = this.model.marks; if (mk && mk[p]) mk[p] = mk[p].replace(c, ''); }
  apply(e) {
    const m = this.model;
    const mover = this.trace.mover === 'S' ? 'south' : 'north';
    const kio = m.game === 'kiothi';
    const unit = kio ? 'warrior' : 'seed';
    switch (e.kind) {
      case 'lift':
        m.pits[e.pit] = e.kept; this.hand = e.seeds; this.at = e.pit;
        if (kio) this.unmark(e.pit, 'n');
        this.caption.textContent = e.lap === 1
          ? `Lap 1: lift ${e.seeds} ${unit}s from pit ${e.pit}${e.kept ? ` (${e.kept} stay, K5)` : ''} and sow ${DIR[e.dir]}.`
          : kio
            ? `Lap ${e.lap}: the last warrior landed in an occupied pit, so the relay lifts its ${e.seeds} warriors from pit ${e.pit} and sows on, still ${DIR[e.dir]} (K7).`
            : `Lap ${e.lap}: the last seed landed in an occupied pit, so the relay lifts its ${e.seeds} seeds from pit ${e.pit} and sows on, reversing to ${DIR[e.dir]} (G4).`;
        return { lift: e.pit, hand: this.xy(e.pit), handText: `in hand: ${this.hand}` };
      case 'drop':
        this.hand = e.left;
        if (e.to === 'store') { m.captured[mover] += 1; return { store: this.trace.mover, handText: `in hand: ${this.hand}` }; }
        m.pits[e.to] += 1; this.at = e.to;
        if (kio) this.unmark(e.to, 's');
        return { drop: e.to, hand: this.xy(e.to), handText: this.hand ? `in hand: ${this.hand}` : '' };
      case 'bonus':
        m.pits[e.pit] = 0; m.captured[mover] += e.seeds;
        this.caption.textContent = `Leftmost bonus (K9): ${e.seeds} warrior(s) taken from pit ${e.pit}.`;
        return { cap: new Set([e.pit]) };
      case 'capture':
        m.pits[e.pit] = 0; m.captured[mover] += e.seeds;
        this.caption.textContent = `Capture: ${e.seeds} ${m.game === 'kiothi' ? 'warrior' : 'seed'}(s) taken from pit ${e.pit}.`;
        return { cap: new Set([e.pit]) };
      case 'landing':
        m.pits[e.pit] = 0; m.captured[mover] += 1;
        this.caption.textContent += ` The landing ${m.game === 'kiothi' ? 'warrior' : 'seed'} in pit ${e.pit} is taken too.`;
        return { cap: new Set([e.pit]) };
      default:
        this.caption.textContent = finishText(this.trace, this.trace.mover, m.game);
        return {};
    }
  }
  xy(p) { return pitXY(p, this.model.n, this.model.game); }
  tick() {
    if (this.i >= this.ev.length) return this.done();
    const e = this.ev[this.i++];
    this.render(this.apply(e));
    if (e.kind === 'finish') return this.done();
    if (!this.paused) this.timer = setTimeout(() => this.tick(), this.delay());
  }
  start() { this.timer = setTimeout(() => this.tick(), this.delay()); }
  step() { this.paused = true; clearTimeout(this.timer); this.tick(); }
  skip() {
    clearTimeout(this.timer); this.paused = true;
    while (this.i < this.ev.length) this.apply(this.ev[this.i++]);
    this.done();
  }
  done() {
    clearTimeout(this.timer);
    if (this.finished) return;
    this.finished = true;
    this.caption.textContent = finishText(this.trace, this.trace.mover, this.model.game);
    this.onDone();
  }
}
