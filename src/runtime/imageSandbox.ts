import type { Config } from '../config';
import { startImageSimulator, type ImageSimulator } from '../sandbox/images';

export interface ImageSandbox {
  /** IMAGE_API_URL and IMAGE_API_KEY of `config` pointed at the simulator. */
  configure(config: Config): Config;
  bannerLines(): string[];
  stop(): Promise<void>;
}

/** `start --sandbox`, images side: the OpenAI-compatible Images API simulated on loopback (real PNGs per prompt). */
export async function startImageSandbox(): Promise<ImageSandbox> {
  const images: ImageSimulator = await startImageSimulator({ apiKey: 'sk-sandbox-images-demo' });
  return {
    configure: (config) => ({ ...config, IMAGE_API_URL: images.url, IMAGE_API_KEY: images.apiKey }),
    bannerLines: () => [`Sandbox: image generation is simulated on loopback (OpenAI Images API, real PNGs per prompt): ${images.url}`],
    stop: () => images.stop(),
  };
}
