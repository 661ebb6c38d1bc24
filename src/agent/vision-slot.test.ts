import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { buildVisionRequest, visionDownloadTimeoutMs } from './vision-slot.js';

describe('buildVisionRequest', () => {
  it('is one user message: the question, then the image as base64', () => {
    const request = buildVisionRequest('what is it?', { mediaType: 'image/jpeg', data: Buffer.from([0xff, 0xd8, 0xff]) });
    expect(request).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image', mediaType: 'image/jpeg', data: '/9j/' }] }],
      maxOutputTokens: 1500,
    });
  });
});

describe('visionDownloadTimeoutMs', () => {
  it('reads auxiliary.vision.download_timeout in seconds, 30 by default', () => {
    expect(visionDownloadTimeoutMs(configSchema.parse({}))).toBe(30_000);
    expect(visionDownloadTimeoutMs(configSchema.parse({ auxiliary: { vision: { download_timeout: 5 } } }))).toBe(5000);
  });
});
