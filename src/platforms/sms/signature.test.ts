import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureUrls, signedText, twilioSignature, verifyTwilioSignature, type FormParams } from './signature.js';

// Computed here by hand, the long way, so the function under test is not its own oracle.
function hmacSha1Base64(key: string, text: string): string {
  return createHmac('sha1', key).update(text, 'utf8').digest('base64');
}

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const URL_SIGNED = 'https://iris.example.com/platforms/sms';
const SMS: FormParams = [
  ['To', '+15550001111'],
  ['From', '+15557654321'],
  ['Body', 'Hello & good/bye = 100%'],
  ['MessageSid', 'SM0123456789abcdef0123456789abcdef'],
  ['AccountSid', 'AC0123456789abcdef0123456789abcdef'],
  ['NumMedia', '0'],
];

describe('twilioSignature', () => {
  it("matches the example in Twilio's security docs (token 12345)", () => {
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params: FormParams = [
      ['CallSid', 'CA1234567890ABCDE'],
      ['Caller', '+12349013030'],
      ['Digits', '1234'],
      ['From', '+12349013030'],
      ['To', '+18005551212'],
    ];
    expect(twilioSignature('12345', url, params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('signs the URL followed by name+value pairs sorted by name, with no separators', () => {
    const text =
      URL_SIGNED +
      'AccountSidAC0123456789abcdef0123456789abcdef' +
      'BodyHello & good/bye = 100%' +
      'From+15557654321' +
      'MessageSidSM0123456789abcdef0123456789abcdef' +
      'NumMedia0' +
      'To+15550001111';
    expect(signedText(URL_SIGNED, SMS)).toBe(text);
    expect(twilioSignature(TOKEN, URL_SIGNED, SMS)).toBe(hmacSha1Base64(TOKEN, text));
  });

  it('sorts case-sensitively by code unit (upper case first), whatever the arrival order', () => {
    expect(signedText('u', [['b', '1'], ['a', '2'], ['B', '3'], ['A', '4']])).toBe('uA4B3a2b1');
    expect(signedText('u', [['FromCity', 'x'], ['From', 'y']])).toBe('uFromyFromCityx');
  });

  it('orders a repeated name by value and collapses identical pairs, as the SDKs do', () => {
    expect(signedText('u', [['M', 'b'], ['M', 'a'], ['M', 'b']])).toBe('uMaMb');
  });

  it('signs the values as sent (decoded), including empty ones', () => {
    expect(signedText('u', [['ToCity', ''], ['Body', 'a+b c']])).toBe('uBodya+b cToCity');
  });
});

describe('signatureUrls', () => {
  it('adds the default-port spelling of an https URL and the normalised one', () => {
    expect(signatureUrls('https://iris.example.com/platforms/sms')).toEqual([
      'https://iris.example.com/platforms/sms',
      'https://iris.example.com:443/platforms/sms',
    ]);
  });

  it('drops a written default port (and keeps the written form)', () => {
    expect(signatureUrls('https://iris.example.com:443/platforms/sms?x=1')).toEqual([
      'https://iris.example.com:443/platforms/sms?x=1',
      'https://iris.example.com/platforms/sms?x=1',
    ]);
  });

  it('leaves an explicit non-default port alone, and an unparsable URL as it is', () => {
    expect(signatureUrls('http://127.0.0.1:8644/platforms/sms')).toEqual(['http://127.0.0.1:8644/platforms/sms']);
    expect(signatureUrls('not a url')).toEqual(['not a url']);
  });
});

describe('verifyTwilioSignature', () => {
  const good = hmacSha1Base64(TOKEN, signedText(URL_SIGNED, SMS));

  it('accepts the signature Twilio would send', () => {
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, SMS, good)).toEqual({ ok: true });
  });

  it('accepts a signature made over the default-port spelling of the URL', () => {
    const withPort = hmacSha1Base64(TOKEN, signedText('https://iris.example.com:443/platforms/sms', SMS));
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, SMS, withPort)).toEqual({ ok: true });
  });

  it('refuses a missing or empty header as missing', () => {
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, SMS, undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, SMS, '')).toEqual({ ok: false, reason: 'missing' });
  });

  it('refuses another key, another URL, a changed parameter, an added parameter', () => {
    const mismatch = { ok: false, reason: 'mismatch' };
    expect(verifyTwilioSignature(`${TOKEN}x`, URL_SIGNED, SMS, good)).toEqual(mismatch);
    expect(verifyTwilioSignature(TOKEN, 'https://iris.example.com/platforms/sms2', SMS, good)).toEqual(mismatch);
    expect(verifyTwilioSignature(TOKEN, 'http://iris.example.com/platforms/sms', SMS, good)).toEqual(mismatch);
    const changed: FormParams = SMS.map(([n, v]) => [n, n === 'Body' ? `${v}!` : v] as const);
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, changed, good)).toEqual(mismatch);
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, [...SMS, ['Extra', '']], good)).toEqual(mismatch);
    expect(verifyTwilioSignature(TOKEN, URL_SIGNED, SMS, good.toLowerCase())).toEqual(mismatch);
  });

  it('verifies nothing with an empty token, not even an HMAC keyed with the empty string', () => {
    const emptyKeyed = hmacSha1Base64('', signedText(URL_SIGNED, SMS));
    expect(verifyTwilioSignature('', URL_SIGNED, SMS, emptyKeyed)).toEqual({ ok: false, reason: 'mismatch' });
  });
});
