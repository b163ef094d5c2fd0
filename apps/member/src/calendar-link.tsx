import { memberCalendarFeed, resetMemberCalendarFeed, type CalendarFeed } from '@studio/contract';
import { Button, Dialog, Popup, Toast } from 'antd-mobile';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from './api.ts';

/**
 * 添加到手机日历: the member's private calendar address (webcal opens the phone's calendar app to
 * subscribe; the address can also be copied into a calendar app by hand). Booked classes appear
 * there, cancelled ones leave at the calendar's next refresh. 重新生成 ends the old address.
 */
export function CalendarLink() {
  const [feed, setFeed] = useState<CalendarFeed | null>(null);
  const fail = (e: Error) => Toast.show({ content: e.message, duration: 3000 });
  const open = useMutation({ mutationFn: () => call(memberCalendarFeed, {}), onSuccess: setFeed, onError: fail });
  const reset = useMutation({
    mutationFn: () => call(resetMemberCalendarFeed, {}),
    onSuccess: (f) => {
      setFeed(f);
      Toast.show({ icon: 'success', content: '已重新生成，旧地址已失效' });
    },
    onError: fail,
  });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      Toast.show({ icon: 'success', content: '已复制' });
    } catch {
      // Inside some in-app browsers the clipboard is closed: the address is on screen to long-press.
      Toast.show({ content: '请长按上面的地址复制' });
    }
  };
  const confirmReset = async () => {
    const ok = await Dialog.confirm({
      content: '重新生成后，已经订阅的旧地址将不再更新，需要用新地址重新订阅。',
      confirmText: '重新生成',
      cancelText: '取消',
    });
    if (ok) reset.mutate();
  };

  return (
    <>
      <Button block fill="outline" className="touch" loading={open.isPending} onClick={() => open.mutate()}>
        添加到手机日历
      </Button>
      <Popup
        visible={feed !== null}
        onMaskClick={() => setFeed(null)}
        onClose={() => setFeed(null)}
        bodyStyle={{ borderRadius: '16px 16px 0 0', padding: 16 }}
      >
        {feed && (
          <div className="calendar-feed" data-testid="calendar-feed">
            <h3>订阅我的课程日历</h3>
            <p>订阅后，预约的课程会出现在手机日历里，取消的预约会自动消失（日历每隔一段时间刷新）。</p>
            <Button block color="primary" className="touch" onClick={() => window.location.assign(feed.webcal)}>
              打开手机日历订阅
            </Button>
            <p className="feed-url" data-testid="calendar-feed-url">
              {feed.url}
            </p>
            <Button block className="touch" onClick={() => copy(feed.url)}>
              复制地址
            </Button>
            <Button block fill="none" className="touch" loading={reset.isPending} onClick={confirmReset}>
              重新生成地址
            </Button>
          </div>
        )}
      </Popup>
    </>
  );
}
