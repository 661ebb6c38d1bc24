import { describe, expect, it } from 'vitest';
import { parseApprovalBody, parseMessageBody, MAX_MESSAGE_CHARS } from './chat-bodies.js';
import { CHAT_HELP, parseChatLine } from './chat-commands.js';

describe('parseChatLine', () => {
  it.each([
    ['  hello there ', { kind: 'message', text: 'hello there' }],
    ['/model gpt-4.1 --provider openai', { kind: 'model', line: '/model gpt-4.1 --provider openai' }],
    ['/model', { kind: 'model', line: '/model' }],
    ['/title  My   chat', { kind: 'title', title: 'My chat' }],
    ['/help', { kind: 'reply', text: CHAT_HELP }],
    ['/resume abcd', { kind: 'reply', text: '/resume is the CLI\'s; here, New chat and Recent chats (above) start or open another chat' }],
    ['/frobnicate now', { kind: 'reply', text: 'unknown command /frobnicate; /help lists them' }],
  ])('%j', (line, expected) => {
    expect(parseChatLine(line)).toEqual(expected);
  });
});

describe('the chat bodies', () => {
  it('takes {text} and refuses anything else with a message', () => {
    expect(parseMessageBody({ text: 'hi' })).toEqual({ ok: true, value: 'hi' });
    expect(parseMessageBody({ message: 'hi' })).toEqual({ ok: false, error: 'the body must be a JSON object {"text": "<message>"}' });
    expect(parseMessageBody([])).toEqual({ ok: false, error: 'the body must be a JSON object {"text": "<message>"}' });
    expect(parseMessageBody({ text: '  ' })).toEqual({ ok: false, error: 'text is empty: type a message' });
    expect(parseMessageBody({ text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) })).toEqual({ ok: false, error: `text is ${MAX_MESSAGE_CHARS + 1} characters; the limit is ${MAX_MESSAGE_CHARS}` });
  });

  it('takes {decision: approve|deny}', () => {
    expect(parseApprovalBody({ decision: 'approve' })).toEqual({ ok: true, value: true });
    expect(parseApprovalBody({ decision: 'deny' })).toEqual({ ok: true, value: false });
    expect(parseApprovalBody({ decision: 'yes' })).toEqual({ ok: false, error: 'the body must be a JSON object {"decision": "approve" | "deny"}' });
  });
});
