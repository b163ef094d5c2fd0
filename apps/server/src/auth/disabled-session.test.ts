import { insertStaff, me, Msg, updateStaff } from '@studio/contract';
import { expect, it } from 'vitest';
import { Client, describeEachDb, TEST_PASSWORD } from '../../test/harness.ts';

describeEachDb('a disabled staff member is logged out and told why', (env) => {
  it('their next call answers 401 该账号已停用; enabled again, the old session stays ended', async () => {
    const { client, app } = env();
    const account = `desk${Math.floor(Math.random() * 1e9)}`;
    const fields = { name: '停用前台', mobile: null, role: 'desk', teacherId: null } as const;
    const { id } = await client.ok(insertStaff.path, { ...fields, account, password: TEST_PASSWORD });
    const desk = new Client(app);
    expect((await desk.login(account)).code).toBe(0);
    expect((await desk.call(me.path)).code).toBe(0);

    await client.ok(updateStaff.path, { id, ...fields, enabled: 0 });
    // the page's next calls (its profile, a store call) say why it was logged out
    for (const path of [me.path, '/store/api/query/course/simple/list']) {
      const off = await desk.call(path);
      expect([off.status, off.msg]).toEqual([401, Msg.staffDisabled]);
    }
    // nobody else is told anything but 请先登录
    const stranger = new Client(app);
    stranger.cookie = 'sid=not-a-session';
    expect([(await stranger.call(me.path)).status, (await stranger.call(me.path)).msg]).toEqual([401, Msg.notLoggedIn]);

    // enabled again: the session ended at the disable does not come back; a new login works
    await client.ok(updateStaff.path, { id, ...fields, enabled: 1 });
    const old = await desk.call(me.path);
    expect([old.status, old.msg]).toEqual([401, Msg.notLoggedIn]);
    const again = new Client(app);
    expect((await again.login(account)).code).toBe(0);
    expect((await again.call(me.path)).code).toBe(0);
  });
});
