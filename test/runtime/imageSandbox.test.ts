import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config';
import { createImageClient } from '../../src/clients/providers/images';
import { startImageSandbox } from '../../src/runtime/imageSandbox';

describe('start --sandbox, images side', () => {
  it('points IMAGE_API_URL and IMAGE_API_KEY at the loopback simulator, names it in the banner, and a client generates through it', async () => {
    const sandbox = await startImageSandbox();
    try {
      const config = sandbox.configure(loadConfig({ IMAGE_API_KEY: '' }));
      assert.match(config.IMAGE_API_URL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      assert.ok(config.IMAGE_API_KEY);
      assert.ok(sandbox.bannerLines().some((line) => line.includes(config.IMAGE_API_URL) && /image generation/.test(line)));
      const image = await createImageClient(config)!.generate({ prompt: 'A sandbox picture', size: '1536x1024' });
      assert.deepEqual([image.mimeType, image.width, image.height], ['image/png', 1536, 1024]);
    } finally {
      await sandbox.stop();
    }
  });
});
