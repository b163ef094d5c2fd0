import {
  CardLifeMsg,
  LEAVE_STATUS_NAMES,
  memberCardLeaves,
  memberRequestCardLeave,
  type ReqOf,
} from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Form, TextArea, Toast } from 'antd-mobile';
import { useState } from 'react';
import { ApiError, call } from './api.ts';
import { addDays } from './format.ts';
import { afterWrite } from './invalidations.ts';
import { keys } from './query-keys.ts';
import { useStoreToday } from './store-clock.ts';
import { SubHead } from './sub-head.tsx';

/** The card a leave is asked for. */
export interface LeaveCard {
  id: number;
  cardName: string;
  expireTime: string | null;
}

/** Whole days from `from` to `to`, both included. */
const daysOf = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The leave request: the card's leaves come back changed, its expiry and bookings too. */
function useRequestLeave() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: ReqOf<typeof memberRequestCardLeave>) => call(memberRequestCardLeave, req),
    onSuccess: () => afterWrite(qc, 'leave'),
  });
}

/**
 * 请假 on the phone: the dates (both days of leave) and why; the card's leave rules and what is left
 * of them, and its leaves so far. Approved at once or waiting for the desk, as the store chooses;
 * classes booked inside the leave are named and cancelled (with refund) only after the member agrees.
 */
export function LeaveScreen({ card, onBack }: { card: LeaveCard; onBack: () => void }) {
  const today = useStoreToday();
  const [from, setFrom] = useState(addDays(today, 1));
  const [to, setTo] = useState(addDays(today, 3));
  const [reason, setReason] = useState('');
  const info = useQuery({
    queryKey: keys.cards.leaves(card.id),
    queryFn: ({ signal }) => call(memberCardLeaves, { mcId: card.id }, { signal }),
    meta: { errorToast: true },
  });
  const ask = useRequestLeave();
  const rules = info.data?.rules;
  const days = to >= from ? daysOf(from, to) : 0;

  const send = async (cancelBookings: boolean) => {
    try {
      const r = await ask.mutateAsync({ mcId: card.id, fromDate: from, toDate: to, reason, cancelBookings });
      Toast.show({ icon: 'success', content: r.status === 'approved' ? '请假成功' : '已提交，等待门店审批' });
      onBack();
    } catch (e) {
      const msg = (e as Error).message;
      // Classes booked inside the leave: say which way it goes, then ask again with the member's yes.
      if (e instanceof ApiError && e.status === 409 && msg.startsWith('请假期间有')) {
        const yes = await Dialog.confirm({ content: msg, confirmText: '取消这些课并请假', cancelText: '再想想' });
        if (yes) await send(true);
        return;
      }
      Toast.show({ content: msg, duration: 3000 });
    }
  };

  return (
    <div className="leave-screen">
      <SubHead title={`请假 · ${card.cardName}`} onBack={onBack} />
      {rules && (
        <div className="leave-rules" data-testid="leave-rules">
          {rules.allowed ? (
            <>
              {rules.times !== null && (
                <div>
                  可请假 {rules.times} 次，已用 {rules.usedTimes} 次
                </div>
              )}
              {rules.daysMax !== null && <div>每次最多 {rules.daysMax} 天</div>}
              {rules.daysTotal !== null && (
                <div>
                  累计最多 {rules.daysTotal} 天，已用 {rules.usedDays} 天
                </div>
              )}
              <div>
                请假期间不能预约，有效期顺延请假天数{card.expireTime ? `（现至 ${card.expireTime.slice(0, 10)}）` : ''}
              </div>
            </>
          ) : (
            <div>{CardLifeMsg.notAllowed}</div>
          )}
        </div>
      )}
      {rules?.allowed && (
        <Form layout="vertical">
          <Form.Item label="开始日期（含）">
            <input
              className="date-input"
              type="date"
              value={from}
              min={today}
              aria-label="请假开始日期"
              onChange={(e) => setFrom(e.target.value)}
            />
          </Form.Item>
          <Form.Item label="结束日期（含）">
            <input
              className="date-input"
              type="date"
              value={to}
              min={from}
              aria-label="请假结束日期"
              onChange={(e) => setTo(e.target.value)}
            />
          </Form.Item>
          <Form.Item label="请假原因">
            <TextArea value={reason} onChange={setReason} maxLength={200} rows={2} placeholder="如：出差、生病" />
          </Form.Item>
          <div className="leave-days">共 {days} 天</div>
          <Button
            block
            color="primary"
            className="touch"
            loading={ask.isPending}
            disabled={!reason.trim() || days <= 0}
            onClick={() => void send(false)}
          >
            提交请假
          </Button>
        </Form>
      )}
      {(info.data?.list.length ?? 0) > 0 && (
        <div className="leave-list">
          <h3>请假记录</h3>
          {info.data!.list.map((l) => (
            <div key={l.id} className="leave-item" data-testid="leave-item">
              <span>
                {l.fromDate} 至 {l.endedDate ?? l.toDate}（{l.days} 天）
              </span>
              <span>{LEAVE_STATUS_NAMES[l.status]}</span>
              {l.decideRemark && <div className="leave-remark">{l.decideRemark}</div>}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
