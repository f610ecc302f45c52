// What a viewer embedded on a shop page does: send its visitors' events to the tracking endpoint
// of the service (another origin) with fetch and with navigator.sendBeacon, and ask for a
// regeneration with a Bearer token or with the beacon form (the token in the body).

let counter = 0;

// A batch as the page would build it: its own ids and timestamps (epoch ms), a few event kinds.
function batch(sessionId, n) {
  const events = [];
  const kinds = [
    () => ({key: 'viewer_loaded', payload: {loadTimeMs: Math.round(performance.now() * 10) / 10, device: 'desktop',
                                             referrer: document.location.origin}}),
    () => ({key: 'interaction_start', payload: {kind: 'rotate'}}),
    () => ({key: 'hotspot_opened', payload: {hotspotId: 'hs-' + counter}}),
    () => ({key: 'heartbeat', payload: {visible: document.visibilityState === 'visible'}}),
    () => ({key: 'custom.color_swatch', payload: {color: '#C0392B', index: counter}}),
  ];
  for (let i = 0; i < n; i++) {
    counter += 1;
    const e = kinds[i % kinds.length]();
    e.id = `${sessionId}-${counter}`;
    e.timestamp = Date.now() - 1000 + i;
    events.push(e);
  }
  return {sessionId, events};
}

async function sendByFetch(url, sessionId, n) {
  const body = batch(sessionId, n);
  const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
  return {sent: body, status: r.status, answer: await r.json(), requestId: r.headers.get('X-Request-Id')};
}

function sendByBeacon(url, sessionId, n) {
  const body = batch(sessionId, n);
  // A string body goes as text/plain: a simple request, no preflight, as the contract allows.
  return {sent: body, queued: navigator.sendBeacon(url, JSON.stringify(body))};
}

async function regenerateByFetch(url, token) {
  const r = await fetch(url, {method: 'POST', headers: {'Authorization': 'Bearer ' + token}});
  return {status: r.status, answer: await r.json()};
}

function regenerateByBeacon(url, token) {
  return {queued: navigator.sendBeacon(url, new URLSearchParams({access_token: token}))};
}

// What a page can read of an error: the envelope and the request id (exposed headers).
async function readError(url) {
  const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"sessionId": "s"}'});
  return {status: r.status, answer: await r.json(), requestId: r.headers.get('X-Request-Id')};
}

window.workbench = {sendByFetch, sendByBeacon, regenerateByFetch, regenerateByBeacon, readError};
window.pageReady = true;
