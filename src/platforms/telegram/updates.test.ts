import { describe, expect, it } from 'vitest';
import { commandForAnotherBot, parseUpdate } from './updates.js';

const privateMessage = {
  message_id: 17,
  from: { id: 4242, is_bot: false, first_name: 'Ada', username: 'ada_l' },
  chat: { id: 4242, type: 'private', first_name: 'Ada' },
  date: 1_764_000_000,
  text: 'hello there',
};

/** A copy of the message without one field. */
function without(key: keyof typeof privateMessage): Record<string, unknown> {
  return Object.fromEntries(Object.entries(privateMessage).filter(([name]) => name !== key));
}

describe('parseUpdate: messages', () => {
  it('reads a private text message into an InboundMessage', () => {
    expect(parseUpdate({ update_id: 900, message: privateMessage })).toEqual({
      kind: 'message',
      updateId: 900,
      message: {
        platform: 'telegram',
        chatId: '4242',
        threadId: null,
        messageId: '17',
        userId: '4242',
        userName: 'ada_l',
        text: 'hello there',
        isDirect: true,
        receivedAt: 1_764_000_000_000,
      },
    });
  });

  it('keeps a group chat id negative and marks it not direct', () => {
    const parsed = parseUpdate({
      update_id: 1,
      message: { ...privateMessage, chat: { id: -1001234567890, type: 'supergroup', title: 'Team' } },
    });
    expect(parsed).toMatchObject({ kind: 'message', message: { chatId: '-1001234567890', isDirect: false, userId: '4242' } });
  });

  it('takes a forum topic as the thread', () => {
    const parsed = parseUpdate({
      update_id: 2,
      message: { ...privateMessage, chat: { id: -100, type: 'supergroup' }, message_thread_id: 55, is_topic_message: true },
    });
    expect(parsed).toMatchObject({ kind: 'message', message: { threadId: '55' } });
  });

  it('ignores message_thread_id of a reply thread outside a forum topic', () => {
    const parsed = parseUpdate({ update_id: 3, message: { ...privateMessage, chat: { id: -5, type: 'group' }, message_thread_id: 9 } });
    expect(parsed).toMatchObject({ kind: 'message', message: { threadId: null } });
  });

  it('uses the caption when there is no text', () => {
    const parsed = parseUpdate({ update_id: 4, message: { ...without('text'), photo: [{ file_id: 'x' }], caption: 'look at this' } });
    expect(parsed).toMatchObject({ kind: 'message', message: { text: 'look at this' } });
  });

  it('falls back to first_name, then null, for the user name', () => {
    const noUsername = parseUpdate({ update_id: 5, message: { ...privateMessage, from: { id: 1, is_bot: false, first_name: 'Grace' } } });
    expect(noUsername).toMatchObject({ message: { userName: 'Grace' } });
    const noName = parseUpdate({ update_id: 6, message: { ...privateMessage, from: { id: 1, is_bot: false, first_name: '' } } });
    expect(noName).toMatchObject({ message: { userName: null } });
  });
});

describe('parseUpdate: skipped updates', () => {
  it.each([
    ['an edited message', { update_id: 10, edited_message: privateMessage }, 'an edited message'],
    ['a channel post', { update_id: 10, channel_post: { ...privateMessage, chat: { id: -9, type: 'channel' } } }, 'a channel post'],
    ['an edited channel post', { update_id: 10, edited_channel_post: privateMessage }, 'an edited channel post'],
    ['a callback query', { update_id: 10, callback_query: { id: 'q' } }, 'not a message (callback_query)'],
    ['an empty update', { update_id: 10 }, 'not a message (empty update)'],
    ['a message in a channel chat', { update_id: 10, message: { ...privateMessage, chat: { id: -9, type: 'channel' } } }, 'a channel post'],
  ])('skips %s (not malformed)', (_name, raw, reason) => {
    expect(parseUpdate(raw)).toEqual({ kind: 'skip', updateId: 10, reason, malformed: false });
  });

  it('skips a sticker (no text, no caption)', () => {
    expect(parseUpdate({ update_id: 11, message: { ...without('text'), sticker: { file_id: 's' } } })).toMatchObject({
      kind: 'skip',
      updateId: 11,
      malformed: false,
      reason: expect.stringMatching(/^no text/) as unknown,
    });
  });

  it('skips a whitespace-only text', () => {
    expect(parseUpdate({ update_id: 12, message: { ...privateMessage, text: '  \n ' } })).toMatchObject({ kind: 'skip', updateId: 12 });
  });

  it('skips a message sent on behalf of a chat (no from)', () => {
    expect(parseUpdate({ update_id: 13, message: { ...without('from'), sender_chat: { id: -7, type: 'channel' } } })).toEqual({
      kind: 'skip',
      updateId: 13,
      reason: 'no sender (sent on behalf of a chat)',
      malformed: false,
    });
  });
});

describe('parseUpdate: malformed updates', () => {
  it.each([
    ['null', null],
    ['a string', 'update'],
    ['no update_id', { message: privateMessage }],
    ['a string update_id', { update_id: '7', message: privateMessage }],
    ['a fractional update_id', { update_id: 7.5, message: privateMessage }],
  ])('has no update id to acknowledge: %s', (_name, raw) => {
    expect(parseUpdate(raw)).toEqual({ kind: 'skip', updateId: null, reason: 'malformed update: no integer update_id', malformed: true });
  });

  it.each([
    ['message is not an object', 'hello', 'malformed message'],
    ['chat missing', { ...privateMessage, chat: undefined }, 'malformed message (at chat)'],
    ['chat id a string', { ...privateMessage, chat: { id: 'x', type: 'private' } }, 'malformed message (at chat.id)'],
    ['text a number', { ...privateMessage, text: 5 }, 'malformed message (at text)'],
    ['from id missing', { ...privateMessage, from: { first_name: 'A' } }, 'malformed message (at from.id)'],
    ['date missing', { ...privateMessage, date: undefined }, 'malformed message (at date)'],
  ])('keeps the update id of a malformed message (%s) so that it can be acknowledged', (_name, message, reason) => {
    expect(parseUpdate({ update_id: 20, message })).toEqual({ kind: 'skip', updateId: 20, reason, malformed: true });
  });
});

describe('commandForAnotherBot', () => {
  it('is true only for a command addressed to a different bot', () => {
    expect(commandForAnotherBot('/new@other_bot', 'iris_bot')).toBe(true);
    expect(commandForAnotherBot('/help@Other_Bot please', 'iris_bot')).toBe(true);
    expect(commandForAnotherBot('/new@IRIS_bot', 'iris_bot')).toBe(false);
    expect(commandForAnotherBot('/new', 'iris_bot')).toBe(false);
    expect(commandForAnotherBot('mail me at a@b.c', 'iris_bot')).toBe(false);
    expect(commandForAnotherBot('/new@other_bot', null)).toBe(false);
  });
});
