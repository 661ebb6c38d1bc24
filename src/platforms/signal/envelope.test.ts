import { describe, expect, it } from 'vitest';
import { parseReceiveEvent } from './envelope.js';

const BOT = '+15550000000';
const GROUP = 'Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=';

function event(envelope: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ account: BOT, envelope, ...extra });
}

// As signal-cli's JsonMessageEnvelope writes it (nulls included, NON_NULL parts left out).
const direct = {
  source: '+15551234567',
  sourceNumber: '+15551234567',
  sourceUuid: '5f3c0e1a-1111-4222-8333-444455556666',
  sourceName: 'Ada',
  sourceDevice: 1,
  timestamp: 1631458508784,
  serverReceivedTimestamp: 1631458508790,
  serverDeliveredTimestamp: 1631458508800,
  dataMessage: { timestamp: 1631458508784, message: 'hello', expiresInSeconds: 0, viewOnce: false },
};

describe('parseReceiveEvent', () => {
  it('reads a direct message', () => {
    expect(parseReceiveEvent(event(direct), BOT)).toEqual({
      ok: true,
      message: {
        platform: 'signal',
        chatId: '+15551234567',
        threadId: null,
        messageId: '+15551234567:1631458508784',
        userId: '+15551234567',
        userName: 'Ada',
        text: 'hello',
        isDirect: true,
        receivedAt: 1631458508784,
      },
    });
  });

  it('reads a group message: chat group.<id>, not direct', () => {
    const envelope = {
      ...direct,
      dataMessage: { ...direct.dataMessage, groupInfo: { groupId: GROUP, groupName: 'Team', revision: 3, type: 'DELIVER' } },
    };
    const parsed = parseReceiveEvent(event(envelope), BOT);
    expect(parsed).toMatchObject({ ok: true, message: { chatId: `group.${GROUP}`, isDirect: false, userId: '+15551234567' } });
  });

  it('uses the data message timestamp in the id and the envelope timestamp as receivedAt', () => {
    const envelope = { ...direct, timestamp: 2000, dataMessage: { ...direct.dataMessage, timestamp: 1999 } };
    expect(parseReceiveEvent(event(envelope), BOT)).toMatchObject({ ok: true, message: { messageId: '+15551234567:1999', receivedAt: 2000 } });
  });

  it('falls back to the UUID when the sender hides their number, and to null for no name', () => {
    const envelope = { ...direct, source: direct.sourceUuid, sourceNumber: null, sourceName: null };
    expect(parseReceiveEvent(event(envelope), BOT)).toMatchObject({
      ok: true,
      message: { chatId: direct.sourceUuid, userId: direct.sourceUuid, userName: null, messageId: `${direct.sourceUuid}:1631458508784` },
    });
  });

  it('skips what the bot account sent itself, by config or by the event account', () => {
    const own = { ...direct, source: BOT, sourceNumber: BOT };
    expect(parseReceiveEvent(event(own), BOT)).toMatchObject({ ok: false, skip: 'own_account' });
    expect(parseReceiveEvent(event(own), '')).toMatchObject({ ok: false, skip: 'own_account' });
  });

  it.each([
    ['receipt', { receiptMessage: { when: 1, isDelivery: true, isRead: false, isViewed: false, timestamps: [1] } }],
    ['typing', { typingMessage: { action: 'STARTED', timestamp: 1 } }],
    ['sync', { syncMessage: { sentMessage: { destination: '+15551234567', timestamp: 1, message: 'x' } } }],
  ])('skips a %s envelope as not a message', (_kind, part) => {
    const rest: Record<string, unknown> = { ...direct };
    delete rest.dataMessage;
    expect(parseReceiveEvent(event({ ...rest, ...part }), BOT)).toMatchObject({ ok: false, skip: 'not_a_message' });
  });

  it('skips a receive error without an envelope', () => {
    const data = JSON.stringify({ account: BOT, exception: { message: 'decrypt failed', type: 'ProtocolException' } });
    expect(parseReceiveEvent(data, BOT)).toMatchObject({ ok: false, skip: 'not_a_message' });
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['blank', '  \n'],
  ])('skips a data message whose text is %s', (_kind, message) => {
    const envelope = { ...direct, dataMessage: { ...direct.dataMessage, message } };
    expect(parseReceiveEvent(event(envelope), BOT)).toMatchObject({ ok: false, skip: 'no_text' });
  });

  it.each([
    ['not JSON', '{"envelope":'],
    ['a JSON array', '[1,2]'],
    ['no envelope', JSON.stringify({ account: BOT })],
    ['no envelope timestamp', event({ ...direct, timestamp: 'soon' })],
    ['a text that is not a string', event({ ...direct, dataMessage: { timestamp: 1, message: 42 } })],
    ['a group without an id', event({ ...direct, dataMessage: { timestamp: 1, message: 'x', groupInfo: { type: 'DELIVER' } } })],
    ['no sender', event({ ...direct, source: null, sourceNumber: null, sourceUuid: null })],
  ])('calls %s malformed', (_kind, data) => {
    const parsed = parseReceiveEvent(data, BOT);
    expect(parsed.ok).toBe(false);
    expect(parsed).toMatchObject({ skip: 'malformed' });
  });
});
