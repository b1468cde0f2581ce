import assert from 'node:assert/strict';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { firstBlockedDirectory } from '../../src/dev/reachable';

describe('the postgres user reaches its binaries and data only through directories it may enter', () => {
  const someoneElse = { uid: 54_321, gid: 54_321 };
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'wy-reach-'));
    await chmod(root, 0o755);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('names a 0700 directory above the target (a checkout or DATA_DIR in /root or a mktemp -d)', async () => {
    const closed = path.join(root, 'closed');
    await mkdir(path.join(closed, 'checkout/node_modules'), { recursive: true, mode: 0o755 });
    await chmod(closed, 0o700);
    assert.equal(firstBlockedDirectory(path.join(closed, 'checkout/node_modules/native/bin'), someoneElse), closed);
    assert.equal(firstBlockedDirectory(path.join(closed, 'not-yet/postgres'), someoneElse), closed);
  });

  it('lets through directories others may enter, and paths below the deepest existing one', async () => {
    const open = path.join(root, 'open');
    await mkdir(path.join(open, 'data'), { recursive: true, mode: 0o755 });
    await chmod(open, 0o711);
    assert.equal(firstBlockedDirectory(path.join(open, 'data/postgres'), someoneElse), undefined);
    assert.equal(firstBlockedDirectory(path.join(open, 'data/new/deeper/postgres'), someoneElse), undefined);
  });

  it('uses the owner bits for the owner and the group bits for the group, not the other bits', async () => {
    const own = path.join(root, 'own');
    await mkdir(own, { mode: 0o700 });
    // Root may enter anything; as root, hand the directory to a plain user to test the bits.
    const asRoot = process.getuid!() === 0;
    const owner = asRoot ? someoneElse : { uid: process.getuid!(), gid: process.getgid!() };
    if (asRoot) await chown(own, owner.uid, owner.gid);
    await chmod(own, 0o701);
    const mine = { uid: owner.uid, gid: 99_999 };
    const ownerless = { uid: 99_998, gid: owner.gid };
    assert.equal(firstBlockedDirectory(path.join(own, 'x'), mine), undefined, 'the owner may enter a 0701 directory');
    await chmod(own, 0o071);
    assert.equal(firstBlockedDirectory(path.join(own, 'x'), mine), own, 'the owner bits, not the other bits, apply to the owner');
    assert.equal(firstBlockedDirectory(path.join(own, 'x'), ownerless), undefined, 'the group may enter a 0071 directory');
    await chmod(own, 0o701);
    assert.equal(firstBlockedDirectory(path.join(own, 'x'), ownerless), own, 'the group bits, not the other bits, apply to the group');
  });
});
