// The JSON-RPC methods of the fake signal-cli daemon (signal-daemon.ts): what `send`,
// `sendTyping`, `listAccounts` and `version` answer, with the errors signal-cli gives for the same
// input (SendCommand, SendTypingCommand, CommandUtil, SignalJsonRpcCommandHandler).
import type { FakeSignalMode } from './signal-daemon.js';

export const JSON_RPC = Object.freeze({ PARSE: -32700, INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602 });
const USER_ERROR = -1;
const E164 = /^\+[1-9]\d{5,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class RpcFailure extends Error {
  constructor(readonly code: number, message: string, readonly data: unknown = null) {
    super(message);
  }
}

export type SentRecord = {
  readonly recipient: readonly string[];
  readonly groupId: string | null;
  readonly message: string;
  readonly account: string | null;
  readonly timestamp: number;
};

export type MethodContext = {
  readonly mode: FakeSignalMode;
  readonly account: string;
  readonly unregistered: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
  readonly timestamp: () => number;
  readonly recordSent: (sent: SentRecord) => void;
};

/** Runs one method; its result, or an `RpcFailure` thrown with signal-cli's code and message. */
export function createMethods(context: MethodContext): (method: string, params: Record<string, unknown>) => unknown {
  const { mode, account, unregistered, groups, timestamp } = context;

  function perform(method: string, params: Record<string, unknown>): unknown {
    if (method === 'listAccounts') {
      if (mode === 'single') throw new RpcFailure(JSON_RPC.METHOD_NOT_FOUND, 'Method not implemented');
      return [{ number: account }];
    }
    if (method === 'version') return { version: 'fake' };
    if (method !== 'send' && method !== 'sendTyping') throw new RpcFailure(JSON_RPC.METHOD_NOT_FOUND, 'Method not implemented');
    const usedAccount = pickAccount(params);
    const recipients = listParam(params, 'recipient');
    const groupIds = listParam(params, 'groupId');
    if (recipients.length === 0 && groupIds.length === 0) throw new RpcFailure(USER_ERROR, 'No recipients given');
    for (const recipient of recipients) {
      if (!E164.test(recipient) && !UUID.test(recipient)) {
        throw new RpcFailure(USER_ERROR, `Invalid phone number '${recipient}': not a valid number`);
      }
    }
    for (const groupId of groupIds) {
      if (!isBase64GroupId(groupId)) throw new RpcFailure(USER_ERROR, `Invalid group id: Failed to decode groupId (must be base64) "${groupId}"`);
    }
    for (const recipient of recipients) {
      if (unregistered.has(recipient)) throw new RpcFailure(USER_ERROR, `The user ${recipient} is not registered.`);
    }
    for (const groupId of groupIds) {
      if (!groups.has(groupId)) throw new RpcFailure(USER_ERROR, `Group not found: ${groupId}`);
    }
    // Results list the recipients; the fake knows no group members, so a group's list is empty.
    if (method === 'sendTyping') {
      return { timestamp: timestamp(), results: recipients.map((number) => ({ recipientAddress: { uuid: null, number, username: null }, type: 'SUCCESS' })) };
    }
    const message = params.message;
    if (typeof message !== 'string' && message !== undefined && message !== null) {
      throw new RpcFailure(-32603, `class ${typeof message} cannot be cast to class java.lang.String (ClassCastException)`);
    }
    if (!message) {
      throw new RpcFailure(USER_ERROR, 'Sending empty message is not allowed, either a message, attachment or sticker must be given.');
    }
    const ts = timestamp();
    context.recordSent({ recipient: recipients, groupId: groupIds[0] ?? null, message, account: usedAccount, timestamp: ts });
    return {
      timestamp: ts,
      results: recipients.map((number) => ({ recipientAddress: { uuid: null, number, username: null }, type: 'SUCCESS' })),
    };
  }

  function pickAccount(params: Record<string, unknown>): string | null {
    const given = params.account;
    if (mode === 'single') return typeof given === 'string' ? given : null;
    if (given !== undefined && given !== null) {
      if (given !== account) throw new RpcFailure(JSON_RPC.INVALID_PARAMS, 'Specified account does not exist');
      return account;
    }
    // With one account the daemon uses it when none is named.
    return null;
  }


  return perform;
}

/** JsonRpcNamespace.getList: the name or its plural, a single value or an array. */
export function listParam(params: Record<string, unknown>, name: string): string[] {
  const value = params[name] ?? params[`${name}s`];
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (typeof entry !== 'string') throw new RpcFailure(-32603, `class ${typeof entry} cannot be cast to class java.lang.String (ClassCastException)`);
    return entry;
  });
}

/** Group ids are base64 of 16 (v1) or 32 (v2) bytes. */
function isBase64GroupId(id: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return false;
  const bytes = Buffer.from(id, 'base64').length;
  return bytes === 16 || bytes === 32;
}
