// The JSON API of `giuthi serve` (docs/serve.md). Every call resolves to the parsed
// answer or rejects with an Error whose `field` names the field at fault.

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const r = await fetch(url, init);
  let data;
  try { data = await r.json(); } catch (_) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) {
    const e = new Error(data.error || `HTTP ${r.status}`);
    e.field = data.field;
    e.status = r.status;
    throw e;
  }
  return data;
}

export const position = (text) => call('POST', '/api/position', { position: text });
export const play = (text, move) => call('POST', '/api/play', { position: text, move });
export const solve = (text, client) => call('POST', '/api/solve', { position: text, client });
export const poll = (job) => call('GET', `/api/solve/${job}`);
export const stop = (job) => call('POST', `/api/solve/${job}/stop`);
