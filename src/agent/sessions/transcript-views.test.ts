import { describe, expect, it } from 'vitest';
import type { Message } from '../../domain/messages.js';
import type { SessionSummary } from '../../store/types.js';
import { localMinute } from './listing.js';
import { transcriptJson, transcriptMarkdown, transcriptText } from './transcript-views.js';

const session: SessionSummary = {
  id: 's_0123456789ab',
  source: 'cli',
  title: 'Fix the build',
  provider: 'openai',
  model: 'gpt-5',
  status: 'idle',
  createdAt: Date.UTC(2026, 10, 23, 11, 0, 0),
  updatedAt: Date.UTC(2026, 10, 23, 11, 5, 0),
  messageCount: 5,
};

const messages: readonly Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }, { type: 'image_url', url: 'https://x.test/a.png' }] },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.md' } }, { id: 'c2', name: 'run_command', arguments: {}, invalidArguments: '{"command": "ls' }] },
  { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'line one\n```js\nx\n```\nline five' },
  { role: 'tool', toolCallId: 'c2', name: 'run_command', content: 'the arguments were not a JSON object', isError: true },
  { role: 'assistant', content: 'It is a picture.' },
];

describe('transcriptText', () => {
  it('shows every message, tool calls and results in short form', () => {
    expect(transcriptText(session, messages)).toBe(
      [
        'session s_0123456789ab — Fix the build',
        '  cli · openai · gpt-5 · idle · 5 messages',
        `  created ${localMinute(session.createdAt)} · last active ${localMinute(session.updatedAt)}`,
        '',
        'user: what is this?\n[image: image/png, 3 bytes]\n[image: https://x.test/a.png]',
        '',
        '  → read_file {"path":"a.md"}',
        '  → run_command {"command": "ls',
        '',
        '  ← read_file: line one (5 lines)',
        '',
        '  ✗ run_command: the arguments were not a JSON object',
        '',
        'assistant: It is a picture.',
      ].join('\n'),
    );
  });

  it('says when there is nothing yet', () => {
    expect(transcriptText({ ...session, title: null, messageCount: 1 }, []).split('\n').slice(0, 2)).toEqual(['session s_0123456789ab', '  cli · openai · gpt-5 · idle · 1 message']);
    expect(transcriptText(session, []).endsWith('\n\n(no messages yet)')).toBe(true);
  });
});

describe('transcriptMarkdown', () => {
  it('writes metadata, then every message in full, fencing content so it cannot close the fence', () => {
    expect(transcriptMarkdown(session, messages)).toBe(
      [
        '# Fix the build',
        '',
        '- id: `s_0123456789ab`',
        '- source: cli',
        '- model: openai · gpt-5',
        '- status: idle',
        '- created: 2026-11-23T11:00:00.000Z',
        '- last active: 2026-11-23T11:05:00.000Z',
        '- messages: 5',
        '',
        '## User',
        '',
        'what is this?\n[image: image/png, 3 bytes]\n[image: https://x.test/a.png]',
        '',
        '## Assistant',
        '',
        'Tool call `read_file` (id `c1`):',
        '',
        '```json\n{\n  "path": "a.md"\n}\n```',
        '',
        'Tool call `run_command` (id `c2`):',
        '',
        '```\n{"command": "ls\n```',
        '',
        '## Tool result: read_file',
        '',
        '````\nline one\n```js\nx\n```\nline five\n````',
        '',
        '## Tool result: run_command (error)',
        '',
        '```\nthe arguments were not a JSON object\n```',
        '',
        '## Assistant',
        '',
        'It is a picture.',
        '',
      ].join('\n'),
    );
  });

  it('titles an untitled session by its id', () => {
    expect(transcriptMarkdown({ ...session, title: null }, []).split('\n')[0]).toBe('# Session s_0123456789ab');
  });
});

describe('transcriptJson', () => {
  it('is the listed row and the messages as stored', () => {
    const json = transcriptJson(session, messages);
    expect(json.messages).toBe(messages);
    expect(json.session).toMatchObject({ id: session.id, messages: 5, created_at: '2026-11-23T11:00:00.000Z' });
  });
});
