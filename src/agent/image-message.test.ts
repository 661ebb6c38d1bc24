import { describe, expect, it } from 'vitest';
import { composeImageMessage, type AttachedImage } from './image-message.js';

const png: AttachedImage = { source: 'shot.png', image: { mediaType: 'image/png', data: Buffer.from([0x89, 0x50]) } };
const gif: AttachedImage = { source: 'https://x.test/a.gif', image: { mediaType: 'image/gif', data: Buffer.from('GIF89a') } };

describe('composeImageMessage', () => {
  it('keeps a message without images as text', async () => {
    const describe = () => Promise.reject(new Error('not called'));
    expect(await composeImageMessage('hi', [], { mainTakesImages: false, mainLabel: 'm', describe })).toEqual({ ok: true, content: 'hi', notes: [] });
  });

  it('sends the images as parts to a main model that takes them', async () => {
    const describe = () => Promise.reject(new Error('not called'));
    expect(await composeImageMessage('what is this?', [png, gif], { mainTakesImages: true, mainLabel: 'm', describe })).toEqual({
      ok: true,
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', mediaType: 'image/png', data: 'iVA=' },
        { type: 'image', mediaType: 'image/gif', data: 'R0lGODlh' },
      ],
      notes: [],
    });
  });

  it('adds the vision slot\'s descriptions as text for a main model that does not, and says so', async () => {
    const asked: string[] = [];
    const result = await composeImageMessage('what is this?', [png, gif], {
      mainTakesImages: false,
      mainLabel: 'openai · main-m',
      describe: async (question, image) => {
        asked.push(`${image.mediaType}: ${question}`);
        return { ok: true, text: ` a ${image.mediaType} picture \n` };
      },
    });
    expect(result).toEqual({
      ok: true,
      content:
        'what is this?\n\n[image 1 (shot.png), described by the vision model]\na image/png picture\n\n' +
        '[image 2 (https://x.test/a.gif), described by the vision model]\na image/gif picture',
      notes: [
        "image shot.png: openai · main-m does not take images; the vision slot's description was added to the message",
        "image https://x.test/a.gif: openai · main-m does not take images; the vision slot's description was added to the message",
      ],
    });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^image\/png: The user sent this image .*\n\nMessage: what is this\?$/s);
  });

  it('fails rather than dropping an image the vision slot cannot describe', async () => {
    const result = await composeImageMessage('q', [png], { mainTakesImages: false, mainLabel: 'm', describe: async () => ({ ok: false, error: 'timeout' }) });
    expect(result).toEqual({ ok: false, error: 'image shot.png: the vision slot could not describe it: timeout' });
  });
});
