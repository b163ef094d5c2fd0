import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../db/index.ts';
import { defineEvent, event, Events } from './events.ts';

const tx = {} as Executor;

describe('engine events', () => {
  const cancelled = defineEvent<{ storeId: number; sessionId: number }>('test.cancelled');
  const promoted = defineEvent<{ storeId: number; memberId: number }>('test.promoted');
  const heard: string[] = [];

  // Listeners of the module (as features add them), each added twice: they run once.
  async function promote(_tx: Executor, e: { storeId: number; sessionId: number }) {
    heard.push(`promote ${e.sessionId}`);
    return [event(promoted, { storeId: e.storeId, memberId: 7 }), event(promoted, { storeId: e.storeId, memberId: 8 })];
  }
  async function announceCancel(_tx: Executor, e: { sessionId: number }) {
    heard.push(`cancelled ${e.sessionId}`);
  }
  async function announcePromotion(_tx: Executor, e: { memberId: number }) {
    heard.push(`promoted ${e.memberId}`);
  }
  async function refuse(_tx: Executor, e: { sessionId: number }) {
    heard.push(`guard ${e.sessionId}`);
  }

  it('runs each listener once, by stage whatever the order of adding; what a listener answers comes after, first in first out', async () => {
    const events = new Events();
    for (let i = 0; i < 2; i++) {
      // Added announce first, guard last: they run guard, write, announce.
      events.on(cancelled, announceCancel, 'announce');
      events.on(promoted, announcePromotion, 'announce');
      events.on(cancelled, promote, 'write');
      events.on(cancelled, refuse, 'guard');
    }
    heard.length = 0;
    await events.emit(
      tx,
      event(cancelled, { storeId: 1, sessionId: 3 }),
      event(cancelled, { storeId: 1, sessionId: 4 }),
    );
    expect(heard).toEqual([
      'guard 3',
      'promote 3',
      'cancelled 3',
      'guard 4',
      'promote 4',
      'cancelled 4',
      'promoted 7',
      'promoted 8',
      'promoted 7',
      'promoted 8',
    ]);
  });

  it('two registries share no listener', async () => {
    const one = new Events();
    const two = new Events();
    one.on(cancelled, announceCancel, 'announce');
    heard.length = 0;
    await two.emit(tx, event(cancelled, { storeId: 1, sessionId: 5 }));
    expect(heard).toEqual([]);
    await one.emit(tx, event(cancelled, { storeId: 1, sessionId: 5 }));
    expect(heard).toEqual(['cancelled 5']);
  });

  it('an event no feature listens to goes by, and a listener that fails fails the emit (and its transaction)', async () => {
    const events = new Events();
    await expect(events.emit(tx, event(defineEvent<{ storeId: number }>('test.nobody'), { storeId: 1 }))).resolves.toBe(
      undefined,
    );
    const broken = defineEvent<{ storeId: number }>('test.broken');
    events.on(
      broken,
      async () => {
        throw new Error('写入失败');
      },
      'write',
    );
    await expect(events.emit(tx, event(broken, { storeId: 1 }))).rejects.toThrow('写入失败');
  });

  it('every kind of event is defined in the events.ts of the feature that announces it', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const defining: string[] = [];
    for (const file of fs.readdirSync(root, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      if (/\bdefineEvent</.test(fs.readFileSync(path.join(root, file), 'utf8')))
        defining.push(file.split(path.sep).join('/'));
    }
    const outside = defining.filter((f) => !/^features\/[^/]+\/events\.ts$/.test(f) && f !== 'lib/events.ts');
    expect(outside).toEqual([]);
    expect(defining.length).toBeGreaterThan(4);
  });
});
