// The comment commands: every command word, mentions of the bot and look-alikes that are not, and
// what a comment makes the bot do before anyone's access is looked at.
import { describe, expect, it } from 'vitest';
import { BOT_MENTION, HELP_TEXT, TRUSTED_ASSOCIATIONS, parsePrCommand, readComment, refusalText, untrustedVerdict } from './pr-commands.js';
import type { PrComment } from './pr-event.js';

describe('parsePrCommand', () => {
  it.each([
    ['/review', { kind: 'review' }],
    ['/describe', { kind: 'describe' }],
    ['/pause', { kind: 'pause' }],
    ['/resume', { kind: 'resume' }],
    ['/help', { kind: 'help' }],
    ['/ask what does this do?', { kind: 'ask', question: 'what does this do?' }],
    ['/REVIEW', { kind: 'review' }],
    ['/Pause', { kind: 'pause' }],
    ['  /review  \n', { kind: 'review' }],
    ['/review please', { kind: 'review' }],
    ['/describe it briefly', { kind: 'describe' }],
    ['/ask', { kind: 'help' }],
    ['/ask   \n  ', { kind: 'help' }],
    ['/ask\nwhy a map here?', { kind: 'ask', question: 'why a map here?' }],
    ['/ask why a map?\n\nAnd why not a set?', { kind: 'ask', question: 'why a map?\n\nAnd why not a set?' }],
  ] as const)('%j → %j', (body, command) => {
    expect(parsePrCommand(body)).toEqual(command);
  });

  it.each([
    '/reviewer',
    '/reviews',
    '/unknown',
    'please /review',
    'LGTM',
    '',
    '/',
    '/ review',
  ])('%j is not a command', (body) => {
    expect(parsePrCommand(body)).toBeUndefined();
  });

  it.each([
    '@iris what about this?',
    'Thanks, @iris, what about this?',
    'What do you think @iris',
    'cc @IRIS',
    '(@iris)',
    'ask @iris.',
    'line one\nline two @iris: please look',
  ])('%j mentions the bot', (body) => {
    expect(parsePrCommand(body)).toEqual({ kind: 'mention', text: body.trim() });
  });

  it.each([
    'write to email@iris.com',
    'ping @iris-bot',
    'ping @iris_bot',
    'ping @irisbot',
    'the iris component',
    '@@iris',
    'a.@iris',
  ])('%j does not mention iris', (body) => {
    expect(parsePrCommand(body)).toBeUndefined();
  });

  it("a mention of the bot's own login counts, and look-alikes of it do not", () => {
    expect(parsePrCommand('@review-bot[bot] hello', 'review-bot[bot]')).toEqual({ kind: 'mention', text: '@review-bot[bot] hello' });
    expect(parsePrCommand('hey @Iris-Bot, look', 'iris-bot')).toEqual({ kind: 'mention', text: 'hey @Iris-Bot, look' });
    expect(parsePrCommand('hey @iris-bot2', 'iris-bot')).toBeUndefined();
    expect(parsePrCommand('@iris still counts', 'iris-bot')).toEqual({ kind: 'mention', text: '@iris still counts' });
    expect(parsePrCommand('@iris-bot hi')).toBeUndefined();
  });

  it('/reviewer mentioning the bot is a mention, not a review', () => {
    expect(parsePrCommand('/reviewer @iris')).toEqual({ kind: 'mention', text: '/reviewer @iris' });
  });

  it('the mention word is iris', () => {
    expect(BOT_MENTION).toBe('iris');
  });
});

describe('readComment', () => {
  const comment = (overrides: Partial<PrComment> = {}): PrComment => ({ id: '1', body: '/review', author: 'alice', association: 'MEMBER', created: true, ...overrides });

  it('reads the command of a new comment', () => {
    expect(readComment(comment(), 'iris-bot')).toEqual({ kind: 'command', command: { kind: 'review' } });
    expect(readComment(comment({ body: '/ask why?' }), undefined)).toEqual({ kind: 'command', command: { kind: 'ask', question: 'why?' } });
  });

  it("ignores the bot's own comment, whatever the case of its login", () => {
    expect(readComment(comment({ author: 'Iris-Bot' }), 'iris-bot')).toEqual({ kind: 'ignore', reason: "the bot's own comment" });
    expect(readComment(comment({ author: 'iris-bot' }), 'IRIS-BOT')).toEqual({ kind: 'ignore', reason: "the bot's own comment" });
  });

  it.each(['LGTM\n\n<!-- iris:reviews:o/n#1 -->', '/review\n\n<!-- iris-delivery:1 -->', '<!--iris:x--> @iris'])('ignores a comment carrying the marker: %j', (body) => {
    expect(readComment(comment({ body }), 'iris-bot')).toEqual({ kind: 'ignore', reason: "a comment carrying Iris's marker" });
  });

  it('ignores an edited comment even when it is a command', () => {
    expect(readComment(comment({ created: false }), 'iris-bot')).toEqual({ kind: 'ignore', reason: 'an edited or deleted comment' });
  });

  it('ignores a comment that gives no command', () => {
    expect(readComment(comment({ body: 'looks fine to me' }), 'iris-bot')).toEqual({ kind: 'conversation' });
  });

  it('without a known login, an author named like the bot is not ignored', () => {
    expect(readComment(comment({ author: 'iris' }), undefined)).toEqual({ kind: 'command', command: { kind: 'review' } });
  });
});

describe('trust and refusal', () => {
  it('trusts owners, members and collaborators only', () => {
    expect(TRUSTED_ASSOCIATIONS).toEqual(['OWNER', 'MEMBER', 'COLLABORATOR']);
  });

  it('refuses once, then ignores', () => {
    expect(untrustedVerdict(false)).toEqual({ kind: 'refuse' });
    expect(untrustedVerdict(true)).toEqual({ kind: 'ignore', reason: 'a command from a user without write access (refused before on this pull request)' });
  });

  it('names the author in the refusal', () => {
    expect(refusalText('mallory')).toBe(
      'Sorry @mallory, I only take commands from people with write access to this repository. A maintainer can ask me with `/review` or `/ask <question>`.',
    );
  });

  it('the help lists every command', () => {
    for (const word of ['/review', '/ask <question>', '/describe', '@iris', '/pause', '/resume', '/help']) expect(HELP_TEXT).toContain(word);
  });
});
