import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../src/runtime/api';

/** A server whose `/slow` answers after `ms`; `started` resolves when a slow request arrives. */
async function slowServer(ms: number) {
  let arrived: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') {
      arrived();
      setTimeout(() => res.end('done'), ms);
    } else {
      res.end('fast');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, started, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('API shutdown', () => {
  it('a request in flight when the stop begins still gets its answer, and idle keep-alive sockets do not hold the stop', async () => {
    const { server, started, url } = await slowServer(300);
    await fetch(`${url}/fast`).then((r) => r.text()); // leaves an idle keep-alive socket behind
    const inFlight = fetch(`${url}/slow`).then((r) => r.text());
    await started;
    const begun = Date.now();
    const { forced } = await closeServer(server, 5_000);
    assert.equal(forced, false);
    assert.equal(await inFlight, 'done');
    assert.ok(Date.now() - begun < 2_000, `closing waited ${Date.now() - begun} ms`);
  });

  it('a request still running after the drain bound is cut off and the stop completes', async () => {
    const { server, started, url } = await slowServer(30_000);
    const inFlight = fetch(`${url}/slow`)
      .then((r) => r.text())
      .then(
        () => 'answered',
        () => 'cut off',
      );
    await started;
    const begun = Date.now();
    const { forced } = await closeServer(server, 200);
    assert.equal(forced, true);
    assert.equal(await inFlight, 'cut off');
    assert.ok(Date.now() - begun < 2_000);
  });

  it('no new connection is accepted once the stop begins', async () => {
    const { server, started, url } = await slowServer(500);
    const inFlight = fetch(`${url}/slow`).then((r) => r.text());
    await started;
    const closing = closeServer(server, 5_000);
    await assert.rejects(fetch(`${url}/fast`, { headers: { connection: 'close' } }));
    assert.equal(await inFlight, 'done');
    await closing;
  });
});
