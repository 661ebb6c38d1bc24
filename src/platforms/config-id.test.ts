import { describe, expect, it } from 'vitest';
import { configId } from './config-id.js';

describe('ids from config.yaml', () => {
  it('a number is its decimal string, and gets back the + that YAML dropped on Signal and SMS', () => {
    expect(configId('telegram', 123456)).toBe('123456');
    expect(configId('telegram', -100200)).toBe('-100200');
    expect(configId('signal', 15551230001)).toBe('+15551230001');
    expect(configId('sms', 15551230001)).toBe('+15551230001');
  });

  it('a string is kept as written', () => {
    expect(configId('signal', '+15551230001')).toBe('+15551230001');
    expect(configId('signal', 'group.aXJpcw==')).toBe('group.aXJpcw==');
    expect(configId('sms', '')).toBe('');
    expect(configId('telegram', '@channel')).toBe('@channel');
  });
});
