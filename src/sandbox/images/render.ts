import { createHash } from 'node:crypto';
import sharp from 'sharp';

export type OutputFormat = 'png' | 'jpeg' | 'webp';

export interface RenderInput {
  prompt: string;
  width: number;
  height: number;
  model: string;
  format: OutputFormat;
  /** How many reference images came with the request (edits); shown on the image. */
  references: number;
  /** Which of the request's n images this is: the same prompt still gives n different images. */
  index: number;
}

/**
 * A real image for a prompt: a background colour and a few shapes derived from a hash of the prompt, with the
 * prompt's first words written on it, so two prompts give different bytes and a person looking at a sandbox
 * article sees which prompt made which image.
 */
export async function renderImage(input: RenderInput): Promise<Buffer> {
  const hash = createHash('sha256').update(`${input.index}\n${input.prompt}`).digest();
  const hue = ((hash[0] << 8) | hash[1]) % 360;
  const background = hslHex(hue, 45, 38);
  const { width: w, height: h } = input;
  const shapes = [0, 1, 2]
    .map((i) => {
      const cx = Math.round((hash[2 + i] / 255) * w);
      const cy = Math.round((hash[5 + i] / 255) * h);
      const r = Math.round(((hash[8 + i] / 255) * 0.25 + 0.1) * Math.min(w, h));
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${hslHex((hue + 40 * (i + 1)) % 360, 55, 55)}" fill-opacity="0.55"/>`;
    })
    .join('');
  const fontSize = Math.round(Math.min(w, h) / 22);
  const lines = wrap(input.prompt, Math.max(16, Math.floor((w * 0.85) / (fontSize * 0.55)))).slice(0, 6);
  const text = lines
    .map((line, i) => `<text x="${Math.round(w * 0.06)}" y="${Math.round(h * 0.12) + i * fontSize * 1.3}">${escapeXml(line)}</text>`)
    .join('');
  const footer = `simulated · ${input.model} · ${w}x${h}${input.references ? ` · ${input.references} reference image(s)` : ''}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${shapes}` +
    `<g font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#ffffff">${text}</g>` +
    `<text x="${Math.round(w * 0.06)}" y="${h - Math.round(fontSize)}" font-family="DejaVu Sans, sans-serif" ` +
    `font-size="${Math.round(fontSize * 0.6)}" fill="#ffffff" fill-opacity="0.8">${escapeXml(footer)}</text></svg>`;
  const image = sharp({ create: { width: w, height: h, channels: 3, background } }).composite([{ input: Buffer.from(svg) }]);
  return input.format === 'jpeg' ? image.jpeg().toBuffer() : input.format === 'webp' ? image.webp().toBuffer() : image.png().toBuffer();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (next.length > width && line) {
      lines.push(line);
      line = word.slice(0, width);
    } else line = next.slice(0, width);
  }
  if (line) lines.push(line);
  return lines;
}

function escapeXml(text: string): string {
  // Control characters are not allowed in XML 1.0 at all: librsvg would refuse the whole overlay.
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' ');
  return clean.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function hslHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
