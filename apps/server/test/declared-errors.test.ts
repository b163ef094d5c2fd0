import {
  batchArrangeCourse,
  batchArrangeWeekCourse,
  batchCancelTimetable,
  callErrors,
  cancelTimetable,
  copyTimetable,
  declaresError,
  insertTimetable,
  Msg,
  TimetableMsg,
  updateTimetable,
} from '@studio/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { failOnUndeclared, undeclaredAnswer, watchDeclaredErrors } from './declared-errors.ts';

const answer = (status: number, msg: string) => ({ code: status, data: null, msg });

describe('every failed answer of a call is one the contract declares for it', () => {
  it('declares the room clash on every call that places sessions (with its placeholders)', () => {
    const clash = Msg.roomConflict('单车房', '2099-05-06 10:00-11:00');
    for (const call of [insertTimetable, updateTimetable, batchArrangeCourse, batchArrangeWeekCourse, copyTimetable]) {
      expect(undeclaredAnswer(call.path, 409, answer(409, clash)), call.path).toBeNull();
      expect(
        declaresError(callErrors(call), 409, Msg.roomConflict('单车房', '2099-05-13 19:00、2099-05-20 19:00')),
      ).toBe(true);
    }
  });

  it('declares the ended-session delete with any count, with and without a refund (no literal 0)', () => {
    const withRefund = TimetableMsg.endedDelete('2026-11-27 09:00', 3, '2 次、10.00 元');
    const pendingsOnly = TimetableMsg.endedDelete('2026-11-27 09:00', 3, '');
    expect(undeclaredAnswer(cancelTimetable.path, 409, answer(409, withRefund))).toBeNull();
    expect(undeclaredAnswer(cancelTimetable.path, 409, answer(409, pendingsOnly))).toBeNull();
    expect(callErrors(cancelTimetable).some((e) => e.msg.includes('取消0个'))).toBe(false);
  });

  it('declares the batch delete range cap, the role refusal and a foreign origin', () => {
    expect(undeclaredAnswer(batchCancelTimetable.path, 400, answer(400, Msg.batchDeleteRangeMax))).toBeNull();
    expect(undeclaredAnswer(batchCancelTimetable.path, 403, answer(403, Msg.forbiddenRole))).toBeNull();
    expect(undeclaredAnswer(insertTimetable.path, 403, answer(403, Msg.foreignOrigin))).toBeNull();
  });

  it('names an answer its call does not declare: another message, another status, another call', () => {
    const clash = Msg.roomConflict('单车房', '2099-05-06 10:00-11:00');
    expect(undeclaredAnswer(insertTimetable.path, 409, answer(409, '别的冲突'))).toBe(
      `${insertTimetable.path}: 409 别的冲突`,
    );
    expect(undeclaredAnswer(insertTimetable.path, 400, answer(400, clash))).toBe(
      `${insertTimetable.path}: 400 ${clash}`,
    );
    expect(undeclaredAnswer(batchCancelTimetable.path, 409, answer(409, clash))).not.toBeNull();
    // success, and paths that are not calls, are not its business
    expect(undeclaredAnswer(insertTimetable.path, 200, { code: 0, data: null, msg: '' })).toBeNull();
    expect(undeclaredAnswer('/no/such/call', 404, answer(404, Msg.notFoundRoute))).toBeNull();
  });

  it('watches an app: an undeclared answer fails the suite, a declared one does not', async () => {
    const app = Fastify();
    const watch = watchDeclaredErrors(app);
    app.post(insertTimetable.path, async (req, reply) => {
      const msg = (req.body as { msg: string }).msg;
      return reply.status(409).send(answer(409, msg));
    });
    await app.ready();
    try {
      const send = (msg: string) =>
        app.inject({
          method: 'POST',
          url: insertTimetable.path,
          payload: { msg },
          headers: { 'content-type': 'application/json' },
        });
      await send(Msg.teacherConflict('2099-05-06 10:00-11:00'));
      expect(() => failOnUndeclared(watch)).not.toThrow();
      await send('未声明的冲突');
      await send('未声明的冲突');
      expect(() => failOnUndeclared(watch)).toThrow(`${insertTimetable.path}: 409 未声明的冲突`);
      // reported once, then the next test starts clean
      expect(() => failOnUndeclared(watch)).not.toThrow();
    } finally {
      await app.close();
    }
  });
});
